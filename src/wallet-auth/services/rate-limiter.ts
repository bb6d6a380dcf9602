import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { ApiError } from '../../infra/http/api-error';
import { countInFixedWindow, fixedWindowTableDdl } from '../../infra/postgres/fixed-window-counter';
import { PG_POOL } from '../../infra/postgres/pool';
import { RATE_LIMIT_BUDGET, RATE_LIMIT_WINDOW_MS } from '../wallet-auth.constants';

const TABLE = 'wallet_auth_rate_limits';

export type RateLimitedOperation = 'challenge' | 'verify';

/**
 * A fixed-window budget per credential and operation, counted in Postgres (shared by every API
 * process, timed by the database clock: `countInFixedWindow`). Past the budget: 429
 * RATE_LIMITED with Retry-After (seconds until the window ends).
 */
@Injectable()
export class WalletRateLimiter {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async ensureSchema(): Promise<void> {
    await this.pool.query(fixedWindowTableDdl(TABLE));
  }

  async consume(platformId: string, credentialId: string, operation: RateLimitedOperation): Promise<void> {
    const bucket = `${platformId}:${credentialId}:${operation}`;
    const { hits, retryAfterSeconds } = await countInFixedWindow(this.pool, TABLE, bucket, RATE_LIMIT_WINDOW_MS);
    if (hits <= RATE_LIMIT_BUDGET) return;
    throw new ApiError(
      'RATE_LIMITED',
      `Too many ${operation} calls for this credential; retry after ${retryAfterSeconds} seconds`,
      { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
