import { Pool } from 'pg';
import { PlatformAuthLimits } from '../infra/config';
import { AuthenticationResult, PlatformAuthenticator } from '../infra/http/platform-auth.guard';
import { logger } from '../infra/logger';
import { countInFixedWindow, fixedWindowTableDdl } from '../infra/postgres/fixed-window-counter';
import { PlatformCredentialStore } from './platform-credentials';

const TABLE = 'platform_auth_failures';
/** Every this many counted failures, buckets of windows long gone are deleted (the table stays small). */
const PRUNE_EVERY_FAILURES = 100;
/** Past this many remembered locks, the expired ones are dropped. */
const MAX_REMEMBERED_LOCKS = 10_000;
/** How long an address that authenticated as a client stays exempt from that client id's lock. */
const TRUSTED_ADDRESS_MS = 24 * 60 * 60 * 1000;
/** Past this many trusted (client id, address) pairs, the oldest is forgotten. */
const MAX_TRUSTED_ADDRESSES = 10_000;

/**
 * Platform Basic authentication with a failed-attempt limit per client id and per source address
 * (docs/api.md "Authentication"). Failures are counted in Postgres (`countInFixedWindow`, shared
 * by every API process, timed by the database clock), unknown ids like known ones, so the limit
 * says nothing about which ids exist. Once a budget is spent, every attempt for that client id or
 * from that address answers 429 until the window ends, a correct secret included: if a correct
 * secret still passed, the 429/200 difference would keep answering the guesser's question. One
 * exception keeps a guesser from locking a platform out of its own API: an address this process
 * has seen authenticate as the client in the last 24 hours is exempt from that client id's lock
 * (not from its own address lock, and its failures still count). A successful request never
 * touches the counter: it reads this process's map of known locks (empty in normal operation, so
 * one size check) and notes its address as trusted.
 */
export class PlatformAuthenticatorService implements PlatformAuthenticator {
  /** Locks this process has learnt from failures it counted: bucket -> epoch ms the lock ends. */
  private readonly locks = new Map<string, number>();
  /** `clientId SP address` -> epoch ms until which that address is exempt from the client id's lock. */
  private readonly trustedAddresses = new Map<string, number>();
  private failuresSincePrune = 0;

  constructor(
    private readonly pool: Pool,
    private readonly credentials: PlatformCredentialStore,
    private readonly limits: PlatformAuthLimits,
  ) {}

  async ensureSchema(): Promise<void> {
    await this.pool.query(fixedWindowTableDdl(TABLE));
  }

  async authenticate(clientId: string, clientSecret: string, sourceAddress: string): Promise<AuthenticationResult> {
    const clientBucket = `client:${clientId}`;
    const addressBucket = `address:${sourceAddress}`;
    const trustKey = `${clientId} ${sourceAddress}`;
    if (this.locks.size > 0) {
      const trusted = (this.trustedAddresses.get(trustKey) ?? 0) > Date.now();
      const retryAfterSeconds = trusted ? this.lockedSeconds(addressBucket) : this.lockedSeconds(clientBucket, addressBucket);
      if (retryAfterSeconds > 0) return { outcome: 'rate-limited', retryAfterSeconds };
    }
    const platform = await this.credentials.verify(clientId, clientSecret);
    if (platform) {
      this.trust(trustKey);
      return { outcome: 'authenticated', platform };
    }
    return this.countFailure(clientId, sourceAddress, clientBucket, addressBucket);
  }

  private async countFailure(clientId: string, sourceAddress: string, clientBucket: string, addressBucket: string): Promise<AuthenticationResult> {
    const { failureWindowMs, maxFailuresPerClient, maxFailuresPerAddress } = this.limits;
    const [byClient, byAddress] = await Promise.all([
      countInFixedWindow(this.pool, TABLE, clientBucket, failureWindowMs),
      countInFixedWindow(this.pool, TABLE, addressBucket, failureWindowMs),
    ]);
    this.pruneNow();
    let retryAfterSeconds = 0;
    for (const [bucket, count, budget, lockedBy] of [
      [clientBucket, byClient, maxFailuresPerClient, 'client id'],
      [addressBucket, byAddress, maxFailuresPerAddress, 'source address'],
    ] as const) {
      if (count.hits < budget) continue;
      if (!this.locks.has(bucket)) {
        logger.warn('platform authentication locked after failed attempts', {
          lockedBy, clientId, sourceAddress, failures: count.hits, retryAfterSeconds: count.retryAfterSeconds,
        });
      }
      this.remember(bucket, Date.now() + count.retryAfterSeconds * 1000);
      // The attempt that spends the budget still answers 401; those past it (another process's) 429.
      if (count.hits > budget) retryAfterSeconds = Math.max(retryAfterSeconds, count.retryAfterSeconds);
    }
    return retryAfterSeconds > 0 ? { outcome: 'rate-limited', retryAfterSeconds } : { outcome: 'refused' };
  }

  /** Whole seconds until the later of the two locks ends, or 0 when neither is locked. */
  private lockedSeconds(...buckets: string[]): number {
    const now = Date.now();
    let until = 0;
    for (const bucket of buckets) {
      const lockedUntil = this.locks.get(bucket);
      if (lockedUntil === undefined) continue;
      if (lockedUntil <= now) this.locks.delete(bucket);
      else until = Math.max(until, lockedUntil);
    }
    return until > now ? Math.max(1, Math.ceil((until - now) / 1000)) : 0;
  }

  private trust(trustKey: string): void {
    if (this.trustedAddresses.size >= MAX_TRUSTED_ADDRESSES && !this.trustedAddresses.has(trustKey)) {
      this.trustedAddresses.delete(this.trustedAddresses.keys().next().value as string);
    }
    this.trustedAddresses.set(trustKey, Date.now() + TRUSTED_ADDRESS_MS);
  }

  private remember(bucket: string, until: number): void {
    if (this.locks.size >= MAX_REMEMBERED_LOCKS) {
      const now = Date.now();
      for (const [known, lockedUntil] of this.locks) if (lockedUntil <= now) this.locks.delete(known);
    }
    this.locks.set(bucket, Math.max(until, this.locks.get(bucket) ?? 0));
  }

  /** Unknown ids make buckets too: drop the ones whose window ended long ago, now and then. */
  private pruneNow(): void {
    this.failuresSincePrune += 1;
    if (this.failuresSincePrune < PRUNE_EVERY_FAILURES) return;
    this.failuresSincePrune = 0;
    this.pool
      .query(`DELETE FROM ${TABLE} WHERE window_started_at < clock_timestamp() - make_interval(secs => $1::double precision / 1000)`, [
        this.limits.failureWindowMs * 2,
      ])
      .catch((error: unknown) => logger.warn('pruning platform_auth_failures failed', { error: error instanceof Error ? error.message : String(error) }));
  }
}
