import { Client } from 'pg';
import { uniqueId } from '../../support/customer-fixtures';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';

/**
 * Retention (docs/operations.md "Retention"): the scheduled purge in the worker role deletes
 * Idempotency-Key records past their 24 h and webhook deliveries settled and untouched for
 * WEBHOOK_DELIVERY_RETENTION_DAYS (10 here), with their attempts; everything newer stays.
 * Records are made through the API and then aged in the database, as time would.
 */
describe('retention purge', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let database: Client;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { WEBHOOK_DELIVERY_RETENTION_DAYS: '10', RETENTION_INTERVAL_MS: '200' } });
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
    database = new Client({ connectionString: testApp.databaseUrl });
    await database.connect();
  });

  afterAll(async () => {
    await database?.end();
    await receiver?.close();
    await testApp?.close();
  });

  async function testWebhook(): Promise<string> {
    const response = await testApp.platform.api.post('/sandbox/webhooks/test').send({});
    expect(response.status === 200 || response.status === 400).toBe(true);
    const log = await testApp.platform.api.get('/webhooks/deliveries').query({ type: 'TEST', limit: 1 }).expect(200);
    return log.body.data[0].id;
  }

  it('deletes what is older than its horizon and keeps the rest', async () => {
    receiver.respond = () => ({ status: 200 });
    const expiredDelivered = await testWebhook();
    receiver.respond = () => ({ status: 500, body: '{"down":true}' });
    const expiredFailed = await testWebhook();
    receiver.respond = () => ({ status: 200 });
    const recentlyTouched = await testWebhook();
    const fresh = await testWebhook();

    const customer = () => ({ customerType: 'INDIVIDUAL', platformCustomerId: uniqueId(), fullName: 'Reta Ention' });
    const [oldKey, youngKey] = [crypto.randomUUID(), crypto.randomUUID()];
    const youngRequest = customer();
    await testApp.platform.api.post('/customers').set('Idempotency-Key', oldKey).send(customer()).expect(201);
    const young = await testApp.platform.api.post('/customers').set('Idempotency-Key', youngKey).send(youngRequest).expect(201);

    // Time passes, all at once (one transaction, so no purge sees half of it).
    await database.query('BEGIN');
    await database.query(
      `UPDATE webhook_deliveries SET created_at = now() - interval '11 days', updated_at = now() - interval '11 days' WHERE id = ANY($1)`,
      [[expiredDelivered, expiredFailed]],
    );
    // Created long ago but retried since: its last change is within the horizon.
    await database.query(
      `UPDATE webhook_deliveries SET created_at = now() - interval '11 days', updated_at = now() - interval '9 days' WHERE id = $1`,
      [recentlyTouched],
    );
    await database.query(`UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 minute' WHERE idempotency_key = $1`, [oldKey]);
    await database.query(`UPDATE idempotency_keys SET created_at = now() - interval '23 hours 59 minutes' WHERE idempotency_key = $1`, [youngKey]);
    await database.query('COMMIT');

    await eventually(async () => {
      const left = await database.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1)`, [[expiredDelivered, expiredFailed]]);
      const key = await database.query(`SELECT 1 FROM idempotency_keys WHERE idempotency_key = $1`, [oldKey]);
      return left.rows[0].n === 0 && key.rowCount === 0;
    }, 20_000);

    // (The customers made above have webhooks of their own, recent ones: only the TEST ones here.)
    const log = await testApp.platform.api.get('/webhooks/deliveries').query({ type: 'TEST' }).expect(200);
    expect(log.body.data.map((delivery: { id: string }) => delivery.id)).toEqual([fresh, recentlyTouched]);
    expect(log.body.data.map((delivery: { attempts: unknown[] }) => delivery.attempts.length)).toEqual([1, 1]);
    const attempts = await database.query(
      `SELECT delivery_id FROM webhook_delivery_attempts WHERE delivery_id = ANY($1) ORDER BY delivery_id`,
      [[expiredDelivered, expiredFailed, recentlyTouched, fresh]],
    );
    expect(attempts.rows.map((row) => row.delivery_id).sort()).toEqual([recentlyTouched, fresh].sort());

    const replay = await testApp.platform.api.post('/customers').set('Idempotency-Key', youngKey).send(youngRequest).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(young.text);
  });
});
