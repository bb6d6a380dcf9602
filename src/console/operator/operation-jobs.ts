import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { EVENT_STORE, EventStore, START_POSITION } from '../../infra/event-store/event-store.port';
import { ApiError } from '../../infra/http/api-error';
import { newId } from '../../infra/ids';
import { logger } from '../../infra/logger';
import { PG_POOL } from '../../infra/postgres/pool';
import { PROJECTIONS, Projection } from '../../infra/projections/projection';
import { RebuildProgress, rebuildProjection, verifyProjection } from '../../infra/projections/projection-rebuild';

export const JOB_KINDS = ['rebuild', 'verify'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/**
 * An operator's rebuild or verification of one projection.
 * @example { "id": "Job:01933b5e-8f4c-7d6e-9a1b-2c3d4e5f6a7b", "kind": "rebuild", "projection": "quotes", "status": "SUCCEEDED", "progress": { "done": 48213, "total": 48213 }, "startedAt": "2025-11-03T14:22:30.120Z", "finishedAt": "2025-11-03T14:22:41.870Z", "result": { "eventsApplied": 9120 } }
 */
export interface OperationJob {
  id: string;
  kind: JobKind;
  projection: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  /** Events replayed, of the events in the log when the job started (done can pass it as the log grows). */
  progress: { done: number; total: number };
  startedAt: string;
  finishedAt?: string;
  /** A rebuild: the events its projection applied. A verification: rows that differ between the log's replay and the live tables (0: none). */
  result?: { differences?: number; eventsApplied?: number };
  error?: string;
}

/** Finished jobs kept for the operations page, per process; the oldest go first. */
const FINISHED_JOBS_KEPT = 50;
/** Counting the log for a job's total stops here (the progress bar is then an estimate). */
const TOTAL_COUNT_CAP = 10_000_000;
/** How long a shutdown waits for running jobs; a rebuild cut short leaves nothing live behind. */
const SHUTDOWN_WAIT_MS = 5_000;

/**
 * Runs rebuilds and verifications in the api process that was asked, in the background, and keeps
 * their progress in memory: a job is seen (and polled) on that process only. One rebuild per
 * projection at a time: here by the running jobs, across processes by the rebuild's own lock
 * (the second then fails with "already running").
 */
@Injectable()
export class OperationJobs implements BeforeApplicationShutdown {
  private readonly jobs = new Map<string, OperationJob>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projection[],
  ) {}

  /** Starts a job at once (its first progress follows); 409 while a rebuild of that projection runs here. */
  start(kind: JobKind, projectionName: string): OperationJob {
    const projection = this.projections.find((candidate) => candidate.name === projectionName);
    if (!projection) throw new Error(`unknown projection ${projectionName}`);
    if (kind === 'rebuild' && this.list().some((job) => job.kind === 'rebuild' && job.projection === projectionName && job.status === 'RUNNING')) {
      throw new ApiError('CONFLICT', `A rebuild of ${projectionName} is already running`);
    }
    const job: OperationJob = { id: newId('Job'), kind, projection: projectionName, status: 'RUNNING', progress: { done: 0, total: 0 }, startedAt: new Date().toISOString() };
    this.jobs.set(job.id, job);
    const run = this.run(job, projection).finally(() => this.running.delete(run));
    this.running.add(run);
    this.forgetOldJobs();
    return snapshot(job);
  }

  find(id: string): OperationJob | null {
    const job = this.jobs.get(id);
    return job ? snapshot(job) : null;
  }

  /** Newest first. */
  list(): OperationJob[] {
    return [...this.jobs.values()].reverse().map(snapshot);
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_WAIT_MS)));
    await Promise.race([Promise.allSettled([...this.running]), timeout]).finally(() => clearTimeout(timer));
  }

  private async run(job: OperationJob, projection: Projection): Promise<void> {
    try {
      job.progress.total = await this.store.countEventsAfter(START_POSITION, TOTAL_COUNT_CAP);
      const onProgress = (progress: RebuildProgress) => {
        job.progress.done = progress.eventsRead;
        job.progress.total = Math.max(job.progress.total, progress.eventsRead);
      };
      if (job.kind === 'rebuild') {
        const result = await rebuildProjection(this.pool, this.store, projection, onProgress);
        finish(job, result.eventsRead, { eventsApplied: result.eventsApplied });
      } else {
        const result = await verifyProjection(this.pool, this.store, projection, onProgress);
        const differences = result.differences.reduce((sum, table) => sum + table.missingFromLive + table.extraInLive, 0);
        finish(job, result.eventsReplayed, { differences });
      }
      logger.info('operator job finished', { jobId: job.id, kind: job.kind, projection: job.projection, result: job.result });
    } catch (error) {
      job.status = 'FAILED';
      job.error = error instanceof Error ? error.message : String(error);
      job.finishedAt = new Date().toISOString();
      logger.warn('operator job failed', { jobId: job.id, kind: job.kind, projection: job.projection, error: job.error });
    }
  }

  private forgetOldJobs(): void {
    const finished = [...this.jobs.values()].filter((job) => job.status !== 'RUNNING');
    for (const job of finished.slice(0, Math.max(0, finished.length - FINISHED_JOBS_KEPT))) this.jobs.delete(job.id);
  }
}

function finish(job: OperationJob, eventsRead: number, result: NonNullable<OperationJob['result']>): void {
  // Complete: a verification stops at the live checkpoint, short of the count taken at the start.
  job.progress = { done: eventsRead, total: eventsRead };
  job.result = result;
  job.status = 'SUCCEEDED';
  job.finishedAt = new Date().toISOString();
}

/** A copy: the running job goes on changing its own. */
function snapshot(job: OperationJob): OperationJob {
  return { ...job, progress: { ...job.progress }, ...(job.result ? { result: { ...job.result } } : {}) };
}
