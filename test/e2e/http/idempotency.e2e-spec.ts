import { Client } from 'pg';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { uniqueId } from '../../support/customer-fixtures';

/** Idempotency-Key conventions (DECISIONS.md section 1), on `POST /customers`. */
describe('Idempotency-Key on POST /customers', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const key = () => crypto.randomUUID();
  const body = () => ({ customerType: 'INDIVIDUAL', platformCustomerId: uniqueId(), fullName: 'Ida Empotent' });

  it('replays the first response byte for byte with Idempotent-Replayed: true, creating nothing more', async () => {
    const idempotencyKey = key();
    const request = body();
    const first = await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(request).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(request).expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['content-type']).toMatch(/^application\/json/);
    expect(second.text).toBe(first.text);
    const listed = await testApp.platform.api.get('/customers').query({ platformCustomerId: request.platformCustomerId }).expect(200);
    expect(listed.body.totalCount).toBe(1);
  });

  it('replays an error answer (4xx) too', async () => {
    const idempotencyKey = key();
    const first = await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send({ customerType: 'INDIVIDUAL' }).expect(400);
    const second = await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send({ customerType: 'INDIVIDUAL' }).expect(400);
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
  });

  it('409 CONFLICT for a different body under the same key', async () => {
    const idempotencyKey = key();
    await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(body()).expect(201);
    const response = await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(body()).expect(409);
    expect(response.body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'This Idempotency-Key was used for a different request',
      details: { reason: 'IDEMPOTENCY_KEY_REUSED' },
    });
  });

  it('409 CONFLICT with Retry-After: 1 while the first request still runs', async () => {
    const idempotencyKey = key();
    const request = body();
    // Hold the customers read model: the first request cannot answer until it sees its writes.
    const blocker = new Client({ connectionString: testApp.databaseUrl });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE customers IN ACCESS EXCLUSIVE MODE');
    const first = testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(request).then((response) => response);
    try {
      // The retry must come after the first request took the key: sent together, either may win.
      await eventually(async () => {
        const taken = await blocker.query(`SELECT state FROM idempotency_keys WHERE idempotency_key = $1`, [idempotencyKey]);
        return taken.rows[0]?.state === 'running';
      });
      const inProgress = await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(request);
      expect(inProgress.status).toBe(409);
      expect(inProgress.headers['retry-after']).toBe('1');
      expect(inProgress.body).toEqual({
        status: 409,
        code: 'CONFLICT',
        message: 'A request with this Idempotency-Key is still being processed',
        details: { reason: 'IDEMPOTENCY_KEY_IN_PROGRESS' },
      });
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
    const firstResponse = await first;
    expect(firstResponse.status).toBe(201);
    const replay = await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(request).expect(201);
    expect(replay.text).toBe(firstResponse.text);
  });

  it('concurrent sends of one key create one customer; the others are replays or 409 Retry-After: 1', async () => {
    const idempotencyKey = key();
    const request = body();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(request)),
    );
    const fresh = responses.filter((response) => response.status === 201 && response.headers['idempotent-replayed'] !== 'true');
    expect(fresh).toHaveLength(1);
    for (const response of responses) {
      if (response.status === 201) expect(response.text).toBe(fresh[0].text);
      else expect([response.status, response.headers['retry-after'], response.body.code]).toEqual([409, '1', 'CONFLICT']);
    }
    const listed = await testApp.platform.api.get('/customers').query({ platformCustomerId: request.platformCustomerId }).expect(200);
    expect(listed.body.totalCount).toBe(1);
  });

  it('keys are scoped per platform', async () => {
    const idempotencyKey = key();
    const request = body();
    const mine = await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(request).expect(201);
    const other = await testApp.createPlatform();
    const theirs = await other.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(request).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('400 INVALID_INPUT for a malformed key, and nothing is created', async () => {
    const request = body();
    const response = await testApp.platform.api.post('/customers').set('Idempotency-Key', 'not-a-uuid').send(request).expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'Idempotency-Key must be a UUID',
      details: { errors: [{ field: 'Idempotency-Key', constraint: 'FORMAT', message: 'Idempotency-Key must be a UUID' }] },
    });
    const listed = await testApp.platform.api.get('/customers').query({ platformCustomerId: request.platformCustomerId }).expect(200);
    expect(listed.body.totalCount).toBe(0);
  });
});
