/**
 * What an answer means for a webhook and when the next try happens. Pure functions, so the
 * schedule is unit-tested without clocks or queues.
 */

/** Statuses a delivery goes through. `DELIVERED` and `FAILED` are final for the worker. */
export const DELIVERY_STATUSES = ['PENDING', 'RETRYING', 'DELIVERED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The outcome of one HTTP try. `statusCode` is null when no answer came (timeout, refused). */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  /** From a `Retry-After` header on 429/503, when the endpoint sent one. */
  retryAfterMs: number | null;
}

export interface RetrySchedule {
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
}

export function isSuccess(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/**
 * 4xx answers say the request itself is refused, so sending it again would be refused again:
 * 409 (the platform says "already have it" or "conflict"), 400, 401, 403, 404, 410, 422...
 * Except 408 (timeout), 425 (too early) and 429 (rate limited), which ask to come back later.
 * 3xx (we never follow redirects), 5xx, timeouts and network errors are retried: the endpoint
 * is read again at each try, so a platform that fixes its configuration gets the waiting ones.
 */
export function isPermanentFailure(statusCode: number | null): boolean {
  if (statusCode === null || statusCode < 400 || statusCode >= 500) return false;
  return statusCode !== 408 && statusCode !== 425 && statusCode !== 429;
}

/**
 * Delay before the try after `failedTries` failures: exponential from the base, capped, with
 * "equal jitter" (half fixed, half random) so that many webhooks failing together (an endpoint
 * that was down) do not all come back at the same instant, and never above the cap.
 */
export function backoffDelayMs(failedTries: number, schedule: RetrySchedule, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failedTries - 1, 0), 40);
  const ceiling = Math.min(schedule.retryMaxDelayMs, schedule.retryBaseDelayMs * 2 ** exponent);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export type NextStep =
  | { status: 'DELIVERED'; nextAttemptAt: null; reason: null }
  | { status: 'FAILED'; nextAttemptAt: null; reason: string }
  | { status: 'RETRYING'; nextAttemptAt: Date; reason: null };

/**
 * After an automatic try: delivered, given up (a permanent answer, or the next try would fall
 * past `retryUntil`), or retried at `nextAttemptAt`. A `Retry-After` longer than our own delay
 * is honoured, up to the cap.
 */
export function nextStep(
  outcome: AttemptOutcome,
  failedTries: number,
  now: Date,
  retryUntil: Date,
  schedule: RetrySchedule,
  random: () => number = Math.random,
): NextStep {
  if (isSuccess(outcome.statusCode)) return { status: 'DELIVERED', nextAttemptAt: null, reason: null };
  if (isPermanentFailure(outcome.statusCode)) {
    return { status: 'FAILED', nextAttemptAt: null, reason: 'not retried: permanent answer' };
  }
  let delayMs = backoffDelayMs(failedTries, schedule, random);
  if (outcome.retryAfterMs !== null) delayMs = Math.min(schedule.retryMaxDelayMs, Math.max(delayMs, outcome.retryAfterMs));
  const nextAttemptAt = new Date(now.getTime() + delayMs);
  if (nextAttemptAt.getTime() > retryUntil.getTime()) {
    return { status: 'FAILED', nextAttemptAt: null, reason: 'given up: the retry window ended' };
  }
  return { status: 'RETRYING', nextAttemptAt, reason: null };
}

/** `Retry-After` as seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfterMs(header: string | undefined, now: Date): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
