import { Client } from 'pg';
import { createPool } from '../../src/infra/postgres/pool';
import { APPEND_MANY_FAST_SQL } from '../../src/infra/event-store/postgres-append-many';
import { PostgresEventStore } from '../../src/infra/event-store/postgres-event-store';
import { FreshDatabase, freshDatabase } from '../support/database';

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/**
 * A connection keeps the generic plan it makes for a prepared statement, and the first one is
 * made while the events table is small: the multi-stream append's expectation check must not
 * become a scan of events then (it read the whole table on every append, bench/RESULTS.md).
 */
describe('event store statements planned on a small table', () => {
  let database: FreshDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await freshDatabase('es_plans');
    const pool = createPool(database.url, 1);
    await PostgresEventStore.ensureSchema(pool);
    await pool.end();
    client = new Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it("the fast multi-stream append's generic plan reads events only through es_stream_at, a probe of the stream key", async () => {
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(`PREPARE append_many(text[], bigint[], text[], bigint[], uuid[], text[], jsonb, jsonb) AS ${APPEND_MANY_FAST_SQL}`);
    const explained = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `EXPLAIN (FORMAT JSON) EXECUTE append_many('{s-1}', '{0}', '{s-1}', '{1}', '{00000000-0000-7000-8000-000000000001}', '{T}', '[{}]', '[{}]')`,
    );
    const readsOfEvents = nodes(explained.rows[0]['QUERY PLAN'][0].Plan).filter((node) => node['Relation Name'] === 'events' && node['Node Type'] !== 'ModifyTable');
    expect(readsOfEvents).toEqual([]);
    const [fn] = (await client.query<{ proconfig: string[] }>(`SELECT proconfig FROM pg_proc WHERE proname = 'es_stream_at'`)).rows;
    expect(fn.proconfig).toEqual(['enable_seqscan=off']);
  });

  it('es_stream_at answers whether the stream has an event at the revision', async () => {
    await client.query(
      `INSERT INTO events (event_id, stream_name, stream_revision, event_type, data, metadata)
       VALUES ('00000000-0000-7000-8000-000000000002', 's-2', 0, 'T', '{}', '{}')`,
    );
    const at = async (stream: string, revision: number) => (await client.query<{ at: boolean }>('SELECT es_stream_at($1, $2) AS at', [stream, revision])).rows[0].at;
    expect([await at('s-2', 0), await at('s-2', 1), await at('s-3', 0)]).toEqual([true, false, false]);
  });
});
