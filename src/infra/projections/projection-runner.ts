import { Pool } from 'pg';
import { EventStore, Position, START_POSITION } from '../event-store/event-store.port';
import { logger } from '../logger';
import { CHECKPOINT_DDL, readCheckpoints, writeCheckpoint } from './checkpoints';
import { ReportedProgress } from './in-process-read-model-waiter';
import { LIVE_TABLES, Projection, Reactor } from './projection';
import { ProjectionBatches } from './projection-batches';
import { createProjectionTables, rebuildProjection } from './projection-rebuild';
import { ProjectionStates } from './projection-states';
import { ProjectorLoop } from './projector-loop';
import { runReactorLoop } from './reactor-loop';
import { RecentEvents } from './recent-events';
import { SharedReads } from './shared-reads';
import { Wakes } from './wakes';

/** Reactors read the log at most this many events at a time (so does a caught-up projector). */
const REACTOR_BATCH_SIZE = 200;
/**
 * The fallback poll where every appender is in this process (all roles in one process, or the
 * projector thread woken by its main thread): each append wakes the projector and the reactors
 * already, so the poll only covers appends made outside the service (a script, another process
 * against the same database), which then show within this long.
 */
export const IN_PROCESS_POLL_INTERVAL_MS = 250;

export interface ProjectionRunnerOptions {
  batchSize?: number;
  /** Fallback poll for appends made by other processes (default 25 ms). */
  pollIntervalMs?: number;
  /** First retry delay of a failing projection or reactor; doubles up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /**
   * NOTIFY PROJECTIONS_ADVANCED_CHANNEL in every batch transaction that moves the projections, so
   * read-your-writes waiters in api processes without a projector wake on commit instead of
   * polling (NotifiedReadModelWaiter). Off where every api request is served by this process.
   */
  notifyProgress?: boolean;
}

/** What the runner needs of the application's event store service. */
export interface AppendFeed {
  readonly store: EventStore;
  /** Calls `listener` after every append made through this process's service. */
  onAppended(listener: (position: Position) => void): () => void;
  /** The latest position this process knows was appended (its own, or told by another thread). */
  latestAppendedPosition(): Position | null;
}

/**
 * Runs every projection from its checkpoint (read-model SQL and checkpoints committed in one
 * transaction per batch) and every reactor from its own checkpoint (at least once). Restart-safe:
 * a crash loses at most an uncommitted batch, which is read again.
 *
 * A projection that fails on an event stops right before it (its checkpoint says so, with the
 * error, in projection_checkpoints.last_error) while the others go on; it is retried with
 * backoff, on its own, and rejoins them once it has caught up. Read-your-writes waits only for
 * healthy projections: a failing one is stale, and /health says so.
 *
 * The parts, one mechanism each: ProjectorLoop (projector-loop.ts) and runReactorLoop
 * (reactor-loop.ts); Wakes (wake-ups on appends, the reactors' coalesced); RecentEvents (the
 * reactors read what the projector just read) and SharedReads (one log read for the loops at the
 * same position); ProjectionBatches with sendPipelinedBatch (batches in one round trip, back to
 * back); ProjectionStates (failing projections and their retries); ReportedProgress (the
 * progress, and the read-your-writes waits on it).
 */
