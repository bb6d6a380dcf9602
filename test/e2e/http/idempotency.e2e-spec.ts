import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { API_VERSION } from '../../../src/app.factory';
import { testRedisUrl } from '../../support/database';
import { startServiceProcess } from '../../support/service-process';
import { TestApp, eventually, platformClient, startTestApp } from '../../support/test-app';
import { createUsdExternalAccount, uniqueId } from '../../support/customer-fixtures';
import { accountQuoteBody, fundedCustomer } from '../../support/quote-fixtures';
import { WebhookReceiver } from '../../support/webhook-receiver';

/** A second Node process compiles the service with ts-node: over a minute on a busy machine. */
const SERVICE_START_TIMEOUT_MS = 240_000;

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

  it('the same JSON with its keys in another order, at any depth, is the same request: a replay', async () => {
    const idempotencyKey = key();
    const platformCustomerId = uniqueId();
    const first = await testApp.platform.api
      .post('/customers')
      .set('Idempotency-Key', idempotencyKey)
      .set('Content-Type', 'application/json')
      .send(`{"customerType":"INDIVIDUAL","platformCustomerId":"${platformCustomerId}","fullName":"Ida Empotent",` +
        `"address":{"line1":"1 Main St","city":"Springfield","state":"IL","postalCode":"62701","country":"US"}}`)
      .expect(201);
    const reordered = await testApp.platform.api
      .post('/customers')
      .set('Idempotency-Key', idempotencyKey)
      .set('Content-Type', 'application/json')
      .send(`{ "address": {"country":"US","postalCode":"62701","state":"IL","city":"Springfield","line1":"1 Main St"},` +
        ` "fullName": "Ida Empotent", "platformCustomerId": "${platformCustomerId}", "customerType": "INDIVIDUAL" }`)
      .expect(201);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(reordered.text).toBe(first.text);
    // A different value, even deep inside, is another request.
    const changed = await testApp.platform.api
      .post('/customers')
      .set('Idempotency-Key', idempotencyKey)
      .set('Content-Type', 'application/json')
      .send(`{"address":{"country":"US","postalCode":"62702","state":"IL","city":"Springfield","line1":"1 Main St"},` +
        `"fullName":"Ida Empotent","platformCustomerId":"${platformCustomerId}","customerType":"INDIVIDUAL"}`)
      .expect(400);
    expect(changed.body.details.reason).toBe('IDEMPOTENCY_KEY_REUSED');
    const listed = await testApp.platform.api.get('/customers').query({ platformCustomerId }).expect(200);
    expect(listed.body.totalCount).toBe(1);
  });

  it('a key whose process was SIGKILLed mid-request is taken over at once by the next request with it, which gets a real answer', async () => {
    // The first try of the webhook hangs at the endpoint: the request holds its key until killed.
    const receiver = await WebhookReceiver.forPlatform(testApp.platform.api, {
      respond: (entry) => (entry.index === 0 ? { hang: true } : { status: 200, body: '{"received":true}' }),
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'idempotency-kill-'));
    const port = await freePort();
    const doomed = await startServiceProcess(['api'], {
      DATABASE_URL: testApp.databaseUrl,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: testApp.config.queuePrefix,
      DATA_DIR: dataDir,
      MASTER_KEY: testApp.config.masterKeyHex!,
      SERVICE_MODE: 'sandbox',
      HOST: '127.0.0.1',
      PORT: String(port),
      WEBHOOK_TIMEOUT_MS: '600000',
    }, SERVICE_START_TIMEOUT_MS);
    const database = new Client({ connectionString: testApp.databaseUrl });
    await database.connect();
    try {
      const idempotencyKey = key();
      const doomedApi = platformClient(`http://127.0.0.1:${port}/${API_VERSION}`, testApp.platform.clientId, testApp.platform.clientSecret);
      const lost = doomedApi.post('/sandbox/webhooks/test').set('Idempotency-Key', idempotencyKey).send({}).then(
        (response) => response,
        (error: Error) => error,
      );
      await receiver.waitForCount(1, 60_000);
      // The killed process's request holds the key, and its process's instance lock is held.
      const held = await database.query(`SELECT state, owner_instance FROM idempotency_keys WHERE idempotency_key = $1`, [idempotencyKey]);
      expect(held.rows).toEqual([{ state: 'running', owner_instance: expect.any(Number) }]);
      expect(await instanceLockHeld(database, held.rows[0].owner_instance)).toBe(true);

      await doomed.kill('SIGKILL');
      // The killed process's client saw its connection drop, with no answer.
      expect(String(await lost)).toMatch(/socket hang up|ECONNRESET/);
      // Postgres ends the dead process's session, and its lock with it, as soon as the socket closes.
      await eventually(async () => !(await instanceLockHeld(database, held.rows[0].owner_instance)));

      const retried = await testApp.platform.api.post('/sandbox/webhooks/test').set('Idempotency-Key', idempotencyKey).send({});
      expect([retried.status, retried.headers['idempotent-replayed']]).toEqual([200, undefined]);
      expect(retried.body).toEqual({ url: receiver.url(), response_status: 200, response_body: '{"received":true}' });
      expect(receiver.received).toHaveLength(2);
      const replay = await testApp.platform.api.post('/sandbox/webhooks/test').set('Idempotency-Key', idempotencyKey).send({}).expect(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.text).toBe(retried.text);
    } finally {
      await doomed.kill('SIGKILL');
      await database.end();
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, SERVICE_START_TIMEOUT_MS + 120_000);
});

/** Whether a process holds the idempotency instance lock on `instanceId` in this database. */
async function instanceLockHeld(database: Client, instanceId: number): Promise<boolean> {
  const result = await database.query(
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 AND objid = $1::int::oid
                     AND classid = hashtext('idempotency:owner')::oid AND granted
                     AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held`,
    [instanceId],
  );
  return result.rows[0].held;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
