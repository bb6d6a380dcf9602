import { Pool, QueryResult, QueryResultRow, types } from 'pg';
import { ConnectionKeepingPool } from './connection-keeping-pool';
import { PreparingClient } from './prepared-statements';

// int8 and numeric come back as strings by default; money columns are read explicitly as needed.
types.setTypeParser(types.builtins.INT8, (value) => value);

export const PG_POOL = Symbol('PG_POOL');

/**
 * Longest wait for a pooled connection (a free one, or a new one to open). Postgres down answers
 * a connect at once (refused, or 57P03 while it recovers); this bounds the rest (a server that
 * accepts but does not answer, every client busy), and the error answers 503 like the others
 * (src/infra/http/dependency-errors.ts) instead of holding the request.
 */
export const POOL_CONNECTION_TIMEOUT_MS = 5_000;

/**
 * The service's pool: its clients prepare every parameterized statement (prepared-statements.ts),
 * it keeps a connection after a statement the server refused and carries the lookup lane
 * (connection-keeping-pool.ts, lookup-lane.ts). Nothing to do for a restart of Postgres: clients
 * that break are dropped (pg-pool discards a client released with its error, and idle ones that
 * error), and the next checkout opens a new connection; statements sent while the server is down
 * fail at once.
 */
export function createPool(connectionString: string, max = 20): Pool {
  const pool = new ConnectionKeepingPool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: POOL_CONNECTION_TIMEOUT_MS,
    Client: PreparingClient,
  } as ConstructorParameters<typeof Pool>[0]);
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** `pool.lookup` where the pool has a lane (see ConnectionKeepingPool.lookup), else an ordinary query. */
export function lookup<T extends QueryResultRow = any>(pool: Pool, text: string, values: unknown[]): Promise<QueryResult<T>> {
  return pool instanceof ConnectionKeepingPool ? pool.lookup<T>(text, values) : pool.query<T>(text, values);
}
