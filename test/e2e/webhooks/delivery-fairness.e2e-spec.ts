import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';

const PLATFORM_CONCURRENCY = 4;

/**
 * A platform whose endpoint hangs fills its own delivery slots only: another platform's
 * webhook goes out while every one of the first platform's tries is still waiting for an answer.
 */
describe('webhook delivery fairness between platforms', () => {
  let testApp: TestApp;
  let deadEndpoint: WebhookReceiver;
  let liveEndpoint: WebhookReceiver;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: {
        WEBHOOK_PLATFORM_CONCURRENCY: String(PLATFORM_CONCURRENCY),
        WEBHOOK_TIMEOUT_MS: '60000',
        WEBHOOK_SHUTDOWN_GRACE_MS: '100',
      },
    });
    deadEndpoint = await WebhookReceiver.start({ respond: () => ({ hang: true }) });
    liveEndpoint = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await testApp?.close();
    await deadEndpoint?.close();
    await liveEndpoint?.close();
  });

  async function queueTests(platform: TestPlatform, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let index = 0; index < count; index++) {
      ids.push((await platform.api.post('/sandbox/webhooks/test/async').expect(202)).body.webhookId);
    }
    return ids;
  }

  it("delivers platform B's webhook while platform A's dead endpoint holds all of A's slots", async () => {
    const platformA = testApp.platform;
    const platformB = await testApp.createPlatform();
    await platformA.api.patch('/config').send({ webhookEndpoint: deadEndpoint.url('/a') }).expect(200);
    await platformB.api.patch('/config').send({ webhookEndpoint: liveEndpoint.url('/b') }).expect(200);

    const stuck = await queueTests(platformA, PLATFORM_CONCURRENCY * 3);
    await eventually(async () => deadEndpoint.inFlight === PLATFORM_CONCURRENCY);

    const [webhookB] = await queueTests(platformB, 1);
    await liveEndpoint.waitFor((entry) => entry.body.id === webhookB);
    await eventually(async () => {
      const response = await platformB.api.get('/webhooks/deliveries').query({ webhookId: webhookB }).expect(200);
      return response.body.data[0]?.status === 'DELIVERED';
    });

    // Not one of A's tries has finished: B did not wait for A's timeouts.
    const logA = await platformA.api.get('/webhooks/deliveries').query({ limit: 100 }).expect(200);
    expect(logA.body.totalCount).toBe(stuck.length);
    expect(logA.body.data.every((entry: { status: string; attemptCount: number }) => entry.status === 'PENDING' && entry.attemptCount === 0)).toBe(true);
    // A never had more tries in flight than its own slots.
    expect(deadEndpoint.received).toHaveLength(PLATFORM_CONCURRENCY);
    expect(deadEndpoint.maxInFlight).toBe(PLATFORM_CONCURRENCY);
    expect(new Set(deadEndpoint.ids()).size).toBe(PLATFORM_CONCURRENCY);
  });
});
