import { Pool } from 'pg';
import { createPool } from '../../src/infra/postgres/pool';
import { FreshDatabase, freshDatabase } from '../support/database';

/** The pool's client prepares parameterized statements once per connection (src/infra/postgres/prepared-statements.ts). */
describe('PreparingClient on real Postgres', () => {
  let database: FreshDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await freshDatabase('prepared');
    // One connection, so every query below runs in the session whose prepared statements we list.
    pool = createPool(database.url, 1);
    await pool.query('CREATE TABLE items (id text PRIMARY KEY, amount bigint NOT NULL)');
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const prepared = async (): Promise<string[]> =>
    (await pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement')).rows.map((row) => row.statement);

  it('names parameterized statements (both query forms) and reuses the name on the next call', async () => {
    await pool.query('INSERT INTO items (id, amount) VALUES ($1, $2)', ['a', 1]);
    await pool.query({ text: 'INSERT INTO items (id, amount) VALUES ($1, $2)', values: ['b', 2] });
    const rows = await pool.query<{ id: string; amount: string }>({ text: 'SELECT id, amount FROM items WHERE amount >= $1 ORDER BY id', values: [1] });
    expect(rows.rows).toEqual([{ id: 'a', amount: '1' }, { id: 'b', amount: '2' }]);
    const asArrays = await pool.query({ text: 'SELECT id, amount FROM items WHERE amount >= $1 ORDER BY id', values: [2], rowMode: 'array' });
    expect(asArrays.rows).toEqual([['b', '2']]);
    expect(await prepared()).toEqual([
      'INSERT INTO items (id, amount) VALUES ($1, $2)',
      'SELECT id, amount FROM items WHERE amount >= $1 ORDER BY id',
    ]);
  });

  it('leaves statements without values to the simple protocol (several statements in one text still work)', async () => {
    const before = await prepared();
    const results = (await pool.query("SELECT 1 AS one; SELECT 'two' AS two")) as unknown as Array<{ rows: unknown[] }>;
    expect(results.map((result) => result.rows)).toEqual([[{ one: 1 }], [{ two: 'two' }]]);
    expect(await prepared()).toEqual(before);
  });

  it('keeps explicit names and reports SQL errors as before', async () => {
    await pool.query({ name: 'by_id', text: 'SELECT amount FROM items WHERE id = $1', values: ['a'] });
    expect(await prepared()).toContain('SELECT amount FROM items WHERE id = $1');
    await expect(pool.query('INSERT INTO items (id, amount) VALUES ($1, $2)', ['a', 3])).rejects.toMatchObject({ code: '23505' });
    // The named statement survives the failed call.
    await pool.query('INSERT INTO items (id, amount) VALUES ($1, $2)', ['c', 3]);
    expect((await pool.query('SELECT count(*)::int AS count FROM items')).rows[0].count).toBe(3);
  });
});

/** ConnectionKeepingPool: a statement the server refuses does not cost the connection. */
describe('the pool after a refused statement, on real Postgres', () => {
  let database: FreshDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await freshDatabase('keeping');
    pool = createPool(database.url, 1);
    await pool.query('CREATE TABLE keyed (id text PRIMARY KEY)');
    await pool.query(`CREATE FUNCTION raise_es409(message text) RETURNS void LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '%', message USING ERRCODE = 'ES409'; END $$`);
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const backend = async (): Promise<number> => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;

  it('keeps the session after a parameterized statement is refused (unique violation, RAISE, syntax), in every query form', async () => {
    const pid = await backend();
    await pool.query('INSERT INTO keyed (id) VALUES ($1)', ['a']);
    await expect(pool.query('INSERT INTO keyed (id) VALUES ($1)', ['a'])).rejects.toMatchObject({ code: '23505' });
    await expect(pool.query({ text: 'INSERT INTO keyed (id) VALUES ($1)', values: ['a'] })).rejects.toMatchObject({ code: '23505' });
    await expect(pool.query("SELECT raise_es409($1)", ['no'])).rejects.toMatchObject({ code: 'ES409' });
    await expect(pool.query('SELEC $1', [1])).rejects.toMatchObject({ code: '42601' });
    const viaCallback = await new Promise<{ error: unknown; pid: number | undefined }>((resolve) =>
      (pool.query as unknown as (text: string, values: unknown[], callback: (error: unknown, result?: { rows: Array<{ pid: number }> }) => void) => void)(
        'SELECT pg_backend_pid() AS pid WHERE $1::int = 1',
        [1],
        (error, result) => resolve({ error, pid: result?.rows[0]?.pid }),
      ),
    );
    expect(viaCallback).toEqual({ error: undefined, pid });
    expect(await backend()).toBe(pid);
    expect(pool.totalCount).toBe(1);
  });

  it('drops the session after a refused text without values (several statements, a BEGIN among them, may have run)', async () => {
    const pid = await backend();
    await expect(pool.query("BEGIN; INSERT INTO keyed (id) VALUES ('b'); INSERT INTO keyed (id) VALUES ('a')")).rejects.toMatchObject({ code: '23505' });
    const next = await backend();
    expect(next).not.toBe(pid);
    // Nothing of the failed text stayed, and the new session is not inside its transaction.
    expect((await pool.query('SELECT count(*)::int AS count FROM keyed')).rows[0].count).toBe(1);
  });

  it('drops a session the server ended (FATAL) and answers the next query on a new one', async () => {
    const pid = await backend();
    await expect(pool.query('SELECT pg_terminate_backend(pg_backend_pid())')).rejects.toBeTruthy();
    const next = await backend();
    expect(next).not.toBe(pid);
    expect((await pool.query('SELECT count(*)::int AS count FROM keyed')).rows[0].count).toBe(1);
  });
});
