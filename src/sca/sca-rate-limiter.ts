import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { ApiError } from '../infra/http/api-error';
import { PG_POOL } from '../infra/postgres/pool';

/** Authorize calls one SCA sequence may take per window (DECISIONS.md section 4 "Rate limits"). */
export const SCA_AUTHORIZE_BUDGET = 10;
export const SCA_AUTHORIZE_WINDOW_MS = 60 * 1000;

const DDL = `
CREATE TABLE IF NOT EXISTS sca_rate_limits (
  bucket text PRIMARY KEY,
  window_started_at timestamptz NOT NULL,
  hits integer NOT NULL
)`;

/**
 * A fixed-window budget of `POST .../authorize` calls per SCA sequence (the challenges of one
 * operation, so one customer's other payments are not held up), counted in Postgres with one
 * atomic upsert so every API process shares it, and timed by the database clock. Past the budget:
 * 429 RATE_LIMITED with Retry-After. The lock after five wrong proofs (423) still applies first
 * to wrong proofs; this budget also brakes calls that never reach a proof.
 */
@Injectable()
export class ScaRateLimiter {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async ensureSchema(): Promise<void> {
    await this.pool.query(DDL);
  }

  async consumeAuthorize(platformId: string, sequenceId: string): Promise<void> {
    const result = await this.pool.query<{ hits: number; retry_after_ms: string }>(
      `INSERT INTO sca_rate_limits AS limits (bucket, window_started_at, hits) VALUES ($1, clock_timestamp(), 1)
       ON CONFLICT (bucket) DO UPDATE SET
         window_started_at = CASE WHEN limits.window_started_at <= clock_timestamp() - make_interval(secs => $2::double precision / 1000)
                                  THEN clock_timestamp() ELSE limits.window_started_at END,
         hits = CASE WHEN limits.window_started_at <= clock_timestamp() - make_interval(secs => $2::double precision / 1000)
                     THEN 1 ELSE limits.hits + 1 END
       RETURNING hits,
         (extract(epoch FROM (window_started_at + make_interval(secs => $2::double precision / 1000) - clock_timestamp())) * 1000)::bigint AS retry_after_ms`,
      [`${platformId}:${sequenceId}:authorize`, SCA_AUTHORIZE_WINDOW_MS],
    );
    const row = result.rows[0];
    if (row.hits <= SCA_AUTHORIZE_BUDGET) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(Number(row.retry_after_ms) / 1000));
    throw new ApiError(
      'RATE_LIMITED',
      `Too many authorize calls for this challenge; retry after ${retryAfterSeconds} seconds`,
      { reason: 'AUTHORIZE_LIMIT_REACHED', retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
