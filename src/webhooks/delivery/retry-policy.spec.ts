import { backoffDelayMs, isPermanentFailure, nextStep, parseRetryAfterMs } from './retry-policy';

describe('webhook retry policy', () => {
  const schedule = { retryBaseDelayMs: 5_000, retryMaxDelayMs: 30 * 60_000 };
  const now = new Date('2025-01-01T00:00:00.000Z');
  const week = new Date(now.getTime() + 7 * 24 * 3600_000);
  const answer = (statusCode: number | null, retryAfterMs: number | null = null) => ({
    statusCode,
    error: statusCode === null ? 'ECONNREFUSED' : null,
    retryAfterMs,
  });

  it('treats 4xx as permanent except 408, 425 and 429; 3xx, 5xx and no answer are retried', () => {
    for (const status of [400, 401, 403, 404, 409, 410, 422]) expect(isPermanentFailure(status)).toBe(true);
    for (const status of [null, 301, 408, 425, 429, 500, 502, 503, 504]) expect(isPermanentFailure(status)).toBe(false);
  });

  it('doubles the delay from the base, with equal jitter, never above the 30 minute cap', () => {
    expect(backoffDelayMs(1, schedule, () => 0)).toBe(2_500);
    expect(backoffDelayMs(1, schedule, () => 1)).toBe(5_000);
    expect(backoffDelayMs(2, schedule, () => 1)).toBe(10_000);
    expect(backoffDelayMs(4, schedule, () => 1)).toBe(40_000);
    for (const tries of [10, 11, 50, 400]) {
      expect(backoffDelayMs(tries, schedule, () => 1)).toBe(30 * 60_000);
      expect(backoffDelayMs(tries, schedule, () => 0)).toBe(15 * 60_000);
    }
  });

  it('delivers on 2xx, fails at once on a permanent answer, else schedules the next try', () => {
    expect(nextStep(answer(204), 1, now, week, schedule)).toEqual({ status: 'DELIVERED', nextAttemptAt: null, reason: null });
    expect(nextStep(answer(409), 1, now, week, schedule)).toEqual({ status: 'FAILED', nextAttemptAt: null, reason: 'not retried: permanent answer' });
    expect(nextStep(answer(500), 3, now, week, schedule, () => 1)).toEqual({
      status: 'RETRYING',
      nextAttemptAt: new Date(now.getTime() + 20_000),
      reason: null,
    });
    expect(nextStep(answer(null), 1, now, week, schedule, () => 0).nextAttemptAt).toEqual(new Date(now.getTime() + 2_500));
  });

  it('honours a longer Retry-After up to the cap', () => {
    expect(nextStep(answer(429, 60_000), 1, now, week, schedule, () => 1).nextAttemptAt).toEqual(new Date(now.getTime() + 60_000));
    expect(nextStep(answer(503, 3 * 3600_000), 1, now, week, schedule, () => 1).nextAttemptAt).toEqual(new Date(now.getTime() + 30 * 60_000));
    expect(nextStep(answer(429, 0), 2, now, week, schedule, () => 1).nextAttemptAt).toEqual(new Date(now.getTime() + 10_000));
  });

  it('gives up when the next try would fall past the retry window', () => {
    const soon = new Date(now.getTime() + 60_000);
    expect(nextStep(answer(500), 20, now, soon, schedule)).toEqual({ status: 'FAILED', nextAttemptAt: null, reason: 'given up: the retry window ended' });
  });

  it('keeps trying for seven days, about every 30 minutes once capped', () => {
    let clock = now;
    let tries = 0;
    for (;;) {
      tries++;
      const step = nextStep(answer(500), tries, clock, week, schedule, () => 0.5);
      if (step.status !== 'RETRYING') break;
      expect(step.nextAttemptAt.getTime() - clock.getTime()).toBeLessThanOrEqual(30 * 60_000);
      clock = step.nextAttemptAt;
    }
    expect(week.getTime() - clock.getTime()).toBeLessThan(30 * 60_000);
    expect(tries).toBeGreaterThan(300);
    expect(tries).toBeLessThan(500);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfterMs('120', now)).toBe(120_000);
    expect(parseRetryAfterMs('Wed, 01 Jan 2025 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfterMs('soon', now)).toBeNull();
    expect(parseRetryAfterMs(undefined, now)).toBeNull();
  });
});
