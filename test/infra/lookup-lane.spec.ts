import { Socket } from 'node:net';
import { Pool } from 'pg';
import { ConnectionKeepingPool } from '../../src/infra/postgres/connection-keeping-pool';
import { createPool, lookup } from '../../src/infra/postgres/pool';
import { FreshDatabase, freshDatabase } from '../support/database';
import { countSocketWrites } from '../support/socket-writes';

/** ConnectionKeepingPool.lookup: quick reads pipelined on one shared connection (src/infra/postgres/lookup-lane.ts). */
describe('lookups through the pool lane, on real Postgres', () => {
  let database: FreshDatabase;
  let pool: Pool;
  /** Another connection, to look at (and end) the lane's backend from outside. */
  let observer: Pool;

  beforeAll(async () => {
    database = await freshDatabase('lookup_lane');
    pool = createPool(database.url, 4);
    observer = new Pool({ connectionString: database.url, max: 1 });
    await pool.query('CREATE TABLE items (id text PRIMARY KEY, amount bigint NOT NULL)');
    await pool.query("INSERT INTO items (id, amount) VALUES ('a', 1), ('b', 2), ('c', 3)");
  });

  afterAll(async () => {
    await pool.end();
    await observer.end();
    await database.drop();
  });

  const byId = (id: string) => lookup<{ amount: string; backend: number }>(pool, 'SELECT amount, pg_backend_pid() AS backend FROM items WHERE id = $1', [id]);

  it('answers concurrent lookups in order, all from one backend', async () => {
    expect(pool).toBeInstanceOf(ConnectionKeepingPool);
    const pooledBefore = pool.totalCount;
    const answers = await Promise.all(['a', 'b', 'c', 'missing'].map(byId));
    expect(answers.map((answer) => answer.rows.map((row) => row.amount))).toEqual([['1'], ['2'], ['3'], []]);
    const backends = new Set(answers.flatMap((answer) => answer.rows.map((row) => row.backend)));
    expect(backends.size).toBe(1);
    // Not pooled connections: the pool opened none for them.
    expect(pool.totalCount).toBe(pooledBefore);
    expect(pooledBefore).toBeLessThanOrEqual(1);
  });

  it('sends the lookups issued in one turn in one socket write', async () => {
    await Promise.all(['a', 'b', 'c'].map(byId)); // the lane is open, the statement prepared
    const lane = await (pool as unknown as { lane: { connection: Promise<{ connection: { stream: Socket } }> } }).lane.connection;
    const { result: answers, writes } = await countSocketWrites(lane.connection.stream, () => Promise.all(['a', 'b', 'c'].map(byId)));
    expect(answers.map((answer) => answer.rows[0].amount)).toEqual(['1', '2', '3']);
    expect(writes).toBe(1);
  });

  it('fails a refused lookup alone: the ones sent with it, before and after, still answer', async () => {
    const [before, refused, after] = await Promise.allSettled([
      byId('a'),
      lookup(pool, 'SELECT 1 / $1::int AS quotient', [0]),
      byId('b'),
    ]);
    expect(before).toMatchObject({ status: 'fulfilled', value: { rows: [{ amount: '1' }] } });
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    expect(after).toMatchObject({ status: 'fulfilled', value: { rows: [{ amount: '2' }] } });
  });

  it('opens a new lane after its backend is ended', async () => {
    const first = (await byId('a')).rows[0].backend;
    await observer.query('SELECT pg_terminate_backend($1)', [first]);
    // Lookups sent while the old lane is going down may fail with it; the lane is then opened again.
    let second: number | null = null;
    for (let attempt = 0; attempt < 50 && second === null; attempt++) {
      second = await byId('c').then(
        (answer) => answer.rows[0].backend,
        () => null,
      );
      if (second === null) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    expect((await byId('b')).rows[0]).toEqual({ amount: '2', backend: second });
  });
});
