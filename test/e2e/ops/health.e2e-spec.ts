import { randomUUID } from 'node:crypto';
import { EVENT_STORE, EventStore, NewEvent } from '../../../src/infra/event-store/event-store.port';
import { MAX_READY_LAG_EVENTS } from '../../../src/health/health.controller';
import { ALL_PROJECTIONS } from '../../../projections';
import { platformConfigProjection } from '../../../projections/platform-config/platform-config.projection';
import { ReactorRegistry } from '../../../src/infra/infra.module';
import { logger } from '../../../src/infra/logger';
import { ProjectionRunner } from '../../../src/infra/projections/projection-runner';
import { QUEUE_SERVICE, QueueService } from '../../../src/infra/queue/queue.service';
import { TestApp, anonymousClient, eventually, startTestApp } from '../../support/test-app';

/** `GET /health`: readiness follows the projector's lag, and a stuck consumer shows. */
describe('readiness', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const health = () => anonymousClient(testApp.origin).get('/health');

  function tick(): NewEvent {
    return {
      id: randomUUID(),
      type: 'HealthSpecTicked',
      data: {},
      metadata: { correlationId: randomUUID(), causationId: randomUUID(), platformId: null, actor: 'test' },
    };
  }

  it('reports every consumer with position and lag, and is ready when caught up', async () => {
    // The first platform's registration, and the events other contexts' reactors append in
    // answer (its platform-owned accounts), may still be on their way through the projector.
    const response = await eventually(async () => {
      const candidate = await health();
      const platformConfig = candidate.body.checks.projections.consumers['platform-config'];
      return platformConfig?.eventsApplied === 1 && platformConfig.lagEvents === 0 && candidate.body.status === 'ok' ? candidate : null;
    });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('ok');
    expect(response.body.checks.projections).toEqual({
      status: 'ok',
      head: expect.stringMatching(/^\d+\/\d+$/),
      consumers: expect.objectContaining({
        // No error: `lastError` and `lastErrorAt` are null, so left out of the answer.
        'platform-config': {
          kind: 'projection',
          state: 'ok',
          version: platformConfigProjection.version,
          codeVersion: platformConfigProjection.version,
          position: response.body.checks.projections.head,
          lagEvents: 0,
          lagCapped: false,
          lagSeconds: 0,
          eventsApplied: 1,
          updatedAt: expect.any(String),
        },
      }),
    });
    // Every projection and every registered reactor, each once.
    const expectedNames = [...ALL_PROJECTIONS.map((projection) => projection.name), ...testApp.app.get(ReactorRegistry).reactors.map((reactor) => reactor.name)];
    expect(Object.keys(response.body.checks.projections.consumers).sort()).toEqual(expectedNames.sort());
  });

  it('is not ready while the projector lags too far behind, and ready again once it caught up', async () => {
    const runner = testApp.app.get(ProjectionRunner);
    await runner.stop();
    const store = testApp.app.get<EventStore>(EVENT_STORE);
    const stream = `healthSpec-${randomUUID()}`;
    for (let batch = 0; batch * 500 <= MAX_READY_LAG_EVENTS; batch++) {
      await store.appendToStream(stream, Array.from({ length: 500 }, tick), { expectedRevision: batch === 0 ? 'no_stream' : batch * 500 - 1 });
    }
    const lagging = await health().expect(503);
    expect(lagging.body.status).toBe('unavailable');
    expect(lagging.body.checks.projections.status).toBe('down');
    // Every consumer lags (the runner is stopped); the read model under test is among them.
    expect(lagging.body.checks.projections.reasons).toContainEqual(expect.stringMatching(/^projection platform-config lags over 10001 events/));
    expect(lagging.body.checks.postgres.status).toBe('ok');

    await runner.start();
    const recovered = await eventually(async () => {
      const response = await health();
      return response.body.checks.projections.consumers['platform-config'].lagEvents === 0 ? response : null;
    }, 30_000);
    expect(recovered.status).toBe(200);
    expect(recovered.body.status).toBe('ok');
    expect(recovered.body.checks.projections.consumers['platform-config'].lagEvents).toBe(0);
  });

  it('while Redis is unreachable: health says so at once, writes answer 503 with Retry-After, reads go on, liveness is untouched', async () => {
    const queues = testApp.app.get<QueueService>(QUEUE_SERVICE);
    const warnings = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      // The producers' connection closed for good: what the service sees while redis-server is down.
      queues.redis().disconnect();
      await eventually(async () => !queues.isRedisReady());
      const report = await health().expect(503);
      expect(report.body.status).toBe('unavailable');
      expect(report.body.checks.redis).toEqual({ status: 'down', error: expect.stringMatching(/^Error: redis connection (end|close|reconnecting)$/) });
      expect(report.body.checks.postgres.status).toBe('ok');
      await anonymousClient(testApp.origin).get('/health/live').expect(200, { status: 'ok' });

      // Plain fetch: the reference lists 503 on few operations, though any may answer it in an outage.
      const { clientId, clientSecret } = testApp.platform;
      const refused = await fetch(`${testApp.baseUrl}/config`, {
        method: 'PATCH',
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ webhookEndpoint: 'https://hooks.example.com/while-redis-is-down' }),
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/Redis is down/) });
      const read = await testApp.platform.api.get('/config').expect(200);
      expect(read.body.webhookEndpoint).not.toBe('https://hooks.example.com/while-redis-is-down');
    } finally {
      await queues.redis().connect().catch(() => undefined);
      warnings.mockRestore();
    }
    await eventually(async () => queues.isRedisReady());
    const patched = await testApp.platform.api.patch('/config').send({ webhookEndpoint: 'https://hooks.example.com/redis-is-back' }).expect(200);
    expect(patched.body.webhookEndpoint).toBe('https://hooks.example.com/redis-is-back');
  });

  it('is degraded, still serving, while a reactor is stuck on an event', async () => {
    const errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const runner = testApp.app.get(ProjectionRunner);
    try {
      await runner.stop();
      testApp.app.get(ReactorRegistry).register({
        name: 'health-spec-reactor',
        handles: ['HealthSpecTicked'],
        react: async () => {
          throw new Error('downstream unavailable');
        },
      });
      await runner.start();
      const store = testApp.app.get<EventStore>(EVENT_STORE);
      await store.appendToStream(`healthSpec-${randomUUID()}`, [tick()], { expectedRevision: 'no_stream' });
      const degraded = await eventually(async () => {
        const response = await health();
        return response.body.status === 'degraded' ? response : null;
      });
      expect(degraded.status).toBe(200);
      expect(degraded.body.checks.projections.reasons).toEqual([
        expect.stringMatching(/^reactor health-spec-reactor is stuck: Error: downstream unavailable$/),
      ]);
      expect(degraded.body.checks.projections.consumers['health-spec-reactor']).toEqual(
        expect.objectContaining({ kind: 'reactor', state: 'failing', lastError: 'Error: downstream unavailable', lastErrorAt: expect.any(String) }),
      );
      await testApp.platform.api.get('/config').expect(200);
    } finally {
      await runner.stop();
      errors.mockRestore();
    }
  });
});
