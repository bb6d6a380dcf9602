import { Pool } from 'pg';
import { IDEMPOTENCY_DDL, IdempotencyHandle, IdempotencyService } from '../../src/infra/http/idempotency.service';
import { createPool } from '../../src/infra/postgres/pool';
import { FreshDatabase, freshDatabase } from '../support/database';
import { eventually } from '../support/test-app';

/**
 * The Idempotency-Key lease (src/infra/http/idempotency.service.ts) on a real Postgres: two
 * services on two pools stand for two processes, each with its own instance lock. A process
 * "dies" by closing its lock connection, which is what Postgres sees when a process is killed
 * (test/e2e/http/idempotency.e2e-spec.ts kills a real one).
 */
describe('IdempotencyService lease', () => {
  let database: FreshDatabase;
  let db: Pool;
  const pools: Pool[] = [];
  const services: IdempotencyService[] = [];
  const fingerprint = 'f'.repeat(64);
  let counter = 0;
  const newKey = () => `key-${++counter}`;

  beforeAll(async () => {
    database = await freshDatabase('idempotency-lease');
    db = createPool(database.url, 2);
    await db.query(IDEMPOTENCY_DDL);
  });

  afterAll(async () => {
    for (const service of services) await service.onApplicationShutdown();
    for (const pool of [db, ...pools]) await pool.end();
    await database.drop();
  });

  /** A service of its own "process": its own pool and instance lock. */
  function newProcess(): IdempotencyService {
    const pool = createPool(database.url, 4);
    pools.push(pool);
    const service = new IdempotencyService(pool);
    services.push(service);
    return service;
  }

  async function proceed(service: IdempotencyService, key: string, platformId = 'platform-a'): Promise<IdempotencyHandle> {
    const outcome = await service.begin(platformId, key, fingerprint);
    if (outcome.kind !== 'proceed') throw new Error(`expected proceed, got ${outcome.kind}`);
    return { platformId, key, token: outcome.token };
  }

  async function ownerLockHeld(key: string): Promise<boolean> {
    const result = await db.query(
      `SELECT EXISTS (SELECT 1 FROM pg_locks l JOIN idempotency_keys k ON l.objid = k.owner_instance::oid
                       WHERE k.idempotency_key = $1 AND l.locktype = 'advisory' AND l.objsubid = 2
                         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held`,
      [key],
    );
    return result.rows[0].held;
  }

  it('a key whose process died is taken over by the next begin; while it lives, it is in progress however old', async () => {
    const first = newProcess();
    const second = newProcess();
    const key = newKey();
    const firstHandle = await proceed(first, key);
    // A request that simply runs long keeps its lease: age is no reason for a takeover.
    await db.query(`UPDATE idempotency_keys SET created_at = now() - interval '2 hours', updated_at = now() - interval '2 hours' WHERE idempotency_key = $1`, [key]);
    expect(await second.begin('platform-a', key, fingerprint)).toEqual({ kind: 'in_progress' });
    expect(await first.begin('platform-a', key, fingerprint)).toEqual({ kind: 'in_progress' });

    await first.onApplicationShutdown();
    await eventually(async () => !(await ownerLockHeld(key)));
    const taken = await proceed(second, key);
    expect(taken.token).not.toBe(firstHandle.token);

    // The dead request's late answer changes nothing; the new owner's is the one kept.
    await first.complete(firstHandle, 201, {}, '{"late":true}');
    expect(await second.begin('platform-a', key, fingerprint)).toEqual({ kind: 'in_progress' });
    await second.complete(taken, 201, { Location: '/x' }, '{"taken":true}');
    expect(await second.begin('platform-a', key, fingerprint)).toEqual({ kind: 'replay', status: 201, headers: { Location: '/x' }, body: '{"taken":true}' });
  });

  it('a request of a live process that ended without its record written frees the key, in that process at once and for the others soon', async () => {
    const owner = newProcess();
    const other = newProcess();
    const key = newKey();
    const handle = await proceed(owner, key);
    // complete fails in the database (a status that is no integer): the request is over, unstored.
    await expect(owner.complete(handle, 'not-a-status' as unknown as number, {}, '{}')).rejects.toThrow();
    expect((await db.query(`SELECT state FROM idempotency_keys WHERE idempotency_key = $1`, [key])).rows).toEqual([{ state: 'running' }]);
    // In its own process the token is gone: the next begin takes the key over.
    const retried = await proceed(owner, key);
    await owner.release(retried);

    const again = await proceed(owner, key);
    await expect(owner.complete(again, 'not-a-status' as unknown as number, {}, '{}')).rejects.toThrow();
    // Another process sees the owner's lock held, so the owner deletes the record in the background.
    await eventually(async () => (await db.query(`SELECT 1 FROM idempotency_keys WHERE idempotency_key = $1`, [key])).rowCount === 0);
    await proceed(other, key);
  });

  it('a running record without an owner (an older version wrote it) keeps the 60 s lease', async () => {
    const service = newProcess();
    const key = newKey();
    await db.query(`INSERT INTO idempotency_keys (platform_id, idempotency_key, fingerprint, state) VALUES ('platform-a', $1, $2, 'running')`, [key, fingerprint]);
    expect(await service.begin('platform-a', key, fingerprint)).toEqual({ kind: 'in_progress' });
    await db.query(`UPDATE idempotency_keys SET updated_at = now() - interval '61 seconds' WHERE idempotency_key = $1`, [key]);
    await proceed(service, key);
  });

  it('two processes racing for a dead key: exactly one takes it', async () => {
    const dead = newProcess();
    const key = newKey();
    await proceed(dead, key);
    await dead.onApplicationShutdown();
    await eventually(async () => !(await ownerLockHeld(key)));
    const racers = [newProcess(), newProcess(), newProcess()];
    const outcomes = await Promise.all(racers.flatMap((racer) => [racer.begin('platform-a', key, fingerprint), racer.begin('platform-a', key, fingerprint)]));
    expect(outcomes.filter((outcome) => outcome.kind === 'proceed')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === 'in_progress')).toHaveLength(5);
  });

  it('purgeExpired deletes records older than 24 h in batches and keeps the newer ones', async () => {
    const service = newProcess();
    await db.query(`DELETE FROM idempotency_keys`);
    await db.query(
      `INSERT INTO idempotency_keys (platform_id, idempotency_key, fingerprint, state, created_at)
       SELECT 'platform-p', 'old-' || n, 'x', 'done', now() - interval '24 hours 1 minute' FROM generate_series(1, 5) AS n
       UNION ALL
       SELECT 'platform-p', 'new-' || n, 'x', 'done', now() - interval '23 hours 59 minutes' FROM generate_series(1, 3) AS n`,
    );
    expect(await service.purgeExpired(2)).toBe(5);
    const left = await db.query(`SELECT idempotency_key FROM idempotency_keys ORDER BY idempotency_key`);
    expect(left.rows.map((row) => row.idempotency_key)).toEqual(['new-1', 'new-2', 'new-3']);
  });
});
