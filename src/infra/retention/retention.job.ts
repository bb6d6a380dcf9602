import { Pool } from 'pg';
import { RetentionConfig } from '../config';
import { logger } from '../logger';

/** The first run after a start comes this soon (or after one interval, if shorter): a service restarted more often than hourly still purges. */
const FIRST_RUN_DELAY_MS = 60_000;

/** What one run deleted, per purge name. */
export type RetentionRun = Record<string, number>;

/**
 * One kind of operational record to purge: the idempotency keys (infra) and the webhook
 * deliveries (webhooks) register theirs. `purge` deletes in small batches and answers the count.
 */
export interface RetentionPurge {
  name: string;
  purge(now: Date, config: RetentionConfig): Promise<number>;
}

/** The purges of this process: contexts register theirs from onModuleInit. */
export class RetentionRegistry {
  readonly purges: RetentionPurge[] = [];
  register(purge: RetentionPurge): void {
    if (!this.purges.some((existing) => existing.name === purge.name)) this.purges.push(purge);
  }
}

/**
 * Purges operational records past their keep (the registered purges: Idempotency-Key records
 * older than 24 h, webhook deliveries settled and untouched for `webhookDeliveryRetentionDays`). Runs on a timer in every
 * worker process, as the webhook sweeper does; a session advisory lock lets one process at a
 * time do the work (the others skip that round). Each store deletes in small batches.
 */
export class RetentionJob {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<RetentionRun | null> | null = null;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly registry: RetentionRegistry,
    private readonly config: RetentionConfig,
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    const tick = (delayMs: number) => {
      this.timer = setTimeout(() => {
        void this.runOnce()
          .catch((error) => logger.warn('retention purge failed', { error: String(error) }))
          .finally(() => {
            if (!this.stopped) tick(this.config.intervalMs);
          });
      }, delayMs);
      this.timer.unref();
    };
    tick(Math.min(FIRST_RUN_DELAY_MS, this.config.intervalMs));
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current?.catch(() => undefined);
  }

  /** One purge now; null when another process is purging (this one then skips the round). */
  runOnce(now = new Date()): Promise<RetentionRun | null> {
    this.current ??= this.purge(now).finally(() => (this.current = null));
    return this.current;
  }

  private async purge(now: Date): Promise<RetentionRun | null> {
    const client = await this.pool.connect();
    let failure: Error | undefined;
    try {
      const locked = await client.query(`SELECT pg_try_advisory_lock(hashtext('retention:purge')) AS locked`);
      if (locked.rows[0].locked !== true) return null;
      try {
        const run: RetentionRun = {};
        for (const { name, purge } of this.registry.purges) run[name] = await purge(now, this.config);
        if (Object.values(run).some((count) => count > 0)) logger.info('retention purge', run);
        return run;
      } finally {
        await client.query(`SELECT pg_advisory_unlock(hashtext('retention:purge'))`).catch((error: Error) => (failure = error));
      }
    } finally {
      // A connection whose unlock failed still holds the lock: closed, not handed back.
      client.release(failure);
    }
  }
}
