import { createPublicKey } from 'node:crypto';
import { verifyWebhookSignature } from '../../../src/webhooks/verify-signature';
import { TestApp, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';

/** `POST /sandbox/webhooks/test`: a signed TEST webhook sent now, answered synchronously. */
describe('POST /sandbox/webhooks/test', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let publicKeyPem: string;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: '1000' } });
    receiver = await WebhookReceiver.start();
    publicKeyPem = (await testApp.platform.api.get('/config').expect(200)).body.webhookPublicKey;
    receiver.publicKeyPem = publicKeyPem;
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  beforeEach(() => {
    receiver.respond = () => ({ status: 200, body: '{"ok":true}' });
  });

  it('answers 400 WEBHOOK_ENDPOINT_NOT_SET while no endpoint is configured', async () => {
    const response = await testApp.platform.api.post('/sandbox/webhooks/test').expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'WEBHOOK_ENDPOINT_NOT_SET',
      message: 'No webhook endpoint is configured; set one with PATCH /config {webhookEndpoint}',
    });
  });

  it('sends a signed TEST webhook and answers what the endpoint said', async () => {
    await testApp.platform.api.patch('/config').send({ webhookEndpoint: receiver.url('/sandbox') }).expect(200);
    receiver.respond = () => ({ status: 200, body: '{"received":true}' });
    const response = await testApp.platform.api.post('/sandbox/webhooks/test').send({}).expect(200);
    expect(response.body).toEqual({ url: receiver.url('/sandbox'), response_status: 200, response_body: '{"received":true}' });

    const [request] = receiver.received.slice(-1);
    expect(request.path).toBe('/sandbox');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.signatureValid).toBe(true);
    expect(Object.keys(request.body).sort()).toEqual(['data', 'id', 'timestamp', 'type']);
    expect(request.body.id).toMatch(/^Webhook:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(request.body.type).toBe('TEST');
    expect(new Date(request.body.timestamp).toISOString()).toBe(request.body.timestamp);
    expect(request.body.data).toEqual({
      message: 'This is a test webhook from the payments service.',
      platformId: testApp.platform.platformId,
      requestedAt: request.body.timestamp,
    });
    const header = JSON.parse(String(request.headers['x-service-signature']));
    expect(Object.keys(header).sort()).toEqual(['s', 'v']);
    expect(header.v).toBe('1');
  });

  it('signs so that the published key verifies the raw body and a tampered body fails', async () => {
    await testApp.platform.api.post('/sandbox/webhooks/test').expect(200);
    const request = receiver.received[receiver.received.length - 1];
    const header = String(request.headers['x-service-signature']);
    expect(verifyWebhookSignature(request.rawBody, header, publicKeyPem)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(request.rawBody), header, createPublicKey(publicKeyPem))).toBe(true);
    const tampered = request.rawBody.replace('"type":"TEST"', '"type":"TESX"');
    expect(tampered).not.toBe(request.rawBody);
    expect(verifyWebhookSignature(tampered, header, publicKeyPem)).toBe(false);
    expect(verifyWebhookSignature(request.rawBody + ' ', header, publicKeyPem)).toBe(false);
    expect(verifyWebhookSignature(request.rawBody, undefined, publicKeyPem)).toBe(false);
    expect(verifyWebhookSignature(request.rawBody, 'not json', publicKeyPem)).toBe(false);
    expect(verifyWebhookSignature(request.rawBody, JSON.stringify({ v: '2', s: JSON.parse(header).s }), publicKeyPem)).toBe(false);
    const otherKey = (await (await testApp.createPlatform()).api.get('/config').expect(200)).body.webhookPublicKey;
    // One service key signs for every platform: another platform's view publishes the same key.
    expect(otherKey).toBe(publicKeyPem);
  });

  it('answers 400 WEBHOOK_DELIVERY_ERROR with the answer when the endpoint does not answer 2xx', async () => {
    receiver.respond = () => ({ status: 500, body: 'boom' });
    const response = await testApp.platform.api.post('/sandbox/webhooks/test').expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'WEBHOOK_DELIVERY_ERROR',
      message: 'The webhook could not be delivered to the configured endpoint',
      details: { url: receiver.url('/sandbox'), response_status: 500, response_body: 'boom' },
    });
  });

  it('answers 400 WEBHOOK_DELIVERY_ERROR when nothing answers within the timeout', async () => {
    receiver.respond = () => ({ hang: true });
    const response = await testApp.platform.api.post('/sandbox/webhooks/test').expect(400);
    expect(response.body.code).toBe('WEBHOOK_DELIVERY_ERROR');
    expect(response.body.details).toEqual({ url: receiver.url('/sandbox'), error: 'no answer within 1000 ms' });
  });

  it('answers 400 WEBHOOK_DELIVERY_ERROR when the connection is refused', async () => {
    const closed = await WebhookReceiver.start();
    const url = closed.url('/gone');
    await closed.close();
    await testApp.platform.api.patch('/config').send({ webhookEndpoint: url }).expect(200);
    try {
      const response = await testApp.platform.api.post('/sandbox/webhooks/test').expect(400);
      expect(response.body.code).toBe('WEBHOOK_DELIVERY_ERROR');
      expect(response.body.details.url).toBe(url);
      expect(response.body.details.error).toMatch(/^ECONNREFUSED/);
    } finally {
      await testApp.platform.api.patch('/config').send({ webhookEndpoint: receiver.url('/sandbox') }).expect(200);
    }
  });

  it('records each test in the delivery log, final and never retried', async () => {
    receiver.respond = () => ({ status: 200 });
    await testApp.platform.api.post('/sandbox/webhooks/test').expect(200);
    const webhookId = receiver.received[receiver.received.length - 1].body.id;
    const log = await testApp.platform.api.get('/webhooks/deliveries').query({ webhookId }).expect(200);
    expect(log.body.data).toHaveLength(1);
    const delivery = log.body.data[0];
    expect(delivery).toEqual(
      expect.objectContaining({ webhookId, type: 'TEST', status: 'DELIVERED', attemptCount: 1, lastStatusCode: 200 }),
    );
    expect(delivery).not.toHaveProperty('nextAttemptAt');
    expect(delivery.attempts).toEqual([
      {
        attemptNumber: 1,
        trigger: 'TEST',
        attemptedAt: expect.any(String),
        endpoint: receiver.url('/sandbox'),
        statusCode: 200,
        latencyMs: expect.any(Number),
      },
    ]);
    const failed = await testApp.platform.api.get('/webhooks/deliveries').query({ type: 'TEST', status: 'FAILED' }).expect(200);
    expect(failed.body.data.length).toBeGreaterThanOrEqual(3);
    expect(failed.body.data.every((entry: { status: string; attemptCount: number }) => entry.status === 'FAILED' && entry.attemptCount === 1)).toBe(true);
  });

  it('refuses unknown fields and replays under an Idempotency-Key', async () => {
    const bad = await testApp.platform.api.post('/sandbox/webhooks/test').send({ url: 'http://elsewhere' }).expect(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
    expect(bad.body.details.errors).toEqual([{ field: 'url', constraint: {}, message: 'Unknown field url' }]);

    const key = '4f7a2f0e-9b1c-4d2e-8f3a-5b6c7d8e9f01';
    const before = receiver.received.length;
    const first = await testApp.platform.api.post('/sandbox/webhooks/test').set('Idempotency-Key', key).expect(200);
    const again = await testApp.platform.api.post('/sandbox/webhooks/test').set('Idempotency-Key', key).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(receiver.received.length).toBe(before + 1);
  });

  it('is refused in production mode', async () => {
    const production = await startTestApp({ env: { SERVICE_MODE: 'production' } });
    try {
      // The operation declares no 403: 400 with the reason.
      const response = await production.platform.api.post('/sandbox/webhooks/test').expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'Sandbox operations are not available in production mode',
        details: { reason: 'SANDBOX_ONLY' },
      });
    } finally {
      await production.close();
    }
  });
});
