import { Client } from 'pg';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { createUsdExternalAccount, uniqueId } from '../../support/customer-fixtures';
import { accountQuoteBody, fundedCustomer } from '../../support/quote-fixtures';

/** Idempotency-Key conventions (docs/api.md), on `POST /customers` and `POST /quotes`. */
describe('Idempotency-Key', () => {
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
    const first = await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send({ customerType: 'INDIVIDUAL', email: 'not-an-email' }).expect(400);
    const second = await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send({ customerType: 'INDIVIDUAL', email: 'not-an-email' }).expect(400);
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
  });

  it('400 INVALID_INPUT for a different body under the same key', async () => {
    const idempotencyKey = key();
    await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(body()).expect(201);
    const response = await testApp.platform.api.post('/customers').set('Idempotency-Key', idempotencyKey).send(body()).expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'This Idempotency-Key was used for a different request',
      details: {
        reason: 'IDEMPOTENCY_KEY_REUSED',
        errors: [{ field: 'Idempotency-Key', constraint: {}, message: 'This Idempotency-Key was used for a different request' }],
      },
    });
  });

  it('429 RATE_LIMITED with Retry-After: 1 while the first request still runs (POST /quotes)', async () => {
    const owner = await fundedCustomer(testApp.platform.api);
    const external = await createUsdExternalAccount(testApp.platform.api, owner.customer.id);
    const idempotencyKey = key();
    const request = accountQuoteBody(owner.usd.id, external.id);
    // Hold the quotes read model: the first request cannot answer until it sees its writes.
    const blocker = new Client({ connectionString: testApp.databaseUrl });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE quotes IN ACCESS EXCLUSIVE MODE');
    const first = testApp.platform.api.post('/quotes').set('Idempotency-Key', idempotencyKey).send(request).then((response) => response);
    try {
      // The retry must come after the first request took the key: sent together, either may win.
      await eventually(async () => {
        const taken = await blocker.query(`SELECT state FROM idempotency_keys WHERE idempotency_key = $1`, [idempotencyKey]);
        return taken.rows[0]?.state === 'running';
      });
      const inProgress = await testApp.platform.api.post('/quotes').set('Idempotency-Key', idempotencyKey).send(request);
      expect(inProgress.status).toBe(429);
      expect(inProgress.headers['retry-after']).toBe('1');
      expect(inProgress.body).toEqual({
        status: 429,
        code: 'RATE_LIMITED',
        message: 'A request with this Idempotency-Key is still being processed',
        details: { reason: 'IDEMPOTENCY_KEY_IN_PROGRESS' },
      });
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
    const firstResponse = await first;
    expect(firstResponse.status).toBe(201);
    const replay = await testApp.platform.api.post('/quotes').set('Idempotency-Key', idempotencyKey).send(request).expect(201);
    expect(replay.text).toBe(firstResponse.text);
  });

  it('concurrent sends of one key create one quote; the others are replays or 429 Retry-After: 1', async () => {
    const owner = await fundedCustomer(testApp.platform.api);
    const external = await createUsdExternalAccount(testApp.platform.api, owner.customer.id);
    const idempotencyKey = key();
    const request = accountQuoteBody(owner.usd.id, external.id);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => testApp.platform.api.post('/quotes').set('Idempotency-Key', idempotencyKey).send(request)),
    );
    const fresh = responses.filter((response) => response.status === 201 && response.headers['idempotent-replayed'] !== 'true');
    expect(fresh).toHaveLength(1);
    for (const response of responses) {
      if (response.status === 201) expect(response.text).toBe(fresh[0].text);
      else expect([response.status, response.headers['retry-after'], response.body.code]).toEqual([429, '1', 'RATE_LIMITED']);
    }
    const listed = await testApp.platform.api.get('/quotes').query({ customerId: owner.customer.id }).expect(200);
    expect(listed.body.data).toHaveLength(1);
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

  it('400 INVALID_INPUT for a malformed key, and nothing is created; any visible ASCII key is taken', async () => {
    const request = body();
    const message = 'Idempotency-Key must be 1 to 255 visible ASCII characters';
    const response = await testApp.platform.api.post('/customers').set('Idempotency-Key', 'x'.repeat(256)).send(request).expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message,
      details: { errors: [{ field: 'Idempotency-Key', constraint: { pattern: '^[\\x21-\\x7e]{1,255}$', maxLength: 255 }, message }] },
    });
    const listed = await testApp.platform.api.get('/customers').query({ platformCustomerId: request.platformCustomerId }).expect(200);
    expect(listed.body.totalCount).toBe(0);
    const plain = await testApp.platform.api.post('/customers').set('Idempotency-Key', `order-${uniqueId()}`).send(request).expect(201);
    expect(plain.body.platformCustomerId).toBe(request.platformCustomerId);
  });
});
