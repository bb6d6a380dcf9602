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
    this.connection = new IORedis(redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: false, enableAutoPipelining: true });
    this.connection.on('error', (error) => logger.warn('redis connection error', { error: String(error) }));
  }

  redis(): Redis {
    return this.connection;
  }

  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
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
    const connection = new IORedis(this.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: false });
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

  async close(): Promise<void> {
    await Promise.allSettled(this.workers.map((worker) => worker.close()));
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
    for (const connection of this.workerConnections) connection.disconnect();
    this.connection.disconnect();
  }
}

/** `Quote:0195...` + `settle` -> `Quote_0195..._settle` (BullMQ forbids ':' in custom ids). */
export function jobIdFor(...parts: string[]): string {
  return parts.join('_').replace(/:/g, '_');
}
