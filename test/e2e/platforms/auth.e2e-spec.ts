import { TestApp, TestPlatform, anonymousClient, startTestApp } from '../../support/test-app';

/**
 * Platform Basic authentication (docs/api.md "Authentication"): the challenge on 401, the
 * failed-attempt limits per client id and per source address, and no timing difference between an
 * unknown client id and a known one with a wrong secret.
 */
const UNAUTHORIZED = { status: 401, code: 'UNAUTHORIZED', message: 'Missing or invalid platform credentials' };
const CHALLENGE = 'Basic realm="Payments API", charset="UTF-8"';
/** A route of ours (no such operation in the production contract, which declares 429 on few routes). */
const ROUTE = '/webhooks/deliveries';

describe('platform authentication', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const attempt = (clientId: string, clientSecret: string) => anonymousClient(testApp.baseUrl).get(ROUTE).auth(clientId, clientSecret);

  function expectLocked(response: { status: number; body: unknown; headers: Record<string, string> }): void {
    expect(response.status).toBe(429);
    const seconds = Number(response.headers['retry-after']);
    expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60).toBe(true);
    expect(response.body).toEqual({
      status: 429,
      code: 'RATE_LIMITED',
      message: `Too many failed authentication attempts; retry after ${seconds} seconds`,
      details: { retryAfterSeconds: seconds },
    });
    expect(response.headers['www-authenticate']).toBeUndefined();
  }

  it('answers every 401 with a Basic challenge', async () => {
    const { clientId, clientSecret } = testApp.platform;
    const refusals = [
      anonymousClient(testApp.baseUrl).get('/config'),
      anonymousClient(testApp.baseUrl).get('/config').set('Authorization', `Bearer ${clientSecret}`),
      anonymousClient(testApp.baseUrl).get('/config').auth('client_unknown', clientSecret),
      anonymousClient(testApp.baseUrl).get('/config').auth(clientId, `${clientSecret}x`),
    ];
    for (const refusal of refusals) {
      const response = await refusal.expect(401);
      expect(response.body).toEqual(UNAUTHORIZED);
      expect(response.headers['www-authenticate']).toBe(CHALLENGE);
    }
    const accepted = await testApp.platform.api.get('/config').expect(200);
    expect(accepted.headers['www-authenticate']).toBeUndefined();
  });

  it('locks a client id after 10 failures in a minute, its correct secret included, from an address it never used', async () => {
    const platform = await testApp.createPlatform();
    for (let failure = 1; failure <= 9; failure++) await attempt(platform.clientId, `wrong-${failure}`).expect(401);
    const tenth = await attempt(platform.clientId, 'wrong-10').expect(401);
    expect(tenth.body).toEqual(UNAUTHORIZED);

    expectLocked(await attempt(platform.clientId, platform.clientSecret));
    expectLocked(await attempt(platform.clientId, 'wrong-11'));
    // Another platform from the same address (10 failures, below its 50) is untouched.
    const other = await testApp.createPlatform();
    await other.api.get(ROUTE).expect(200);
  });

  it("keeps a locked client id's own address working: successes are not counted, its failures still are", async () => {
    const platform = await testApp.createPlatform();
    for (let failure = 1; failure <= 9; failure++) await attempt(platform.clientId, `wrong-${failure}`).expect(401);
    // Successes neither count nor reset: 30 of them leave the budget at one failure left.
    for (let success = 0; success < 30; success++) await platform.api.get(ROUTE).expect(200);
    await attempt(platform.clientId, 'wrong-10').expect(401);
    // A guesser elsewhere cannot lock the platform out: this address authenticated as it before.
    expectLocked(await attempt(platform.clientId, 'wrong-11'));
    await platform.api.get(ROUTE).expect(200);
  });

  it('locks an unknown client id exactly like a known one', async () => {
    for (let failure = 1; failure <= 10; failure++) await attempt('client_nobody', `guess-${failure}`).expect(401);
    expectLocked(await attempt('client_nobody', 'guess-11'));
  });
});

describe('platform authentication per source address', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('locks an address after 50 failures in a minute, for every client id, valid credentials included', async () => {
    // 5 failures per id: no id reaches its own limit of 10, the address reaches its 50.
    for (let failure = 0; failure < 50; failure++) {
      await anonymousClient(testApp.baseUrl).get(ROUTE).auth(`client_spray_${failure % 10}`, `guess-${failure}`).expect(401);
    }
    const locked = await testApp.platform.api.get(ROUTE).expect(429);
    expect(locked.body.code).toBe('RATE_LIMITED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

/**
 * An unknown client id and a known id with a wrong secret must cost the same. Measured over HTTP,
 * alternating the two (in a random order within each pair), so load on a shared box hits both
 * alike; each pair gives one difference. The test asks whether the median difference is small
 * against the cost of the hash (the unknown id's median time, which is mostly scrypt): the leak it
 * guards against, a known id skipping the hash, makes the difference about the whole hash cost,
 * and a positive control (a correct, cached secret, which does skip the hash) shows the same
 * measurement sees such a difference on this machine. No absolute time is asserted.
 */
describe('platform authentication timing', () => {
  let testApp: TestApp;
  let platform: TestPlatform;
  const PAIRS = 40;
  const WARM_UP_PAIRS = 5;

  beforeAll(async () => {
    // Limits out of the way: this test makes hundreds of failures from one address.
    testApp = await startTestApp({ env: { PLATFORM_AUTH_MAX_FAILURES_PER_CLIENT: '100000', PLATFORM_AUTH_MAX_FAILURES_PER_ADDRESS: '100000' } });
    platform = testApp.platform;
    await platform.api.get('/config').expect(200); // caches the verified pair, as in normal traffic
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function timedMs(clientId: string, clientSecret: string, status: number): Promise<number> {
    const started = process.hrtime.bigint();
    await anonymousClient(testApp.baseUrl).get('/config').auth(clientId, clientSecret).expect(status);
    return Number(process.hrtime.bigint() - started) / 1e6;
  }

  /** Paired differences (subject minus unknown id) and the unknown id's median time. */
  async function measure(subject: () => Promise<number>): Promise<{ medianDifferenceMs: number; hashCostMs: number }> {
    const differences: number[] = [];
    const unknownTimes: number[] = [];
    for (let pair = 0; pair < WARM_UP_PAIRS + PAIRS; pair++) {
      let unknownMs: number;
      let subjectMs: number;
      if (Math.random() < 0.5) {
        unknownMs = await timedMs('client_does_not_exist', 'secret_guess', 401);
        subjectMs = await subject();
      } else {
        subjectMs = await subject();
        unknownMs = await timedMs('client_does_not_exist', 'secret_guess', 401);
      }
      if (pair < WARM_UP_PAIRS) continue;
      differences.push(subjectMs - unknownMs);
      unknownTimes.push(unknownMs);
    }
    return { medianDifferenceMs: median(differences), hashCostMs: median(unknownTimes) };
  }

  it('takes as long for a known client id with a wrong secret as for an unknown id', async () => {
    const wrongSecret = await measure(() => timedMs(platform.clientId, 'secret_guess', 401));
    expect(Math.abs(wrongSecret.medianDifferenceMs)).toBeLessThan(0.25 * wrongSecret.hashCostMs);

    // Positive control: a correct cached secret skips the hash, and the same measurement sees it.
    const correctSecret = await measure(() => timedMs(platform.clientId, platform.clientSecret, 200));
    expect(correctSecret.medianDifferenceMs).toBeLessThan(-0.5 * correctSecret.hashCostMs);
  }, 180_000);
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
