import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, freshRedisPrefix } from '../../support/database';
import { TestApp, platformClient, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';

/**
 * Webhook targets and server-side request forgery (docs/operations.md "Webhook targets"): loopback,
 * private and link-local endpoints are refused unless the service is a sandbox bound to loopback
 * or WEBHOOK_ALLOW_PRIVATE_TARGETS=true; refused when set and again when sent; redirects are not
 * followed; the sandbox test webhook shows a bounded excerpt of the answer.
 */
const REFUSED_MESSAGE = 'webhookEndpoint must not point at a loopback or private address';

describe('webhook endpoints and SSRF', () => {
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  beforeEach(() => {
    receiver.respond = () => ({ status: 200, body: '{"ok":true}' });
  });

  describe('a sandbox bound to every interface (HOST=0.0.0.0)', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await startTestApp({ env: { HOST: '0.0.0.0' } });
    });

    afterAll(async () => {
      await testApp?.close();
    });

    it('refuses loopback, private, link-local and local-name endpoints with the field', async () => {
      const port = new URL(receiver.url()).port;
      const received = receiver.received.length;
      for (const endpoint of [
        receiver.url(),
        `http://localhost:${port}/hooks`,
        `http://[::ffff:127.0.0.1]:${port}/hooks`,
        `http://2130706433:${port}/hooks`,
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.8/hooks',
        'http://[fd00::1]/hooks',
        'http://metadata.google.internal/computeMetadata/v1/',
      ]) {
        const response = await testApp.platform.api.patch('/config').send({ webhookEndpoint: endpoint }).expect(400);
        expect(response.body).toEqual({
          status: 400,
          code: 'INVALID_INPUT',
          message: 'The request has invalid fields',
          details: { errors: [{ field: 'webhookEndpoint', constraint: {}, message: REFUSED_MESSAGE }] },
        });
      }
      await testApp.platform.api.patch('/config').send({ webhookEndpoint: 'https://hooks.example.com/x' }).expect(200);
      expect(receiver.received).toHaveLength(received);
    });
  });

  it('refuses at send time an internal endpoint stored while it was allowed, without connecting', async () => {
    const database = await freshDatabase('ssrf');
    const queuePrefix = freshRedisPrefix('ssrf');
    const dataDir = mkdtempSync(join(tmpdir(), 'e2e-ssrf-'));
    const env = { MASTER_KEY: randomBytes(32).toString('hex'), HOST: '0.0.0.0' };
    let second: TestApp | null = null;
    try {
      const first = await startTestApp({ database, queuePrefix, dataDir, env: { ...env, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
      const platform = first.platform;
      const received = receiver.received.length;
      await platform.api.patch('/config').send({ webhookEndpoint: receiver.url('/stored') }).expect(200);
      await platform.api.post('/sandbox/webhooks/test').expect(200);
      expect(receiver.received).toHaveLength(received + 1);
      await first.close({ keepDatabase: true });

      second = await startTestApp({ database, queuePrefix, dataDir, env });
      const api = platformClient(second.baseUrl, platform.clientId, platform.clientSecret);
      const response = await api.post('/sandbox/webhooks/test').expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'WEBHOOK_DELIVERY_ERROR',
        message: 'The webhook could not be delivered to the configured endpoint',
        details: { url: receiver.url('/stored'), error: 'the webhook endpoint points at a loopback or private address' },
      });
      expect(receiver.received).toHaveLength(received + 1);
    } finally {
      await second?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('a sandbox on loopback (the default HOST)', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await startTestApp();
      await testApp.platform.api.patch('/config').send({ webhookEndpoint: receiver.url('/local') }).expect(200);
    });

    afterAll(async () => {
      await testApp?.close();
    });

    it('answers the reference shape with at most 1024 bytes of the endpoint\'s body', async () => {
      receiver.respond = () => ({ status: 200, body: 'a'.repeat(50_000) });
      const response = await testApp.platform.api.post('/sandbox/webhooks/test').expect(200);
      expect(response.body).toEqual({ url: receiver.url('/local'), response_status: 200, response_body: 'a'.repeat(1024) });

      receiver.respond = () => ({ status: 502, body: 'b'.repeat(5_000) });
      const failed = await testApp.platform.api.post('/sandbox/webhooks/test').expect(400);
      expect(failed.body.details).toEqual({ url: receiver.url('/local'), response_status: 502, response_body: 'b'.repeat(1024) });
    });

    it('does not follow a redirect: the 3xx is the answer', async () => {
      const before = receiver.received.length;
      receiver.respond = () => ({ status: 307, headers: { Location: 'http://127.0.0.1:1/internal' }, body: '' });
      const response = await testApp.platform.api.post('/sandbox/webhooks/test').expect(400);
      expect(response.body.details).toEqual({ url: receiver.url('/local'), response_status: 307, response_body: '' });
      expect(receiver.received).toHaveLength(before + 1);
    });
  });
});
