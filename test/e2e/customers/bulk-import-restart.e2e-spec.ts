import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { BULK_IMPORT_CHUNK_ROWS } from '../../../src/customers/commands/run-bulk-import';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { FreshDatabase, freshDatabase, freshRedisPrefix, testRedisUrl } from '../../support/database';
import { ServiceProcess, startServiceProcess } from '../../support/service-process';
import { TestApp, eventually, startTestApp } from '../../support/test-app';

const HEADER = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country';
const ROWS = 1_500;

/**
 * A bulk import whose worker dies mid-job (SIGKILL: no shutdown hooks, the task left active, its
 * lock left to expire) resumes in the next worker on the same database and Redis, and creates
 * every row's customer exactly once: the rows the dead worker created without recording them
 * are found again, neither created twice nor reported as conflicts.
 */
describe('bulk customer import across a worker crash', () => {
  let database: FreshDatabase;
  let queuePrefix: string;
  let dataDir: string;
  let pool: Pool;
  const apps: TestApp[] = [];
  let worker: ServiceProcess | null = null;

  beforeAll(async () => {
    database = await freshDatabase('bulk_restart');
    queuePrefix = freshRedisPrefix('bulk_restart');
    dataDir = mkdtempSync(join(tmpdir(), 'e2e-bulk-restart-'));
    pool = new Pool({ connectionString: database.url, max: 2 });
    pool.on('error', () => undefined); // The database is dropped right after pool.end().
  });

  afterAll(async () => {
    await worker?.kill();
    for (const app of apps) await app.close({ keepDatabase: true });
    await pool.end();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes a job cut short in the middle with no duplicate customer', async () => {
    const app = await startTestApp({ database, queuePrefix, dataDir, roles: ['api', 'projector'] });
    apps.push(app);
    const masterKey = app.config.masterKeyHex!;
    worker = await startServiceProcess(['worker'], {
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: queuePrefix,
      DATA_DIR: dataDir,
      MASTER_KEY: masterKey,
      SERVICE_MODE: 'sandbox',
    });
    const api = app.platform.api;
    const lines = Array.from({ length: ROWS }, (_, index) => `$r${index}@uma.example.com,r${index},INDIVIDUAL,Row Person,1990-01-15,1 Main St,Austin,TX,78701,US`);
    const file = Buffer.from([HEADER, ...lines].join('\n'));
    const { jobId } = (await api.post('/customers/bulk/csv').attach('file', file, { filename: 'c.csv', contentType: 'text/csv' }).expect(202)).body;
    // The kill falls early inside a chunk after the first, both counted in the event store itself
    // (read models lag a busy projector by seconds): chunks recorded, and the chunk in progress
    // between 1 and half its rows created. The next run must find those customers again.
    const store = app.app.get(EventStoreService);
    const streamName = `job-${jobId.slice('Job:'.length)}`;
    const chunksRecorded = async () => (await store.readStream(streamName)).filter((event) => event.type === 'BulkImportRowsRecorded').length;
    // The database is this test's own: every customer in it is one of the job's rows.
    const customersCreated = async () =>
      Number((await pool.query<{ count: string }>(`SELECT count(*) AS count FROM events WHERE event_type = 'CustomerCreated'`)).rows[0].count);
    await eventually(async () => {
      const recorded = await chunksRecorded();
      const inChunk = (await customersCreated()) - recorded * BULK_IMPORT_CHUNK_ROWS;
      return recorded > 0 && inChunk > 0 && inChunk <= BULK_IMPORT_CHUNK_ROWS / 2;
    }, 60_000, 5);
    await worker.kill('SIGKILL');
    worker = null;
    expect(await chunksRecorded()).toBeLessThan(Math.ceil(ROWS / BULK_IMPORT_CHUNK_ROWS));

    const killedAt = new Date().toISOString();
    apps.push(await startTestApp({ database, queuePrefix, dataDir, roles: ['worker'], env: { MASTER_KEY: masterKey } }));
    const job = await eventually(async () => {
      const current = (await api.get(`/customers/bulk/jobs/${jobId}`).expect(200)).body;
      return current.status === 'COMPLETED' ? current : null;
    }, 120_000, 200);
    expect(job.progress).toEqual({ total: ROWS, processed: ROWS, successful: ROWS, failed: 0 });
    expect(job.errors).toEqual([]);
    expect(new Set(job.results.map((row: { customerId: string }) => row.customerId)).size).toBe(ROWS);
    const customers = await pool.query<{ count: string; keys: string }>(
      `SELECT count(*) AS count, count(DISTINCT platform_customer_id) AS keys FROM customers WHERE platform_id = $1`,
      [app.platform.platformId],
    );
    expect(customers.rows[0]).toEqual({ count: String(ROWS), keys: String(ROWS) });

    // The cut fell inside a chunk: customers the killed worker created, recorded by the next one.
    const resumed = (await store.readStream(streamName)).find(
      (event) => event.type === 'BulkImportRowsRecorded' && (event.data as { recordedAt: string }).recordedAt > killedAt,
    );
    const resumedRows = (resumed!.data as { rows: Array<{ customerId: string }> }).rows;
    const createdAt = await Promise.all(resumedRows.map(async (row) => (await api.get(`/customers/${row.customerId}`).expect(200)).body.createdAt as string));
    expect(createdAt.filter((at) => at < killedAt).length).toBeGreaterThan(0);
    // The file is gone with the job's end: the rows' personal data stays only in the customers.
    expect((await pool.query(`SELECT 1 FROM bulk_import_files WHERE job_id = $1`, [jobId])).rowCount).toBe(0);
  }, 240_000);
});
