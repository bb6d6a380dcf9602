import { Pool } from 'pg';

/** The table a fixed-window counter keeps its buckets in (one table per context). */
export function fixedWindowTableDdl(table: string): string {
  return `
CREATE TABLE IF NOT EXISTS ${table} (
  bucket text PRIMARY KEY,
  window_started_at timestamptz NOT NULL,
  hits integer NOT NULL
)`;
}

export interface WindowCount {
  /** Calls counted in the current window, this one included. */
  hits: number;
  /** Whole seconds until the window ends (at least 1): the Retry-After of a refusal. */
  retryAfterSeconds: number;
}

/**
 * Counts one call in `bucket`'s fixed window with one atomic upsert, so every API process shares
 * the count, timed by the database clock, so processes never disagree about when a window ends.
 */
export async function countInFixedWindow(pool: Pool, table: string, bucket: string, windowMs: number): Promise<WindowCount> {
  const result = await pool.query<{ hits: number; retry_after_ms: string }>(
    `INSERT INTO ${table} AS limits (bucket, window_started_at, hits) VALUES ($1, clock_timestamp(), 1)
     ON CONFLICT (bucket) DO UPDATE SET
       window_started_at = CASE WHEN limits.window_started_at <= clock_timestamp() - make_interval(secs => $2::double precision / 1000)
                                THEN clock_timestamp() ELSE limits.window_started_at END,
       hits = CASE WHEN limits.window_started_at <= clock_timestamp() - make_interval(secs => $2::double precision / 1000)
                   THEN 1 ELSE limits.hits + 1 END
     RETURNING hits,
       (extract(epoch FROM (window_started_at + make_interval(secs => $2::double precision / 1000) - clock_timestamp())) * 1000)::bigint AS retry_after_ms`,
    [bucket, windowMs],
  );
  const row = result.rows[0];
  return { hits: row.hits, retryAfterSeconds: Math.max(1, Math.ceil(Number(row.retry_after_ms) / 1000)) };
}
