import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ALL_PROJECTIONS } from '../../../projections';
import { lockKeyFor } from '../../../src/infra/projections/checkpoints';
import { PlatformClient, TestApp, anonymousClient, eventually, startTestApp } from '../../support/test-app';

const JOB_ID = /^Job:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PROJECTION = 'platform-config';

/** The operator API (`/console/operations*`): Bearer OPERATOR_KEY, generated in the sandbox's data dir. */
describe('operator API', () => {
  let testApp: TestApp;
  let operatorKey: string;
  let anonymous: PlatformClient;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { CONSOLE_LAG_SAMPLE_INTERVAL_MS: '200' } });
    operatorKey = readFileSync(join(testApp.config.dataDir, 'operator-key'), 'utf8').trim();
    anonymous = anonymousClient(testApp.baseUrl);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const operator = {
    get: (path: string) => anonymous.get(path).set('Authorization', `Bearer ${operatorKey}`),
    post: (path: string) => anonymous.post(path).set('Authorization', `Bearer ${operatorKey}`),
  };

  async function finished(jobId: string) {
    return eventually(async () => {
      const job = (await operator.get(`/console/operations/jobs/${jobId}`).expect(200)).body;
      return job.status === 'RUNNING' ? null : job;
    }, 20_000);
  }

  it('generates the sandbox key at first start, readable by its owner only', () => {
    expect(operatorKey).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(testApp.config.dataDir, 'operator-key')).mode & 0o777).toBe(0o600);
  });

  it('refuses a missing or wrong key and platform credentials with 401 and the operator challenge', async () => {
    const { clientId, clientSecret } = testApp.platform;
    const attempts = [
      anonymous.get('/console/operations'),
      anonymous.get('/console/operations').set('Authorization', `Bearer ${operatorKey}x`),
      anonymous.get('/console/operations/lag-history').set('Authorization', 'Bearer '),
      anonymous.post('/console/operations/jobs').auth(clientId, clientSecret).send({ kind: 'verify', projection: PROJECTION }),
    ];
    for (const attempt of attempts) {
      const response = await attempt.expect(401);
      expect(response.body).toEqual({ status: 401, code: 'UNAUTHORIZED', message: 'Missing or invalid operator key' });
      expect(response.headers['www-authenticate']).toBe('Bearer realm="operator"');
    }
  });

  it('never opens a platform route with the operator key', async () => {
    const response = await anonymous.get('/config').set('Authorization', `Bearer ${operatorKey}`).expect(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
    expect(response.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('answers health, every consumer, the queues and the jobs', async () => {
    const body = await eventually(async () => {
      const candidate = (await operator.get('/console/operations').expect(200)).body;
      return candidate.consumers.find((consumer: { name: string }) => consumer.name === PROJECTION)?.eventsApplied === 1 ? candidate : null;
    });
    expect(Object.keys(body).sort()).toEqual(['consumers', 'health', 'jobs', 'queues']);
    expect(body.health).toEqual(expect.objectContaining({ status: expect.stringMatching(/^(ok|degraded)$/), checks: expect.objectContaining({ postgres: expect.objectContaining({ status: 'ok' }) }) }));
    expect(body.consumers.find((consumer: { name: string }) => consumer.name === PROJECTION)).toEqual({
      name: PROJECTION,
      kind: 'projection',
      position: expect.stringMatching(/^\d+\/\d+$/),
      lagEvents: expect.any(Number),
      lagSeconds: expect.any(Number),
      state: 'ok',
      eventsApplied: 1,
      updatedAt: expect.any(String),
    });
    const projections = body.consumers.filter((consumer: { kind: string }) => consumer.kind === 'projection').map((consumer: { name: string }) => consumer.name);
    expect(projections.sort()).toEqual(ALL_PROJECTIONS.map((projection) => projection.name).sort());
    expect(body.consumers.some((consumer: { kind: string }) => consumer.kind === 'reactor')).toBe(true);
    expect(body.queues.webhooks).toEqual({ waiting: expect.any(Number), active: expect.any(Number), delayed: expect.any(Number), failed: expect.any(Number) });
    expect(body.jobs).toEqual(expect.any(Array));
  });

  it('runs a verification to SUCCEEDED with its progress and no differences', async () => {
    const started = await operator.post('/console/operations/jobs').send({ kind: 'verify', projection: PROJECTION }).expect(202);
    expect(started.body).toEqual({ id: expect.stringMatching(JOB_ID), kind: 'verify', projection: PROJECTION, status: 'RUNNING', progress: { done: 0, total: 0 }, startedAt: expect.any(String) });

    const job = await finished(started.body.id);
    expect(job).toEqual({
      ...started.body,
      status: 'SUCCEEDED',
      progress: { done: expect.any(Number), total: expect.any(Number) },
      finishedAt: expect.any(String),
      result: { differences: 0 },
    });
    expect(job.progress.done).toBeGreaterThan(0);
    expect(job.progress.done).toBe(job.progress.total);
    const listed = (await operator.get('/console/operations').expect(200)).body.jobs;
    expect(listed).toContainEqual(job);
  });

  it('runs a rebuild to SUCCEEDED, refusing a second rebuild of the projection meanwhile with 409', async () => {
    // Holding the projection's lock keeps the rebuild at its swap, so the second request meets it running.
    const holder = new Client({ connectionString: testApp.databaseUrl });
    await holder.connect();
    let jobId: string;
    try {
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', [lockKeyFor(PROJECTION)]);
      const started = await operator.post('/console/operations/jobs').send({ kind: 'rebuild', projection: PROJECTION }).expect(202);
      jobId = started.body.id;
      expect(started.body).toEqual(expect.objectContaining({ kind: 'rebuild', projection: PROJECTION, status: 'RUNNING' }));

      const conflict = await operator.post('/console/operations/jobs').send({ kind: 'rebuild', projection: PROJECTION }).expect(409);
      expect(conflict.body).toEqual({ status: 409, code: 'CONFLICT', message: `A rebuild of ${PROJECTION} is already running` });
      // A verification of it, or a rebuild of another projection, may run meanwhile.
      const other = ALL_PROJECTIONS.find((projection) => projection.name !== PROJECTION)!.name;
      const parallel = await operator.post('/console/operations/jobs').send({ kind: 'rebuild', projection: other }).expect(202);
      expect((await finished(parallel.body.id)).status).toBe('SUCCEEDED');
    } finally {
      await holder.end();
    }

    const job = await finished(jobId);
    expect(job).toEqual(expect.objectContaining({ status: 'SUCCEEDED', result: { eventsApplied: 1 }, finishedAt: expect.any(String) }));
    expect(job.progress.done).toBeGreaterThan(0);
    expect(job.progress.done).toBe(job.progress.total);
    // The rebuilt read model serves as before.
    await testApp.platform.api.get('/config').expect(200);
  });

  it('fails the job when another process is rebuilding the projection', async () => {
    const holder = new Client({ connectionString: testApp.databaseUrl });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', [`projection-rebuild:${PROJECTION}`]);
      const started = await operator.post('/console/operations/jobs').send({ kind: 'rebuild', projection: PROJECTION }).expect(202);
      const job = await finished(started.body.id);
      expect(job).toEqual(expect.objectContaining({ status: 'FAILED', error: `a rebuild of ${PROJECTION} is already running`, finishedAt: expect.any(String) }));
    } finally {
      await holder.end();
    }
  });

  it('refuses a bad job request listing every bad field', async () => {
    const bad = await operator.post('/console/operations/jobs').send({ kind: 'drop', projection: 'no-such-projection', extra: 1 }).expect(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['extra', 'kind', 'projection']);
    const unknown = bad.body.details.errors.find((error: { field: string }) => error.field === 'projection');
    expect(unknown.constraint.enum).toEqual(ALL_PROJECTIONS.map((projection) => projection.name));

    const empty = await operator.post('/console/operations/jobs').send({}).expect(400);
    expect(empty.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['kind', 'projection']);
  });

  it('answers 404 for an unknown job', async () => {
    const response = await operator.get('/console/operations/jobs/Job:0193a000-0000-7000-8000-000000000000').expect(404);
    expect(response.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Job Job:0193a000-0000-7000-8000-000000000000 not found' });
  });

  it('keeps a lag history sampled by the api process, oldest first', async () => {
    const samples = await eventually(async () => {
      const body = (await operator.get('/console/operations/lag-history').expect(200)).body;
      return body.samples.length >= 2 ? body.samples : null;
    });
    for (const sample of samples) {
      expect(Object.keys(sample).sort()).toEqual(['at', 'consumers']);
      expect(sample.consumers[PROJECTION]).toEqual(expect.any(Number));
    }
    const times = samples.map((sample: { at: string }) => Date.parse(sample.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
