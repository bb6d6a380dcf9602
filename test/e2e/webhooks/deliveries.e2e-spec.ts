import { TestApp, TestPlatform, anonymousClient, eventually, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';

/** Retries within a test's time: 100 ms doubling, at most 400 ms between tries. */
const FAST_WEBHOOKS_ENV = {
  WEBHOOK_RETRY_BASE_DELAY_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '400',
  WEBHOOK_TIMEOUT_MS: '2000',
};

/**
 * The queued path: stored event -> reactor -> per-platform queue -> worker -> signed POST, with
 * retries, the delivery log, `POST /webhooks/deliveries/{id}/retry` and queue counts in health.
 */
describe('webhook deliveries', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    testApp = await startTestApp({ env: FAST_WEBHOOKS_ENV });
    receiver = await WebhookReceiver.start();
    receiver.publicKeyPem = (await testApp.platform.api.get('/config').expect(200)).body.webhookPublicKey;
    await testApp.platform.api.patch('/config').send({ webhookEndpoint: receiver.url() }).expect(200);
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  beforeEach(() => {
    receiver.respond = () => ({ status: 200 });
  });

  async function queueTest(platform: TestPlatform = testApp.platform): Promise<{ webhookId: string; deliveryId: string }> {
    const response = await platform.api.post('/sandbox/webhooks/test/async').expect(202);
    expect(Object.keys(response.body).sort()).toEqual(['deliveryId', 'type', 'webhookId']);
    expect(response.body.type).toBe('TEST');
    return response.body;
  }

  async function deliveryOf(webhookId: string, platform: TestPlatform = testApp.platform) {
    const response = await platform.api.get('/webhooks/deliveries').query({ webhookId }).expect(200);
    return response.body.data[0];
  }

  async function settled(webhookId: string, status: 'DELIVERED' | 'FAILED') {
    return eventually(async () => {
      const delivery = await deliveryOf(webhookId);
      return delivery?.status === status ? delivery : null;
    });
  }

  it('delivers a TEST webhook from a stored event, signed, and logs the attempt', async () => {
    const { webhookId, deliveryId } = await queueTest();
    expect(webhookId).toMatch(/^Webhook:[0-9a-f-]{36}$/);
    expect(deliveryId).toMatch(/^WebhookDelivery:[0-9a-f-]{36}$/);
    const received = await receiver.waitFor((entry) => entry.body.id === webhookId);
    expect(received.signatureValid).toBe(true);
    expect(received.body).toEqual({
      id: webhookId,
      type: 'TEST',
      timestamp: expect.any(String),
      data: { message: 'This is a test webhook from the payments service.', platformId: testApp.platform.platformId, requestedAt: expect.any(String) },
    });

    const delivery = await settled(webhookId, 'DELIVERED');
    expect(delivery).toEqual({
      id: deliveryId,
      webhookId,
      type: 'TEST',
      status: 'DELIVERED',
      attemptCount: 1,
      lastStatusCode: 200,
      endpoint: receiver.url(),
      retryUntil: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      deliveredAt: expect.any(String),
      payload: received.body,
      attempts: [
        { attemptNumber: 1, trigger: 'AUTOMATIC', attemptedAt: expect.any(String), endpoint: receiver.url(), statusCode: 200, latencyMs: expect.any(Number) },
      ],
    });
    // Absent fields are left out on the wire, never sent as null.
    expect(delivery).not.toHaveProperty('lastError');
    expect(delivery).not.toHaveProperty('nextAttemptAt');
    // Seven days of retries from creation.
    expect(Date.parse(delivery.retryUntil) - Date.parse(delivery.createdAt)).toBe(7 * 24 * 60 * 60 * 1000);
    expect(receiver.ids().filter((id) => id === webhookId)).toHaveLength(1);
  });

  it('retries after 500s with backoff until a 2xx, resending the same id and body', async () => {
    const failuresLeft = new Map<string, number>();
    receiver.respond = (entry) => {
      const left = failuresLeft.get(entry.body.id) ?? 2;
      failuresLeft.set(entry.body.id, left - 1);
      return left > 0 ? { status: 500, body: 'try later' } : { status: 204 };
    };
    const { webhookId } = await queueTest();
    const delivery = await settled(webhookId, 'DELIVERED');
    expect(delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([500, 500, 204]);
    expect(delivery.attempts.map((attempt: { error?: string }) => attempt.error)).toEqual([
      'the endpoint answered 500',
      'the endpoint answered 500',
      undefined,
    ]);
    expect(delivery.attempts[2]).not.toHaveProperty('error');
    expect(delivery.attempts.map((attempt: { attemptNumber: number }) => attempt.attemptNumber)).toEqual([1, 2, 3]);
    const copies = receiver.received.filter((entry) => entry.body.id === webhookId);
    expect(copies).toHaveLength(3);
    expect(new Set(copies.map((entry) => entry.rawBody)).size).toBe(1);
    expect(copies.every((entry) => entry.signatureValid)).toBe(true);
    // Each try comes after the one before was answered (never two at once for one webhook).
    const times = delivery.attempts.map((attempt: { attemptedAt: string }) => Date.parse(attempt.attemptedAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('does not retry after a 409 (or another permanent 4xx) and marks the delivery FAILED', async () => {
    receiver.respond = () => ({ status: 409, body: '{"error":"duplicate"}' });
    const refused = await queueTest();
    const failed = await settled(refused.webhookId, 'FAILED');
    expect(failed.attemptCount).toBe(1);
    expect(failed).not.toHaveProperty('nextAttemptAt');
    expect(failed.lastStatusCode).toBe(409);
    expect(failed.lastError).toBe('the endpoint answered 409; not retried: permanent answer');

    // A later webhook on the same platform queue is delivered; the refused one was sent once.
    receiver.respond = () => ({ status: 200 });
    const later = await queueTest();
    await settled(later.webhookId, 'DELIVERED');
    expect(receiver.ids().filter((id) => id === refused.webhookId)).toHaveLength(1);
    const counts = (await anonymousClient(testApp.origin).get('/health').expect(200)).body.checks.queues.webhooks;
    expect(counts.delayed).toBe(0);
  });

  it('retries 429 and 408 (not permanent) and honours a short Retry-After', async () => {
    const answers = [429, 408];
    let calls = 0;
    receiver.respond = () => {
      const status = answers[calls++];
      return status ? { status, headers: { 'Retry-After': '0' } } : { status: 200 };
    };
    const { webhookId } = await queueTest();
    const delivery = await settled(webhookId, 'DELIVERED');
    expect(delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([429, 408, 200]);
  });

  it('uses the endpoint configured at each try: waiting retries follow a changed endpoint', async () => {
    const second = await WebhookReceiver.start();
    try {
      receiver.respond = () => ({ status: 503 });
      const { webhookId } = await queueTest();
      await eventually(async () => (await deliveryOf(webhookId))?.status === 'RETRYING');
      await testApp.platform.api.patch('/config').send({ webhookEndpoint: second.url('/moved') }).expect(200);
      const received = await second.waitFor((entry) => entry.body.id === webhookId);
      expect(received.path).toBe('/moved');
      const delivery = await settled(webhookId, 'DELIVERED');
      const endpoints = delivery.attempts.map((attempt: { endpoint: string }) => attempt.endpoint);
      expect(endpoints[0]).toBe(receiver.url());
      expect(endpoints[endpoints.length - 1]).toBe(second.url('/moved'));
      expect(delivery.endpoint).toBe(second.url('/moved'));
    } finally {
      await testApp.platform.api.patch('/config').send({ webhookEndpoint: receiver.url() }).expect(200);
      await second.close();
    }
  });

  it('POST /webhooks/deliveries/{id}/retry sends a delivered webhook again now, same id', async () => {
    const { webhookId, deliveryId } = await queueTest();
    await settled(webhookId, 'DELIVERED');
    receiver.respond = () => ({ status: 202 });
    const response = await testApp.platform.api.post(`/webhooks/deliveries/${deliveryId}/retry`).expect(200);
    expect(response.body.id).toBe(deliveryId);
    expect(response.body.status).toBe('DELIVERED');
    expect(response.body.attemptCount).toBe(2);
    expect(response.body.attempts.map((attempt: { trigger: string; statusCode: number }) => [attempt.trigger, attempt.statusCode])).toEqual([
      ['AUTOMATIC', 200],
      ['MANUAL', 202],
    ]);
    const copies = receiver.received.filter((entry) => entry.body.id === webhookId);
    expect(copies).toHaveLength(2);
    expect(copies[1].rawBody).toBe(copies[0].rawBody);
    expect(copies[1].signatureValid).toBe(true);
  });

  it('POST .../retry delivers a FAILED webhook when the endpoint accepts it now', async () => {
    receiver.respond = () => ({ status: 410 });
    const { webhookId, deliveryId } = await queueTest();
    await settled(webhookId, 'FAILED');
    receiver.respond = () => ({ status: 500 });
    const stillFailing = await testApp.platform.api.post(`/webhooks/deliveries/${deliveryId}/retry`).expect(200);
    expect(stillFailing.body.status).toBe('FAILED');
    expect(stillFailing.body.attempts[1]).toEqual(expect.objectContaining({ trigger: 'MANUAL', statusCode: 500, error: 'the endpoint answered 500' }));
    receiver.respond = () => ({ status: 200 });
    const delivered = await testApp.platform.api.post(`/webhooks/deliveries/${deliveryId}/retry`).expect(200);
    expect(delivered.body.status).toBe('DELIVERED');
    expect(delivered.body.deliveredAt).toEqual(expect.any(String));
    expect(delivered.body.attemptCount).toBe(3);
  });

  it('POST .../retry answers 400 for a malformed id and 404 for unknown or foreign ids', async () => {
    const malformed = await testApp.platform.api.post('/webhooks/deliveries/nope/retry').expect(400);
    expect(malformed.body.code).toBe('INVALID_INPUT');
    expect(malformed.body.details.errors).toEqual([{ field: 'id', constraint: { format: 'WebhookDelivery-id' }, message: 'id must be a WebhookDelivery:<uuid> id' }]);
    const unknown = await testApp.platform.api.post('/webhooks/deliveries/WebhookDelivery:0195f3a0-0000-7000-8000-000000000000/retry').expect(404);
    expect(unknown.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Webhook delivery not found' });

    const { deliveryId } = await queueTest();
    const other = await testApp.createPlatform();
    const foreign = await other.api.post(`/webhooks/deliveries/${deliveryId}/retry`).expect(404);
    expect(foreign.body).toEqual(unknown.body);
    const foreignList = await other.api.get('/webhooks/deliveries').expect(200);
    expect(foreignList.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('lists deliveries newest first with filters and cursor pagination', async () => {
    const created = [await queueTest(), await queueTest(), await queueTest()];
    for (const entry of created) await settled(entry.webhookId, 'DELIVERED');
    const all = await testApp.platform.api.get('/webhooks/deliveries').query({ type: 'TEST', status: 'DELIVERED' }).expect(200);
    expect(all.body.totalCount).toBe(all.body.data.length);
    const ids = all.body.data.map((entry: { webhookId: string }) => entry.webhookId);
    expect(ids.slice(0, 3)).toEqual(created.map((entry) => entry.webhookId).reverse());

    const page1 = await testApp.platform.api.get('/webhooks/deliveries').query({ type: 'TEST', status: 'DELIVERED', limit: 2 }).expect(200);
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.totalCount).toBe(all.body.totalCount);
    const page2 = await testApp.platform.api
      .get('/webhooks/deliveries')
      .query({ type: 'TEST', status: 'DELIVERED', limit: 2, cursor: page1.body.nextCursor })
      .expect(200);
    expect(page2.body.data.map((entry: { webhookId: string }) => entry.webhookId)).toEqual(ids.slice(2, 4));

    const none = await testApp.platform.api.get('/webhooks/deliveries').query({ type: 'CARD.STATE_CHANGE' }).expect(200);
    expect(none.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('lists every bad query parameter at once', async () => {
    const response = await testApp.platform.api
      .get('/webhooks/deliveries')
      .query({ webhookId: 'Quote:0195f3a0-0000-7000-8000-000000000000', type: 'not a type', status: 'DONE', limit: 0, cursor: '!!', extra: 1 })
      .expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(response.body.details.errors.map((error: { field: string; constraint: object }) => [error.field, error.constraint]).sort()).toEqual(
      [
        ['cursor', {}],
        ['extra', {}],
        ['limit', {}],
        ['status', { enum: ['PENDING', 'RETRYING', 'DELIVERED', 'FAILED'] }],
        ['type', { pattern: '^[A-Z][A-Z_]*(\\.[A-Z][A-Z_]*)?$', maxLength: 100 }],
        ['webhookId', { format: 'Webhook-id' }],
      ],
    );
  });

  it('queues nothing for a platform without an endpoint, and says so', async () => {
    const bare = await testApp.createPlatform();
    const response = await bare.api.post('/sandbox/webhooks/test/async').expect(400);
    expect(response.body.code).toBe('WEBHOOK_ENDPOINT_NOT_SET');
    const retry = await bare.api.get('/webhooks/deliveries').expect(200);
    expect(retry.body.totalCount).toBe(0);
  });

  it('shows the delivery queues in GET /health, also from an api-only process', async () => {
    const health = await anonymousClient(testApp.origin).get('/health').expect(200);
    expect(health.body.checks.queues.webhooks).toEqual({
      platforms: expect.any(Number),
      waiting: expect.any(Number),
      active: expect.any(Number),
      delayed: expect.any(Number),
      failed: expect.any(Number),
    });
    expect(health.body.checks.queues.webhooks.platforms).toBeGreaterThanOrEqual(1);

    const apiOnly = await startTestApp({ roles: ['api'], queuePrefix: testApp.config.queuePrefix, env: FAST_WEBHOOKS_ENV });
    try {
      const seen = await anonymousClient(apiOnly.origin).get('/health');
      expect(seen.body.checks.queues.webhooks).toEqual(health.body.checks.queues.webhooks);
    } finally {
      await apiOnly.close();
    }
  });
});
