import { Pool } from 'pg';
import { RetentionConfig } from '../config';
import { IdempotencyService } from '../http/idempotency.service';
import { logger } from '../logger';
import { DeliveryStore } from '../../webhooks/delivery/delivery-store';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The first run after a start comes this soon (or after one interval, if shorter): a service restarted more often than hourly still purges. */
const FIRST_RUN_DELAY_MS = 60_000;

/** What one run deleted. */
export interface RetentionRun {
  idempotencyKeys: number;
  webhookDeliveries: number;
}

/**
 * Purges operational records past their keep: Idempotency-Key records older than 24 h and webhook
 * deliveries settled and untouched for `webhookDeliveryRetentionDays`. Runs on a timer in every
 * worker process, as the webhook sweeper does; a session advisory lock lets one process at a
 * time do the work (the others skip that round). Each store deletes in small batches.
 */
export class RetentionJob {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<RetentionRun | null> | null = null;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly idempotency: IdempotencyService,
    private readonly deliveries: DeliveryStore,
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
        const idempotencyKeys = await this.idempotency.purgeExpired();
        const horizon = new Date(now.getTime() - this.config.webhookDeliveryRetentionDays * DAY_MS);
        const webhookDeliveries = await this.deliveries.purgeSettledBefore(horizon);
        if (idempotencyKeys + webhookDeliveries > 0) logger.info('retention purge', { idempotencyKeys, webhookDeliveries });
        return { idempotencyKeys, webhookDeliveries };
      } finally {
        await client.query(`SELECT pg_advisory_unlock(hashtext('retention:purge'))`).catch((error: Error) => (failure = error));
      }
    } finally {
      // A connection whose unlock failed still holds the lock: closed, not handed back.
      client.release(failure);
    }
  }
}
