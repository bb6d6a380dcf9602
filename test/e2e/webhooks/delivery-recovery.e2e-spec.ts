import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { APP_CONFIG, AppConfig } from '../../../src/infra/config';
import { DeliveryQueues } from '../../../src/webhooks/delivery/delivery-queues';
import { DeliveryStore } from '../../../src/webhooks/delivery/delivery-store';
import { DeliveryWorkerPool } from '../../../src/webhooks/delivery/delivery-worker-pool';
import { WebhookDeliveryService } from '../../../src/webhooks/delivery/webhook-delivery.service';
import { FreshDatabase, freshDatabase, freshRedisPrefix, testRedisUrl } from '../../support/database';
import { ServiceProcess, startServiceProcess } from '../../support/service-process';
import { PlatformClient, TestApp, TestPlatform, anonymousClient, eventually, platformClient, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';

/** Short locks so a job whose worker died is handed on within about a second. */
const RECOVERY_ENV = {
  WEBHOOK_RETRY_BASE_DELAY_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '400',
  WEBHOOK_TIMEOUT_MS: '20000',
  WEBHOOK_LOCK_DURATION_MS: '1000',
  WEBHOOK_STALLED_INTERVAL_MS: '500',
};

/**
 * Nothing is lost, nothing is doubled: a worker killed mid-delivery, a reactor replaying from
 * an old checkpoint, and a Redis that lost its jobs.
 */
describe('webhook delivery recovery', () => {
  let database: FreshDatabase;
  let queuePrefix: string;
  let dataDir: string;
  let receiver: WebhookReceiver;
  const apps: TestApp[] = [];
  const processes: ServiceProcess[] = [];

  beforeEach(async () => {
    database = await freshDatabase('webhooks-recovery');
    queuePrefix = freshRedisPrefix('webhooks-recovery');
    dataDir = mkdtempSync(join(tmpdir(), 'webhooks-recovery-'));
    receiver = await WebhookReceiver.start();
  });

  afterEach(async () => {
    for (const child of processes.splice(0)) await child.kill();
    for (const app of apps.splice(0)) await app.close({ keepDatabase: true });
    await receiver.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(roles: Array<'api' | 'projector' | 'worker'>, masterKey?: string): Promise<TestApp> {
    const app = await startTestApp({
      database,
      queuePrefix,
      dataDir,
      roles,
      env: { ...RECOVERY_ENV, ...(masterKey ? { MASTER_KEY: masterKey } : {}) },
    });
    apps.push(app);
    return app;
  }

  async function stop(app: TestApp): Promise<void> {
    apps.splice(apps.indexOf(app), 1);
    await app.close({ keepDatabase: true });
  }

  /** The first platform's client on another app of the same database (credentials persist). */
  function as(platform: TestPlatform, app: TestApp): PlatformClient {
    return platformClient(app.baseUrl, platform.clientId, platform.clientSecret);
  }

  async function deliveryOf(api: PlatformClient, webhookId: string) {
    return (await api.get('/webhooks/deliveries').query({ webhookId }).expect(200)).body.data[0];
  }

  it('a worker killed mid-delivery: the webhook is delivered after a restart, same id, at least once', async () => {
    const app = await start(['api', 'projector']);
    receiver.publicKeyPem = (await app.platform.api.get('/config').expect(200)).body.webhookPublicKey;
    await app.platform.api.patch('/config').send({ webhookEndpoint: receiver.url() }).expect(200);
    // The first request is held open, as if the endpoint were slow, while the worker is killed.
    receiver.respond = (entry) => (entry.index === 0 ? { hang: true } : { status: 200 });

    const worker = await startServiceProcess(['worker'], {
      ...RECOVERY_ENV,
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: queuePrefix,
      DATA_DIR: dataDir,
      MASTER_KEY: app.config.masterKeyHex!,
      SERVICE_MODE: 'sandbox',
    });
    processes.push(worker);
    const { webhookId } = (await app.platform.api.post('/sandbox/webhooks/test/async').expect(202)).body;
    const [first] = await receiver.waitForCount(1, 30_000);
    expect(first.body.id).toBe(webhookId);
    expect(first.signatureValid).toBe(true);

    await worker.kill('SIGKILL');
    const meanwhile = await deliveryOf(app.platform.api, webhookId);
    expect(meanwhile.status).toBe('PENDING');
    expect(meanwhile.attempts).toEqual([]);

    await start(['worker'], app.config.masterKeyHex!);
    const second = await receiver.waitFor((entry) => entry.index > 0 && entry.body.id === webhookId, 30_000);
    expect(second.rawBody).toBe(first.rawBody);
    expect(second.signatureValid).toBe(true);
    const delivered = await eventually(async () => {
      const delivery = await deliveryOf(app.platform.api, webhookId);
      return delivery.status === 'DELIVERED' ? delivery : null;
    });
    // The killed try left no record (the process died before it could write one).
    expect(delivered.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([200]);
    expect(receiver.ids()).toEqual([webhookId, webhookId]);
  }, 120_000); // a second Node process compiles the service with ts-node: slow on a busy machine

  it('a reactor replaying from an old checkpoint creates no second webhook for the same event', async () => {
    const app = await start(['api', 'projector', 'worker']);
    const masterKey = app.config.masterKeyHex!;
    await app.platform.api.patch('/config').send({ webhookEndpoint: receiver.url() }).expect(200);
    const queued = [];
    for (let index = 0; index < 3; index++) queued.push((await app.platform.api.post('/sandbox/webhooks/test/async').expect(202)).body);
    await receiver.waitForCount(3);
    await eventually(async () => (await app.platform.api.get('/webhooks/deliveries').query({ status: 'DELIVERED' })).body.totalCount === 3);
    await stop(app);

    await rewindReactor(database.url);
    const restarted = await start(['api', 'projector', 'worker'], masterKey);
    await reactorCaughtUp(restarted);
    const api = as(app.platform, restarted);
    const after = (await api.post('/sandbox/webhooks/test/async').expect(202)).body;
    await receiver.waitFor((entry) => entry.body.id === after.webhookId);
    await eventually(async () => (await deliveryOf(api, after.webhookId))?.status === 'DELIVERED');

    const log = (await api.get('/webhooks/deliveries').expect(200)).body;
    expect(log.totalCount).toBe(4);
    expect(log.data.map((entry: { id: string }) => entry.id).sort()).toEqual([...queued.map((entry) => entry.deliveryId), after.deliveryId].sort());
    expect(log.data.every((entry: { attemptCount: number }) => entry.attemptCount === 1)).toBe(true);
    expect(receiver.ids().sort()).toEqual([...queued.map((entry) => entry.webhookId), after.webhookId].sort());
  });

  it('a delivery whose job Redis lost is queued again by the replayed reactor and delivered', async () => {
    const producer = await start(['api', 'projector']);
    const masterKey = producer.config.masterKeyHex!;
    await producer.platform.api.patch('/config').send({ webhookEndpoint: receiver.url() }).expect(200);
    const { webhookId, deliveryId } = (await producer.platform.api.post('/sandbox/webhooks/test/async').expect(202)).body;
    await eventually(async () => (await deliveryOf(producer.platform.api, webhookId))?.status === 'PENDING');
    await stop(producer);

    // Redis loses the queue (a restart without its append-only file).
    const connection = new IORedis(testRedisUrl(), { maxRetriesPerRequest: null });
    const lost = new Queue(`webhooks-${producer.platform.platformId.replace(/[^A-Za-z0-9-]/g, '_')}`, { connection, prefix: queuePrefix });
    expect(await lost.getJob(deliveryId.replace(/:/g, '_'))).toBeDefined();
    await lost.obliterate({ force: true });
    await lost.close();
    connection.disconnect();

    await rewindReactor(database.url);
    const restarted = await start(['api', 'projector', 'worker'], masterKey);
    const received = await receiver.waitFor((entry) => entry.body.id === webhookId, 20_000);
    expect(received.body.type).toBe('TEST');
    await eventually(async () => (await deliveryOf(as(producer.platform, restarted), webhookId))?.status === 'DELIVERED');
    expect(receiver.ids()).toEqual([webhookId]);
  });

  it('the sweeper re-queues an open delivery whose job Redis lost, without a replay', async () => {
    const app = await start(['api', 'projector']);
    await app.platform.api.patch('/config').send({ webhookEndpoint: receiver.url() }).expect(200);
    const { webhookId } = (await app.platform.api.post('/sandbox/webhooks/test/async').expect(202)).body;
    await eventually(async () => (await deliveryOf(app.platform.api, webhookId))?.status === 'PENDING');
    const queues = app.app.get(DeliveryQueues);
    await queues.queueFor(app.platform.platformId).obliterate({ force: true });

    // A worker pool on the app's own store and queues, sweeping every 200 ms for any open delivery.
    const config = app.app.get<AppConfig>(APP_CONFIG);
    const pool = new DeliveryWorkerPool(config.redisUrl, queues, app.app.get(WebhookDeliveryService), app.app.get(DeliveryStore), config.webhooks, {
      rescanIntervalMs: 200,
      idleCloseMs: 60_000,
      sweepIntervalMs: 200,
      sweepOverdueMs: 0,
    });
    await pool.start();
    try {
      await receiver.waitFor((entry) => entry.body.id === webhookId, 20_000);
      await eventually(async () => (await deliveryOf(app.platform.api, webhookId))?.status === 'DELIVERED');
      expect(receiver.ids()).toEqual([webhookId]);
    } finally {
      await pool.stop();
    }
  });

  async function reactorCaughtUp(app: TestApp): Promise<void> {
    await eventually(async () => {
      const health = await anonymousClient(app.origin).get('/health');
      return health.body.checks?.projections?.consumers?.webhooks?.lagEvents === 0;
    }, 20_000);
  }
});

/** Moves the webhook reactor's checkpoint back to the start of the log (a full replay). */
async function rewindReactor(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query(`UPDATE projection_checkpoints SET commit_position = -1, prepare_position = -1 WHERE name = 'webhooks'`);
    expect(result.rowCount).toBe(1);
  } finally {
    await client.end();
  }
}
