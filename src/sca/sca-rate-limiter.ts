import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { ApiError } from '../infra/http/api-error';
import { countInFixedWindow, fixedWindowTableDdl } from '../infra/postgres/fixed-window-counter';
import { PG_POOL } from '../infra/postgres/pool';

/** Authorize calls one SCA sequence may take per window (DECISIONS.md section 4 "Rate limits"). */
export const SCA_AUTHORIZE_BUDGET = 10;
export const SCA_AUTHORIZE_WINDOW_MS = 60 * 1000;

export const SCA_RATE_LIMIT_TABLE = 'sca_rate_limits';

/**
 * A fixed-window budget of `POST .../authorize` calls per SCA sequence (the challenges of one
 * operation, so one customer's other payments are not held up), counted in Postgres and shared
 * by every API process (`countInFixedWindow`). Past the budget: 429 RATE_LIMITED with
 * Retry-After. The lock after five wrong proofs (423) still applies first
 * to wrong proofs; this budget also brakes calls that never reach a proof.
 */
@Injectable()
export class ScaRateLimiter {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async ensureSchema(): Promise<void> {
    await this.pool.query(fixedWindowTableDdl(SCA_RATE_LIMIT_TABLE));
  }

  async consumeAuthorize(platformId: string, sequenceId: string): Promise<void> {
    const { hits, retryAfterSeconds } = await countInFixedWindow(this.pool, SCA_RATE_LIMIT_TABLE, `${platformId}:${sequenceId}:authorize`, SCA_AUTHORIZE_WINDOW_MS);
    if (hits <= SCA_AUTHORIZE_BUDGET) return;
    throw new ApiError(
      'RATE_LIMITED',
      `Too many authorize calls for this challenge; retry after ${retryAfterSeconds} seconds`,
      { reason: 'AUTHORIZE_LIMIT_REACHED', retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
