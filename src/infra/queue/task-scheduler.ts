import { Job } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { logger } from '../logger';
import { runWithContext } from '../request-context';
import { QueueService, jobIdFor } from './queue.service';

/** One BullMQ queue carries every delayed domain task (settlement, expiry, lapsed challenges). */
export const TASK_QUEUE = 'tasks';

export interface TaskPayload {
  /** The business key the task acts on, e.g. `Quote:<uuid>`. */
  subjectId: string;
  /** Platform the subject belongs to (copied into the metadata of events the task appends). */
  platformId: string | null;
  /** Correlation id of the flow that scheduled the task, so its events join the same story. */
  correlationId: string;
  /** Id of the event that caused the task. */
  causationId: string;
  [extra: string]: unknown;
}

/**
 * How long a running task's lock lasts (renewed at half of it while the task runs). A task left
 * active by a process that died (kill -9, a crash) runs again once the lock has lapsed and the
 * next stalled-jobs check saw it: within about 15 s instead of BullMQ's default minute, so a
 * settlement cut short by a crash does not hold a quote PROCESSING for long.
 */
export const TASK_LOCK_DURATION_MS = 10_000;
export const TASK_STALLED_INTERVAL_MS = 5_000;
/**
 * BullMQ fails a job stalled more often than this for good; a task only stalls because a process
 * died or lost Redis under it, and must then run again (handlers are idempotent), never be failed.
 */
const TASK_MAX_STALLED_COUNT = 1_000;

/**
 * Runs when a task fires. It must re-read the subject's state and do nothing when the step is
 * already done or no longer applies: tasks run at least once (a retry, a reactor replay, a
 * second scheduling with the same key are all normal).
 */
export type TaskHandler = (payload: TaskPayload, job: Job<TaskPayload>) => Promise<void>;

/**
 * Delayed domain work: a reactor schedules a task from a stored event (so a crash before the
 * schedule replays it), BullMQ keeps it in Redis (AOF, noeviction) until it is due, and a worker
 * runs the registered handler. The job id is derived from (task name, key), so scheduling the
 * same step twice keeps one job.
 */
export class TaskScheduler {
  private readonly handlers = new Map<string, TaskHandler>();
  private started = false;

  constructor(private readonly queues: QueueService) {}

  /** Registers the handler of a task name; call from a module's onModuleInit. */
  register(taskName: string, handler: TaskHandler): void {
    if (this.handlers.has(taskName)) throw new Error(`Task ${taskName} is registered twice`);
    this.handlers.set(taskName, handler);
  }

  /**
   * Schedules `taskName` for `key` after `delayMs`. `key` names the step (e.g. the subject id and
   * the step), so the same step scheduled again is one job. Failed runs retry with backoff.
   */
  async schedule(taskName: string, key: string, delayMs: number, payload: TaskPayload): Promise<void> {
    await this.queues.add(TASK_QUEUE, taskName, payload, {
      jobId: jobIdFor(taskName, key),
      delay: Math.max(0, Math.round(delayMs)),
      attempts: 20,
      backoff: { type: 'exponential', delay: 200 },
    });
  }

  /**
   * Schedules several tasks in one round trip to Redis (e.g. everything one reactor batch
   * causes); each is exactly what `schedule` would add, deduplicated by the same job id.
   */
  async scheduleMany(tasks: Array<{ taskName: string; key: string; delayMs: number; payload: TaskPayload }>): Promise<void> {
    if (tasks.length === 0) return;
    await this.queues.queue(TASK_QUEUE).addBulk(
      tasks.map((task) => ({
        name: task.taskName,
        data: task.payload,
        opts: {
          jobId: jobIdFor(task.taskName, task.key),
          delay: Math.max(0, Math.round(task.delayMs)),
          attempts: 20,
          backoff: { type: 'exponential', delay: 200 },
          removeOnComplete: 1000,
          removeOnFail: 5000,
        },
      })),
    );
  }

  /**
   * Drops a scheduled task that no longer applies (e.g. the expiry of a quote already executed),
   * so it costs nothing when it would have fired. Best effort: a task already running, or one
   * cancelled too late, still runs and must no-op as every handler does.
   */
  async cancel(taskName: string, key: string): Promise<void> {
    await this.queues.queue(TASK_QUEUE).remove(jobIdFor(taskName, key)).catch(() => 0);
  }

  /** Starts the worker where this process runs the worker role (after every module registered). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.queues.worker<TaskPayload>(TASK_QUEUE, (job) => this.run(job), {
      lockDuration: TASK_LOCK_DURATION_MS,
      stalledInterval: TASK_STALLED_INTERVAL_MS,
      maxStalledCount: TASK_MAX_STALLED_COUNT,
    });
  }

  private async run(job: Job<TaskPayload>): Promise<void> {
    const handler = this.handlers.get(job.name);
    if (!handler) {
      logger.error('no handler for task', { task: job.name, jobId: job.id });
      throw new Error(`No handler for task ${job.name}`);
    }
    const payload = job.data;
    await runWithContext(
      {
        requestId: randomUUID(),
        correlationId: payload.correlationId,
        causationId: payload.causationId,
        platformId: payload.platformId,
        actor: `system:task:${job.name}`,
        idempotencyKey: null,
        lastPosition: null,
      },
      () => handler(payload, job),
    );
  }
}
