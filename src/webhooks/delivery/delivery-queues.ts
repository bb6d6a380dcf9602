import { Queue } from 'bullmq';
import IORedis, { Redis } from 'ioredis';
import { logger } from '../../infra/logger';
import { jobIdFor, settleWithin } from '../../infra/queue/queue.service';

/** The job of one delivery: everything else is read from Postgres when it runs. */
export interface DeliveryJobData {
  deliveryId: string;
  platformId: string;
}

export const DELIVERY_JOB_NAME = 'deliver';

/** How often one process tells the workers that a platform has work (at most). */
const ANNOUNCE_EVERY_MS = 1000;
/** How long closing the queues may take (their Redis may be down). */
const CLOSE_TIMEOUT_MS = 1_000;

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/**
 * One BullMQ queue per platform (`webhooks-<platform>`): a platform whose endpoint is slow or
 * dead fills only its own queue and its own worker slots, so other platforms' webhooks never
 * wait behind it (BullMQ's groups would do this, but they are a Pro feature). The platforms
 * with a queue are kept in a Redis set and announced on a channel, so worker processes start a
 * worker for a platform as soon as it has work.
 */
export class DeliveryQueues {
  private readonly queues = new Map<string, Queue<DeliveryJobData>>();
  private readonly announcedAt = new Map<string, number>();
  private readonly connection: Redis;

  constructor(
    redisUrl: string,
    readonly prefix: string,
  ) {
    this.connection = new IORedis(redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: false });
    this.connection.on('error', (error) => logger.warn('webhook queue connection error', { error: String(error) }));
  }

  /** Redis set of platform ids that have (or had) a delivery queue. */
  get platformsKey(): string {
    return `${this.prefix}:webhook-platforms`;
  }

  /** Channel on which a platform id is published when it has new work. */
  get activityChannel(): string {
    return `${this.prefix}:webhook-platforms:activity`;
  }

  queueNameFor(platformId: string): string {
    return `webhooks-${platformId.replace(/[^A-Za-z0-9-]/g, '_')}`;
  }

  queueFor(platformId: string): Queue<DeliveryJobData> {
    let queue = this.queues.get(platformId);
    if (!queue) {
      queue = new Queue<DeliveryJobData>(this.queueNameFor(platformId), { connection: this.connection, prefix: this.prefix });
      // Without a listener BullMQ prints each connection error raw to stderr (Redis restarting).
      queue.on('error', (error) => logger.warn('webhook queue error', { platformId, error: String(error) }));
      this.queues.set(platformId, queue);
    }
    return queue;
  }

  /**
   * Queues a delivery. The job id is the delivery id, so queuing it again while its job exists
   * (a reactor replay, the sweeper) keeps one job. BullMQ's own attempts are only for
   * infrastructure errors (Postgres down); HTTP failures follow the retry policy instead.
   */
  async enqueue(platformId: string, deliveryId: string): Promise<void> {
    await this.enqueueMany(platformId, [deliveryId]);
  }

  /** Queues several deliveries of one platform in one round trip. */
  async enqueueMany(platformId: string, deliveryIds: string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    await this.queueFor(platformId).addBulk(
      deliveryIds.map((deliveryId) => ({
        name: DELIVERY_JOB_NAME,
        data: { deliveryId, platformId },
        opts: {
          jobId: jobIdFor(deliveryId),
          attempts: 8,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: true,
          removeOnFail: { count: 1000 },
        },
      })),
    );
    await this.announce(platformId);
  }

  /** Re-queues a delivery whose job is gone (Redis lost it) or failed (infrastructure errors). */
  async ensureQueued(platformId: string, deliveryId: string): Promise<'queued' | 'retried' | 'present'> {
    const job = await this.queueFor(platformId).getJob(jobIdFor(deliveryId));
    if (!job) {
      await this.enqueue(platformId, deliveryId);
      return 'queued';
    }
    const state = await job.getState();
    if (state === 'failed') {
      await job.retry('failed');
      await this.announce(platformId);
      return 'retried';
    }
    if (state === 'completed') {
      await job.remove();
      await this.enqueue(platformId, deliveryId);
      return 'queued';
    }
    return 'present';
  }

  private async announce(platformId: string): Promise<void> {
    const now = Date.now();
    if (now - (this.announcedAt.get(platformId) ?? 0) < ANNOUNCE_EVERY_MS) return;
    this.announcedAt.set(platformId, now);
    await this.connection.multi().sadd(this.platformsKey, platformId).publish(this.activityChannel, platformId).exec();
  }

  async platforms(): Promise<string[]> {
    return this.connection.smembers(this.platformsKey);
  }

  async countsFor(platformId: string): Promise<QueueCounts> {
    const counts = await this.queueFor(platformId).getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: counts.failed ?? 0,
    };
  }

  /** Every platform's counts, and their sum: what health and the CLI show. */
  async counts(): Promise<{ total: QueueCounts & { platforms: number }; byPlatform: Record<string, QueueCounts> }> {
    const platforms = await this.platforms();
    const entries = await Promise.all(platforms.map(async (platformId) => [platformId, await this.countsFor(platformId)] as const));
    const total = { platforms: platforms.length, waiting: 0, active: 0, delayed: 0, failed: 0 };
    for (const [, counts] of entries) {
      total.waiting += counts.waiting;
      total.active += counts.active;
      total.delayed += counts.delayed;
      total.failed += counts.failed;
    }
    return { total, byPlatform: Object.fromEntries(entries) };
  }

  async close(): Promise<void> {
    // Bounded: with Redis down a queue's close is never answered, and shutdown must end in time.
    await settleWithin(Promise.allSettled([...this.queues.values()].map((queue) => queue.close())), CLOSE_TIMEOUT_MS);
    this.queues.clear();
    this.connection.disconnect();
  }
}