export class ProjectionRunner {
  private readonly batchSize: number;
  private readonly reactorBatchSize: number;
  private readonly pollIntervalMs: number;
  private running = false;
  private readonly loops: Promise<void>[] = [];
  private readonly reported = new ReportedProgress();
  private readonly wakes = new Wakes();
  private readonly recent = new RecentEvents();
  private readonly reads: SharedReads;
  private readonly states: ProjectionStates;
  private readonly batches: ProjectionBatches;
  private readonly delays: { retryDelayMs: number; maxRetryDelayMs: number };
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly events: AppendFeed,
    private readonly projections: Projection[],
    private readonly reactors: Reactor[],
    options: ProjectionRunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 1000;
    this.reactorBatchSize = Math.min(this.batchSize, REACTOR_BATCH_SIZE);
    this.pollIntervalMs = options.pollIntervalMs ?? 25;
    this.delays = { retryDelayMs: options.retryDelayMs ?? 200, maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000 };
    this.reads = new SharedReads(events, this.wakes, this.recent);
    this.states = new ProjectionStates(projections, this.delays);
    this.batches = new ProjectionBatches(pool, events, this.states, this.batchSize, options.notifyProgress ?? false);
  }

  /** Creates missing read models and rebuilds those whose version changed. */
  async prepare(): Promise<void> {
    await this.pool.query(CHECKPOINT_DDL);
    const client = await this.pool.connect();
    try {
      await client.query(`SELECT pg_advisory_lock(hashtext('projections:prepare'))`);
      const checkpoints = await readCheckpoints(client);
      for (const projection of this.projections) {
        const checkpoint = checkpoints.get(projection.name);
        if (!checkpoint) {
          await createProjectionTables(client, projection, LIVE_TABLES);
          await writeCheckpoint(client, projection.name, 'projection', projection.version, START_POSITION, 0, true);
        } else if (checkpoint.version !== projection.version) {
          logger.info('projection version changed: rebuilding', { projection: projection.name });
          await rebuildProjection(this.pool, this.events.store, projection);
        }
      }
      for (const reactor of this.reactors) {
        if (!checkpoints.has(reactor.name)) {
          await writeCheckpoint(client, reactor.name, 'reactor', 1, START_POSITION, 0, true);
        }
      }
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtext('projections:prepare'))`).catch(() => undefined);
      client.release();
    }
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.wakes.start();
    // In-process appends, and (where the store reports them) appends of other processes, e.g. an
    // api process's, which would otherwise wait for the poll.
    const fromHere = this.events.onAppended(() => this.wakes.appended());
    const fromElsewhere = this.events.store.onAppendedElsewhere?.(() => this.wakes.appended());
    this.unsubscribe = () => {
      fromHere();
      fromElsewhere?.();
    };
    const running = () => this.running;
    if (this.projections.length > 0) {
      const projector = new ProjectorLoop({
        pool: this.pool,
        events: this.events,
        states: this.states,
        batches: this.batches,
        wakes: this.wakes,
        reads: this.reads,
        recent: this.recent,
        batchSize: this.batchSize,
        caughtUpBatchSize: this.reactorBatchSize,
        pollIntervalMs: this.pollIntervalMs,
        report: (position) => this.reported.report(position),
        running,
      });
      this.loops.push(projector.run());
    }
    const reactorParts = {
      pool: this.pool,
      events: this.events,
      wakes: this.wakes,
      reads: this.reads,
      batchSize: this.reactorBatchSize,
      pollIntervalMs: this.pollIntervalMs,
      delays: this.delays,
      running,
    };
    for (const reactor of this.reactors) this.loops.push(runReactorLoop(reactor, reactorParts));
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.wakes.stop();
    await Promise.allSettled(this.loops);
    this.loops.length = 0;
    await this.batches.dropConnection();
    this.reported.cancelWaits();
  }

  /** Position up to which every healthy projection has committed (in this process). */
  progress(): Position {
    return this.reported.current();
  }

  /** Projections stuck on an event, with the error (in this process). */
  failingProjections(): Array<{ name: string; error: string; attempts: number }> {
    return this.states.failing();
  }

  /** Resolves true once all healthy projections include `position`, false after the timeout. */
  waitForPosition(position: Position, timeoutMs: number): Promise<boolean> {
    if (this.projections.length === 0) return Promise.resolve(true);
    return this.reported.waitFor(position, timeoutMs);
  }

  /** Calls `listener` with every new `progress()`; returns the unsubscribe. */
  onProgress(listener: (position: Position) => void): () => void {
    return this.reported.onReport(listener);
  }
}
