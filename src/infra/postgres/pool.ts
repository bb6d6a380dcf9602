import { Pool, types } from 'pg';

// int8 and numeric come back as strings by default; money columns are read explicitly as needed.
types.setTypeParser(types.builtins.INT8, (value) => value);

export const PG_POOL = Symbol('PG_POOL');

export function createPool(connectionString: string, max = 20): Pool {
  const pool = new Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}
