import { DelayedError, Job, Worker } from 'bullmq';
import IORedis, { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { WebhookDeliveryConfig } from '../../infra/config';
import { logger } from '../../infra/logger';
import { settleWithin } from '../../infra/queue/queue.service';
import { runWithContext } from '../../infra/request-context';
import { DeliveryStore } from './delivery-store';
import { DeliveryJobData, DeliveryQueues, QueueCounts } from './delivery-queues';
import { WebhookDeliveryService } from './webhook-delivery.service';

export interface WorkerPoolTiming {
  /** How often platforms with work but no worker here are looked for (a missed announcement). */
  rescanIntervalMs: number;
  /** A platform worker with nothing queued for this long is closed (frees its Redis connection). */
  idleCloseMs: number;
  /** How often open deliveries whose job went missing (Redis lost it) are queued again. */
  sweepIntervalMs: number;
  /** How overdue an open delivery must be before the sweeper looks at its job. */
  sweepOverdueMs: number;
}

/** After the grace period, how long interrupted workers get to close, then how long a forced close may take. */
const STOP_AFTER_ABORT_MS = 1_000;

export const DEFAULT_POOL_TIMING: WorkerPoolTiming = {
  rescanIntervalMs: 10_000,
  idleCloseMs: 5 * 60_000,
  sweepIntervalMs: 60_000,
  sweepOverdueMs: 2 * 60_000,
};

interface PlatformWorker {
  worker: Worker<DeliveryJobData>;
  lastBusyAt: number;
  active: number;
}

/**
 * The delivery workers of one process: a BullMQ worker per platform queue, each with
 * `platformConcurrency` slots, started when the platform announces work (or a rescan finds
 * some) and closed when idle. A dead endpoint ties up its own platform's slots only.
 */
export class DeliveryWorkerPool {
  private readonly workers = new Map<string, PlatformWorker>();
  /** Aborted when the shutdown grace is over: interrupts every try still in flight. */
  private readonly shutdown = new AbortController();
  private readonly timers: NodeJS.Timeout[] = [];
  private connection: Redis | null = null;
  private subscriber: Redis | null = null;
  private stopping = false;
  private maintaining = false;

  constructor(
    private readonly redisUrl: string,
    private readonly queues: DeliveryQueues,
    private readonly deliveries: WebhookDeliveryService,
    private readonly store: DeliveryStore,
    private readonly settings: WebhookDeliveryConfig,
    private readonly timing: WorkerPoolTiming = DEFAULT_POOL_TIMING,
  ) {}

  async start(): Promise<void> {
    if (this.connection) return;
    // Every try in flight listens to the one shutdown signal.
    setMaxListeners(0, this.shutdown.signal);
    this.connection = new IORedis(this.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: false });
    this.connection.on('error', (error) => logger.warn('webhook worker connection error', { error: String(error) }));
    this.subscriber = new IORedis(this.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: false });
    this.subscriber.on('error', (error) => logger.warn('webhook subscriber connection error', { error: String(error) }));
    this.subscriber.on('message', (_channel: string, platformId: string) => this.ensureWorker(platformId));
    // After a reconnect announcements may have been missed: look at every platform again.
    this.subscriber.on('ready', () => void this.rescan());
    await this.subscriber.subscribe(this.queues.activityChannel);
    await this.warnUnlessNoEviction();
    await this.rescan();
    this.timers.push(setInterval(() => void this.maintain(), this.timing.rescanIntervalMs));
    this.timers.push(setInterval(() => void this.sweep(), this.timing.sweepIntervalMs));
  }

  /**
   * Stops taking jobs, lets deliveries in flight finish for up to `shutdownGraceMs`, then
   * interrupts them (each is recorded and handed back to the queue for the next worker).
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    this.subscriber?.disconnect();
    const closing = Promise.allSettled([...this.workers.values()].map((entry) => entry.worker.close()));
    let graceTimer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace-over'>((resolve) => {
      graceTimer = setTimeout(() => resolve('grace-over'), this.settings.shutdownGraceMs);
    });
    if ((await Promise.race([closing, graceOver])) === 'grace-over') {
      this.shutdown.abort();
      // With Redis down a worker's close is never answered: bounded, then forced, so the
      // service's shutdown ends in time (the interrupted jobs run again after a restart).
      if (!(await settleWithin(closing, STOP_AFTER_ABORT_MS))) {
        logger.warn('webhook workers did not close in time; forcing them', { timeoutMs: STOP_AFTER_ABORT_MS });
        await settleWithin(Promise.allSettled([...this.workers.values()].map((entry) => entry.worker.close(true))), STOP_AFTER_ABORT_MS);
      }
    }
    clearTimeout(graceTimer);
    this.workers.clear();
    this.connection?.disconnect();
  }

  /** An evicting Redis silently drops queued deliveries (the sweeper would find them late). */
  private async warnUnlessNoEviction(): Promise<void> {
    try {
      const [, policy] = (await this.connection!.config('GET', 'maxmemory-policy')) as [string, string];
      if (policy !== 'noeviction') logger.error('Redis maxmemory-policy must be noeviction for webhook queues', { policy });
    } catch {
      // Managed Redis services may refuse CONFIG; their documentation says how to set the policy.
    }
  }

  private ensureWorker(platformId: string): void {
    if (this.stopping || !this.connection || this.workers.has(platformId)) return;
    const entry = { lastBusyAt: Date.now(), active: 0 } as PlatformWorker;
    const processor = async (job: Job<DeliveryJobData>, token?: string) => {
      entry.active++;
      entry.lastBusyAt = Date.now();
      try {
        await this.process(job, token);
      } finally {
        entry.active--;
        entry.lastBusyAt = Date.now();
      }
    };
    entry.worker = new Worker<DeliveryJobData>(this.queues.queueNameFor(platformId), processor, {
      connection: this.connection,
      prefix: this.queues.prefix,
      concurrency: this.settings.platformConcurrency,
      lockDuration: this.settings.lockDurationMs,
      stalledInterval: this.settings.stalledIntervalMs,
      // A delivery whose worker died is handed on, not failed: deliveries are at least once.
      maxStalledCount: 1000,
    });
    entry.worker.on('failed', (job: Job<DeliveryJobData> | undefined, error: Error) => {
      logger.warn('webhook job failed', { platformId, jobId: job?.id, attemptsMade: job?.attemptsMade, error: error?.message });
    });
    entry.worker.on('error', (error) => logger.warn('webhook worker error', { platformId, error: String(error) }));
    this.workers.set(platformId, entry);
  }

  private async process(job: Job<DeliveryJobData>, token?: string): Promise<void> {
    const { platformId, deliveryId } = job.data;
    const context = {
      requestId: randomUUID(),
      correlationId: deliveryId,
      causationId: String(job.id),
      platformId,
      actor: 'system:webhook-delivery',
      idempotencyKey: null,
      lastPosition: null,
    };
    const { retryAt } = await runWithContext(context, () => this.deliveries.attemptQueued(platformId, deliveryId, this.shutdown.signal));
    if (retryAt) {
      // The same job waits for its next try: no attempt is spent in BullMQ's own counter.
      await job.moveToDelayed(retryAt.getTime(), token);
      throw new DelayedError();
    }
  }

  /** Starts workers for platforms with work; closes idle ones. */
  private async maintain(): Promise<void> {
    if (this.maintaining || this.stopping) return;
    this.maintaining = true;
    try {
      const now = Date.now();
      for (const [platformId, entry] of [...this.workers]) {
        if (entry.active > 0 || now - entry.lastBusyAt < this.timing.idleCloseMs) continue;
        if (hasWork(await this.queues.countsFor(platformId))) continue;
        this.workers.delete(platformId);
        await entry.worker.close();
      }
      await this.rescan();
    } catch (error) {
      logger.warn('webhook worker maintenance failed', { error: String(error) });
    } finally {
      this.maintaining = false;
    }
  }

  private async rescan(): Promise<void> {
    if (this.stopping) return;
    try {
      const platforms = (await this.queues.platforms()).filter((platformId) => !this.workers.has(platformId));
      await Promise.all(
        platforms.map(async (platformId) => {
          if (hasWork(await this.queues.countsFor(platformId))) this.ensureWorker(platformId);
        }),
      );
    } catch (error) {
      logger.warn('webhook platform rescan failed', { error: String(error) });
    }
  }

  /** Re-queues open deliveries whose job is missing or failed (Redis data loss, long outages). */
  private async sweep(): Promise<void> {
    if (this.stopping) return;
    try {
      for (const delivery of await this.store.overdue(this.timing.sweepOverdueMs, 500)) {
        const outcome = await this.queues.ensureQueued(delivery.platformId, delivery.id);
        if (outcome !== 'present') logger.warn('webhook delivery re-queued by the sweeper', { deliveryId: delivery.id, outcome });
      }
    } catch (error) {
      logger.warn('webhook sweep failed', { error: String(error) });
    }
  }
}

function hasWork(counts: QueueCounts): boolean {
  return counts.waiting + counts.active + counts.delayed > 0;
}
