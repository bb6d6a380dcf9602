import http from 'node:http';
import request from 'supertest';
import { TestApp, anonymousClient, startTestApp } from '../../support/test-app';

/** Wire basics every endpoint shares (DECISIONS.md section 1). */
describe('HTTP conventions', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('answers 401 UNAUTHORIZED for missing, wrong, unknown and malformed credentials', async () => {
    const unauthorized = { status: 401, code: 'UNAUTHORIZED', message: 'Missing or invalid platform credentials' };
    const { clientId, clientSecret } = testApp.platform;
    const attempts = [
      anonymousClient(testApp.baseUrl).get('/config'),
      anonymousClient(testApp.baseUrl).get('/config').auth(clientId, `${clientSecret}x`),
      anonymousClient(testApp.baseUrl).get('/config').auth('client_unknown', clientSecret),
      anonymousClient(testApp.baseUrl).get('/config').set('Authorization', 'Basic !!!not-base64'),
      anonymousClient(testApp.baseUrl).get('/config').set('Authorization', `Bearer ${clientSecret}`),
    ];
    for (const attempt of attempts) {
      const response = await attempt.expect(401);
      expect(response.body).toEqual(unauthorized);
    }
  });

  it('answers unknown paths with a JSON 404 and wrong methods with a JSON 405 and Allow', async () => {
    const missing = await testApp.platform.api.get('/no-such-thing').expect(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect(missing.body).toEqual({ status: 404, code: 'NOT_FOUND', message: `No route GET /2025-10-13/no-such-thing` });

    const wrongMethod = await testApp.platform.api.delete('/config').expect(405);
    expect(wrongMethod.body).toEqual({ status: 405, code: 'METHOD_NOT_ALLOWED', message: 'DELETE is not allowed on /2025-10-13/config' });
    expect(wrongMethod.headers.allow).toBe('GET, PATCH');

    const unversioned = await request(testApp.origin).get('/config').expect(404);
    expect(unversioned.body.code).toBe('NOT_FOUND');
  });

  it('gives every response a request id and reuses a well-formed incoming one as correlation id', async () => {
    const response = await testApp.platform.api.get('/config').set('X-Request-Id', 'client-trace-42').expect(200);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await testApp.platform.api.patch('/config').set('X-Request-Id', 'client-trace-43').send({ webhookEndpoint: 'https://a.example.com/h' }).expect(200);
    const history = await testApp.platform.api.get('/audit/events').query({ resourceId: testApp.platform.platformId }).expect(200);
    const last = history.body.data[history.body.data.length - 1];
    expect(last.metadata.correlationId).toBe('client-trace-43');
  });

  it('serves liveness and readiness without credentials, with dependency details', async () => {
    const live = await anonymousClient(testApp.origin).get('/health/live').expect(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await anonymousClient(testApp.origin).get('/health').expect(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.checks.postgres.status).toBe('ok');
    expect(ready.body.checks.redis.status).toBe('ok');
    expect(ready.body.checks.projections.consumers['platform-config']).toEqual(
      expect.objectContaining({ kind: 'projection', lagEvents: expect.any(Number) }),
    );
  });

  it('answers audit queries with field errors for bad parameters', async () => {
    const response = await testApp.platform.api.get('/audit/events').query({ resourceId: 'nope', limit: 0, extra: 1 }).expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(response.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['extra', 'limit', 'resourceId']);
  });

  it('answers a well-formed id without history with 404', async () => {
    const response = await testApp.platform.api
      .get('/audit/events')
      .query({ resourceId: 'Quote:01900000-0000-7000-8000-000000000000' })
      .expect(404);
    expect(response.body.code).toBe('REFERENCE_NOT_FOUND');
  });
});

/** Idle keep-alive connections stay open longer than clients keep theirs (src/app.factory.ts). */
describe('HTTP keep-alive', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('keeps an idle connection open past Node’s 5 s default, so a reused connection is not reset', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const liveUrl = new URL('/health/live', testApp.baseUrl).toString();
    const get = () =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const sent = http.get(liveUrl, { agent }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: sent.reusedSocket }));
        });
        sent.on('error', reject);
      });
    try {
      expect(await get()).toEqual({ status: 200, reused: false });
      await new Promise((resolve) => setTimeout(resolve, 6000));
      expect(await get()).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  }, 15_000);
});
