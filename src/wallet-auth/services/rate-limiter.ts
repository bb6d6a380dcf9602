import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { ApiError } from '../../infra/http/api-error';
import { PG_POOL } from '../../infra/postgres/pool';
import { RATE_LIMIT_BUDGET, RATE_LIMIT_WINDOW_MS } from '../wallet-auth.constants';

export const RATE_LIMIT_DDL = `
CREATE TABLE IF NOT EXISTS wallet_auth_rate_limits (
  bucket text PRIMARY KEY,
  window_started_at timestamptz NOT NULL,
  hits integer NOT NULL
)`;

export type RateLimitedOperation = 'challenge' | 'verify';

/**
 * A fixed-window budget per credential and operation, counted in Postgres with one atomic upsert
 * (so every API process shares it) and timed by the database clock (so processes never disagree).
 * Past the budget: 429 RATE_LIMITED with Retry-After (seconds until the window ends).
 */
@Injectable()
export class WalletRateLimiter {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async ensureSchema(): Promise<void> {
    await this.pool.query(RATE_LIMIT_DDL);
  }

  async consume(platformId: string, credentialId: string, operation: RateLimitedOperation): Promise<void> {
    const bucket = `${platformId}:${credentialId}:${operation}`;
    const result = await this.pool.query<{ hits: number; retry_after_ms: string }>(
      `INSERT INTO wallet_auth_rate_limits AS limits (bucket, window_started_at, hits) VALUES ($1, clock_timestamp(), 1)
       ON CONFLICT (bucket) DO UPDATE SET
         window_started_at = CASE WHEN limits.window_started_at <= clock_timestamp() - make_interval(secs => $2::double precision / 1000)
                                  THEN clock_timestamp() ELSE limits.window_started_at END,
         hits = CASE WHEN limits.window_started_at <= clock_timestamp() - make_interval(secs => $2::double precision / 1000)
                     THEN 1 ELSE limits.hits + 1 END
       RETURNING hits,
         (extract(epoch FROM (window_started_at + make_interval(secs => $2::double precision / 1000) - clock_timestamp())) * 1000)::bigint AS retry_after_ms`,
      [bucket, RATE_LIMIT_WINDOW_MS],
    );
    const row = result.rows[0];
    if (row.hits <= RATE_LIMIT_BUDGET) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(Number(row.retry_after_ms) / 1000));
    throw new ApiError(
      'RATE_LIMITED',
      `Too many ${operation} calls for this credential; retry after ${retryAfterSeconds} seconds`,
      { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
