import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { ApiError } from '../../infra/http/api-error';
import { logger } from '../../infra/logger';
import { countInFixedWindow, fixedWindowTableDdl } from '../../infra/postgres/fixed-window-counter';
import { PG_POOL } from '../../infra/postgres/pool';

const TABLE = 'agent_redeem_failures';

/**
 * Failed device-code redemptions per source address (docs/agents.md "Device codes"), counted like
 * failed platform authentications: a fixed window in Postgres shared by every API process. A code
 * has 40 random bits, so guessing is hopeless anyway; the limit keeps a guesser from trying at
 * the API's full speed. Once an address has spent its budget, every redemption from it answers
 * 429 until the window ends, a valid code included (else 429 against 200 would keep answering
 * the guesser).
 */
@Injectable()
export class RedeemAttempts {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async ensureSchema(): Promise<void> {
    await this.pool.query(fixedWindowTableDdl(TABLE));
  }

  /** Refuses with 429 while the address's budget is spent (reads the counter, counts nothing). */
  async assertNotLocked(sourceAddress: string): Promise<void> {
    const { redeemFailureWindowMs, maxRedeemFailuresPerAddress } = this.config.agents;
    const result = await this.pool.query<{ hits: number; retry_after_ms: string }>(
      `SELECT hits,
         (extract(epoch FROM (window_started_at + make_interval(secs => $2::double precision / 1000) - clock_timestamp())) * 1000)::bigint AS retry_after_ms
       FROM ${TABLE} WHERE bucket = $1`,
      [bucketOf(sourceAddress), redeemFailureWindowMs],
    );
    const row = result.rows[0];
    if (!row || row.hits < maxRedeemFailuresPerAddress || Number(row.retry_after_ms) <= 0) return;
    throw rateLimited(Math.max(1, Math.ceil(Number(row.retry_after_ms) / 1000)));
  }

  /** Counts a failed redemption; the one that spends the budget still gets its own answer. */
  async countFailure(sourceAddress: string): Promise<void> {
    const { redeemFailureWindowMs, maxRedeemFailuresPerAddress } = this.config.agents;
    const count = await countInFixedWindow(this.pool, TABLE, bucketOf(sourceAddress), redeemFailureWindowMs);
    if (count.hits === maxRedeemFailuresPerAddress) {
      logger.warn('device code redemption locked after failed attempts', { sourceAddress, failures: count.hits, retryAfterSeconds: count.retryAfterSeconds });
    }
    if (count.hits > maxRedeemFailuresPerAddress) throw rateLimited(count.retryAfterSeconds);
  }
}

function bucketOf(sourceAddress: string): string {
  return `address:${sourceAddress}`;
}

function rateLimited(retryAfterSeconds: number): ApiError {
  return new ApiError(
    'RATE_LIMITED',
    `Too many failed device code redemptions; retry after ${retryAfterSeconds} seconds`,
    { retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}
