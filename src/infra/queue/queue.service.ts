import { Job, JobsOptions, Processor, Queue, Worker, WorkerOptions } from 'bullmq';
import IORedis, { Redis } from 'ioredis';
import { logger } from '../logger';

export const QUEUE_SERVICE = Symbol('QUEUE_SERVICE');

/**
 * BullMQ queues and workers on one Redis. Queues exist in every role (producers); workers only
 * where the worker role runs. BullMQ rejects ':' in custom job ids, so ids go through jobIdFor.
 */
export class QueueService {
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  /** Blocking connections of the workers (BullMQ does not close connections it is given). */
  private readonly workerConnections: Redis[] = [];
  private readonly connection: Redis;
  /** Counts of queues managed outside this service (e.g. one queue per platform), by name. */
  private readonly countSources = new Map<string, () => Promise<Record<string, number>>>();

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
    readonly workersEnabled: boolean,
  ) {
    // Producers' commands issued in one turn (a reactor batch's cancels) leave in one write: a
    // Redis round trip costs more CPU here than the command itself.
    // While Redis is down, a producer's command fails after the next failed reconnect instead of
    // waiting for Redis in the offline queue: a reactor then retries its batch with backoff, a
    // request answers 503 (src/infra/http/dependency-errors.ts), health answers at once.
    this.connection = new IORedis(redisUrl, {
      maxRetriesPerRequest: PRODUCER_MAX_RETRIES_PER_REQUEST,
      enableReadyCheck: false,
      enableAutoPipelining: true,
      retryStrategy: reconnectDelayMs,
    });
    this.connection.on('error', (error) => logger.warn('redis connection error', { error: String(error) }));
  }

  redis(): Redis {
    return this.connection;
  }

  /**
   * Whether the producers' connection to Redis is up (no round trip: ioredis's own state). Writes
   * whose effects run through tasks, reactors or webhooks are refused while it is not
   * (src/infra/http/dependency-guard.ts).
   */
  isRedisReady(): boolean {
    return this.connection.status === 'ready';
  }

  /** Resolves true once the connection is up, at once when it is; false after `timeoutMs`. */
  redisReadyWithin(timeoutMs: number): Promise<boolean> {
    if (this.isRedisReady()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ready: boolean) => {
        clearTimeout(timer);
        this.connection.removeListener('ready', onReady);
        resolve(ready);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(this.isRedisReady()), timeoutMs);
      this.connection.once('ready', onReady);
    });
  }

  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      // Without a listener BullMQ prints each connection error raw to stderr (Redis restarting).
      queue.on('error', (error) => logger.warn('queue error', { queue: name, error: String(error) }));
      this.queues.set(name, queue);
    }
    return queue;
  }

  async add<T>(queueName: string, jobName: string, data: T, options: JobsOptions = {}): Promise<void> {
    await this.queue(queueName).add(jobName, data, { removeOnComplete: 1000, removeOnFail: 5000, ...options });
  }

  /** Registers a worker when this process runs the worker role; otherwise does nothing. */
  worker<T>(name: string, processor: Processor<T>, options: Partial<WorkerOptions> = {}): Worker<T> | null {
    if (!this.workersEnabled) return null;
    // BullMQ's blocking connection must wait out an outage (maxRetriesPerRequest null): the worker
    // resumes by itself once Redis is back.
    const connection = new IORedis(this.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: false, retryStrategy: reconnectDelayMs });
    connection.on('error', (error) => logger.warn('redis worker connection error', { error: String(error) }));
    this.workerConnections.push(connection);
    const worker = new Worker<T>(name, processor, {
      connection,
      prefix: this.prefix,
      concurrency: 16,
      ...options,
    });
    worker.on('failed', (job: Job<T> | undefined, error: Error) =>
      logger.warn('job failed', { queue: name, jobId: job?.id, attempts: job?.attemptsMade, error: error.message }),
    );
    worker.on('error', (error) => logger.warn('worker error', { queue: name, error: String(error) }));
    this.workers.push(worker as Worker);
    return worker;
  }

  /**
   * Adds a named entry to counts() for queues this service does not create itself, so health
   * shows them in every role (an api-only process never touches those queues).
   */
  registerCounts(name: string, source: () => Promise<Record<string, number>>): void {
    this.countSources.set(name, source);
  }

  async counts(): Promise<Record<string, Record<string, number>>> {
    const result: Record<string, Record<string, number>> = {};
    for (const [name, queue] of this.queues) {
      result[name] = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
    }
    for (const [name, source] of this.countSources) result[name] = await source();
    return result;
  }

  /**
   * Stops the workers (letting active jobs finish), then the queues, each step bounded: with
   * Redis down, BullMQ's close would wait for it. A job cut short is run again (at least once).
   */
  async close(): Promise<void> {
    const closed = await settleWithin(Promise.allSettled(this.workers.map((worker) => worker.close())), CLOSE_STEP_TIMEOUT_MS);
    if (!closed) {
      logger.warn('queue workers did not close in time; forcing them', { timeoutMs: CLOSE_STEP_TIMEOUT_MS });
      await settleWithin(Promise.allSettled(this.workers.map((worker) => worker.close(true))), CLOSE_FORCE_TIMEOUT_MS);
    }
    await settleWithin(Promise.allSettled([...this.queues.values()].map((queue) => queue.close())), CLOSE_FORCE_TIMEOUT_MS);
    for (const connection of this.workerConnections) connection.disconnect();
    this.connection.disconnect();
  }
}

/** How many failed reconnects a producer's command waits through before it fails. */
const PRODUCER_MAX_RETRIES_PER_REQUEST = 1;
/** How long close() lets workers finish their active jobs. */
const CLOSE_STEP_TIMEOUT_MS = 3_000;
/** How long the forced close of workers, and the close of queues, may take. */
const CLOSE_FORCE_TIMEOUT_MS = 1_000;
/** Redis connections try again 100 ms after a failed connect, growing to at most a second. */
export function reconnectDelayMs(attempts: number): number {
  return Math.min(attempts * 100, 1_000);
}

/** Whether `promise` settled within `ms` (it is left running otherwise). */
export async function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** `Quote:0195...` + `settle` -> `Quote_0195..._settle` (BullMQ forbids ':' in custom ids). */
export function jobIdFor(...parts: string[]): string {
  return parts.join('_').replace(/:/g, '_');
}
