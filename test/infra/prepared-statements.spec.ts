import { Pool } from 'pg';
import { createPool } from '../../src/infra/postgres/pool';
import { FreshDatabase, freshDatabase } from '../support/database';

/** The pool's client prepares parameterized statements once per connection (src/infra/postgres/pool.ts). */
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
