import { Client, Pool } from 'pg';
import { Position, RecordedEvent, START_POSITION, comparePositions, positionToString } from '../event-store/event-store.port';
import { EventStoreService } from '../event-store/event-store.service';
import { logger } from '../logger';
import { corkUntilIdle } from '../postgres/pool';
import { runWithContext } from '../request-context';
import { CHECKPOINT_DDL, NOTIFY_PROGRESS_SQL, lockKeyFor, readCheckpoints, writeCheckpoint } from './checkpoints';
import { LIVE_TABLES, PipelinedProjectionTransaction, Projection, Reactor, connectPipelined } from './projection';
import { applyToProjection, describeError } from './projection-apply';
import { createProjectionTables, rebuildProjection } from './projection-rebuild';
import { PositionWaits } from './position-waits';

/** How often a reactor whose batches it does not handle still moves its checkpoint. */
const REACTOR_IDLE_CHECKPOINT_MS = 1000;
/**
 * How often a busy reactor records its checkpoint. Its effects are idempotent (at least once), so
 * after a crash it only reacts again, harmlessly, to what it did since; a checkpoint write per
 * batch under load costs a round trip per reactor per append.
 */
const REACTOR_BUSY_CHECKPOINT_MS = 250;
/**
 * How soon a reactor records where it stopped once the log goes quiet: no events for this long
 * (not merely an empty read, which a steady trickle of appends makes happen between every two).
 */
const REACTOR_QUIET_CHECKPOINT_MS = 100;
/** Reactors read the log at most this many events at a time (so does a caught-up projector). */
const REACTOR_BATCH_SIZE = 200;
/**
 * Reactors wake at most once per this many milliseconds for in-process appends (the projector
 * wakes at once: read-your-writes answers wait on it). A flow of a few appends in quick
 * succession then costs each reactor one read (shared by every reactor at the same position)
 * instead of one per append; reactor effects are delayed work anyway. Over 20 ms rather than 5,
 * a quote executed right after its creation often lands in the same batch, so its expiry task is
 * never scheduled (nor removed again): 6-14% less CPU per quote flow at 100 flows/s
 * (bench/RESULTS.md), for webhooks and tasks up to 15 ms later.
 */
export const REACTOR_WAKE_COALESCE_MS = 20;
/**
 * The fallback poll where every appender is in this process (all roles in one process, or the
 * projector thread woken by its main thread): each append wakes the projector and the reactors
 * already, so the poll only covers appends made outside the service (a script, another process
 * against the same database), which then show within this long.
 */
export const IN_PROCESS_POLL_INTERVAL_MS = 250;
/** How many of the events the projector read last are kept for the reactors to read from memory. */
const RECENT_EVENTS_LIMIT = 2000;

export interface ProjectionRunnerOptions {
  batchSize?: number;
  /** Fallback poll for appends made by other processes (default 25 ms). */
  pollIntervalMs?: number;
  /** First retry delay of a failing projection or reactor; doubles up to maxRetryDelayMs. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Reactor wake-ups on in-process appends are coalesced over this window (0: one per append). */
  reactorWakeCoalesceMs?: number;
  /**
   * NOTIFY PROJECTIONS_ADVANCED_CHANNEL in every batch transaction that moves the projections, so
   * read-your-writes waiters in api processes without a projector wake on commit instead of
   * polling (NotifiedReadModelWaiter). Off where every api request is served by this process.
   */
  notifyProgress?: boolean;
}

/** A log read reactor loops share while it is in flight. */
interface SharedRead {
  events: Promise<RecordedEvent[]>;
  /** The reactor wake-up count when the read started. */
  wakes: number;
  /** The projector wake-up count when the read started. */
  projectorWakes: number;
}

/** A projection's place in the runner. */
interface ProjectionState {
  projection: Projection;
  types: ReadonlySet<string>;
  /** Last position committed for it (as far as this process knows). */
  position: Position;
  /** Set while it is stuck on an event: it is retried on its own, away from the others. */
  failure: { message: string; attempts: number; retryAt: number } | null;
  /**
   * The checkpoint row as this process last committed or read it under the projection's lock,
   * or null when unknown. The one-round-trip batch assumes the row still says this.
   */
  stored: Position | null;
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
 */
export class ProjectionRunner {
  private readonly batchSize: number;
  private readonly reactorBatchSize: number;
  private readonly pollIntervalMs: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private running = false;
  private readonly loops: Promise<void>[] = [];
  private projectionProgress: Position = START_POSITION;
  private readonly waiters = new PositionWaits();
  /** Told of every advance of `progress()` (the projector thread reports it to its process's api). */
  private readonly progressListeners = new Set<(position: Position) => void>();
  /** The projector's idle wait: woken by every in-process append. */
  private readonly projectorListeners = new Set<() => void>();
  /** Idle reactor loops: woken together, at most once per coalescing window. */
  private readonly reactorListeners = new Set<() => void>();
  private readonly reactorWakeCoalesceMs: number;
  private readonly notifyProgress: boolean;
  private reactorWakeTimer: NodeJS.Timeout | null = null;
  /**
   * How many reactor wake-ups there have been. A reactor loop compares it with the count when the
   * read it used started: a wake-up since means an append the read may have missed.
   */
  private reactorWakes = 0;
  /** How many projector wake-ups there have been (see `reactorWakes`). */
  private projectorWakes = 0;
  private unsubscribe: (() => void) | null = null;
  private states: ProjectionState[] = [];
  /** The pipelined connection projection batches write through. */
  private connection: Client | null = null;
  private readonly reactorReads = new Map<string, SharedRead>();
  /**
   * The log as the projector last read it: the events right after `after`, contiguous and in
   * order. Each read of the log answers every event after its position visible to all (a prefix
   * that only grows), so a reactor whose position falls inside gets from here exactly what a read
   * of its own would have answered a moment ago.
   */
  private recent: { after: Position; events: RecordedEvent[] } | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly events: EventStoreService,
    private readonly projections: Projection[],
    private readonly reactors: Reactor[],
    options: ProjectionRunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 1000;
    this.reactorBatchSize = Math.min(this.batchSize, REACTOR_BATCH_SIZE);
    this.pollIntervalMs = options.pollIntervalMs ?? 25;
    this.retryDelayMs = options.retryDelayMs ?? 200;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.reactorWakeCoalesceMs = options.reactorWakeCoalesceMs ?? REACTOR_WAKE_COALESCE_MS;
    this.notifyProgress = options.notifyProgress ?? false;
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
    // In-process appends, and (where the store reports them) appends of other processes, e.g. an
    // api process's, which would otherwise wait for the poll.
    const fromHere = this.events.onAppended(() => this.onAppended());
    const fromElsewhere = this.events.store.onAppendedElsewhere?.(() => this.onAppended());
    this.unsubscribe = () => {
      fromHere();
      fromElsewhere?.();
    };
    if (this.projections.length > 0) this.loops.push(this.runProjectionLoop());
    for (const reactor of this.reactors) this.loops.push(this.runReactorLoop(reactor));
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    if (this.reactorWakeTimer) clearTimeout(this.reactorWakeTimer);
    this.reactorWakeTimer = null;
    this.wakeAll();
    await Promise.allSettled(this.loops);
    this.loops.length = 0;
    await this.dropConnection();
    this.waiters.cancelAll();
  }

  /** Position up to which every healthy projection has committed (in this process). */
  progress(): Position {
    return this.projectionProgress;
  }

  /** Projections stuck on an event, with the error (in this process). */
  failingProjections(): Array<{ name: string; error: string; attempts: number }> {
    return this.states
      .filter((state) => state.failure !== null)
      .map((state) => ({ name: state.projection.name, error: state.failure!.message, attempts: state.failure!.attempts }));
  }

  /** Resolves true once all healthy projections include `position`, false after the timeout. */
  waitForPosition(position: Position, timeoutMs: number): Promise<boolean> {
    if (this.projections.length === 0 || comparePositions(this.projectionProgress, position) >= 0) {
      return Promise.resolve(true);
    }
    return this.waiters.wait(position, timeoutMs);
  }

  /** Calls `listener` with every new `progress()`; returns the unsubscribe. */
  onProgress(listener: (position: Position) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  private advanceProgress(position: Position): void {
    this.projectionProgress = position;
    for (const listener of this.progressListeners) listener(position);
    this.waiters.resolveUpTo(position);
  }

  /** An in-process append: the projector now, the reactors once the coalescing window ends. */
  private onAppended(): void {
    this.projectorWakes++;
    wake(this.projectorListeners);
    if (this.reactorWakeCoalesceMs <= 0) {
      this.wakeReactors();
      return;
    }
    this.reactorWakeTimer ??= setTimeout(() => this.wakeReactors(), this.reactorWakeCoalesceMs);
  }

  private wakeReactors(): void {
    if (this.reactorWakeTimer) clearTimeout(this.reactorWakeTimer);
    this.reactorWakeTimer = null;
    this.reactorWakes++;
    wake(this.reactorListeners);
  }

  private wakeAll(): void {
    this.projectorWakes++;
    wake(this.projectorListeners);
    wake(this.reactorListeners);
  }

  /** Sleeps until an in-process append wakes `listeners`, the delay, or stop(). */
  private idle(delayMs: number, listeners: Set<() => void> = this.projectorListeners): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        listeners.delete(done);
        resolve();
      };
      const timer = setTimeout(done, delayMs);
      listeners.add(done);
    });
  }

  /**
   * A caught-up reactor loop waits for the next reactor wake-up, unless one came since the read it
   * used started (that read may predate the append). An append known here but not yet visible to
   * that read (an older concurrent transaction holds back the snapshot) is retried soon, as the
   * projector does, once no wake-up is pending for it; the poll covers other processes.
   */
  private idleReactor(from: Position, readWakes: number): Promise<void> {
    if (readWakes !== this.reactorWakes) return Promise.resolve();
    const latest = this.events.latestAppendedPosition();
    const unseen = latest !== null && comparePositions(latest, from) > 0 && this.reactorWakeTimer === null;
    return this.idle(unseen ? 2 : this.pollIntervalMs, this.reactorListeners);
  }

  /**
   * When an append is known to be past our position but invisible yet (an older concurrent
   * transaction still holds back the snapshot xmin), retry quickly instead of a full poll.
   */
  private nextDelay(from: Position): number {
    return this.appendedPast(from) ? 2 : this.pollIntervalMs;
  }

  /** Whether this process knows of an append past `from`. */
  private appendedPast(from: Position): boolean {
    const latest = this.events.latestAppendedPosition();
    return latest !== null && comparePositions(latest, from) > 0;
  }

  private retryDelay(attempts: number): number {
    return Math.min(this.maxRetryDelayMs, this.retryDelayMs * 2 ** Math.min(attempts - 1, 20));
  }

  private async pipelinedConnection(): Promise<Client> {
    if (this.connection) return this.connection;
    const connection = await connectPipelined(this.pool, (error) => {
      logger.warn('projection connection lost', { error: describeError(error) });
      if (this.connection === connection) void this.dropConnection();
    });
    // A batch's read-model rows and checkpoint commit together, and the events they come from
    // are durable already: if a crash loses the last commits, the projector applies those
    // events again from the older checkpoint. Waiting for the disk on each batch would only
    // delay every read-your-writes answer.
    await connection.query('SET synchronous_commit = off');
    this.connection = connection;
    return connection;
  }

  private async dropConnection(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    await connection?.end().catch(() => undefined);
  }

  private async runProjectionLoop(): Promise<void> {
    let from = START_POSITION;
    /** Where the batches sent so far have committed; `from` is ahead while one is in flight. */
    let committed = START_POSITION;
    let initialised = false;
    let failures = 0;
    let prefetched: Promise<RecordedEvent[]> | null = null;
    let behind = true;
    let inFlight: { outcome: Promise<boolean>; last: Position } | null = null;
    /** Waits for the batch in flight, if any; false when it rolled back. */
    const land = async (): Promise<boolean> => {
      const flight = inFlight;
      inFlight = null;
      if (!flight) return true;
      if (!(await flight.outcome)) return false;
      committed = flight.last;
      this.advanceProgress(committed);
      return true;
    };
    /** After a batch in flight rolled back: read again from where the log is committed. */
    const rewind = () => {
      from = committed;
      prefetched = null;
      behind = true;
    };
    while (this.running) {
      try {
        if (!initialised) {
          const checkpoints = await readCheckpoints(this.pool, this.projections.map((projection) => projection.name));
          // Resuming after a failed batch: a projection stuck on an event keeps its retry state.
          const failures = new Map(this.states.map((state) => [state.projection.name, state.failure]));
          this.states = this.projections.map((projection) => ({
            projection,
            types: new Set(projection.handles),
            position: checkpoints.get(projection.name)?.position ?? START_POSITION,
            failure: failures.get(projection.name) ?? null,
            stored: null,
          }));
          from = minPosition(this.states.map((state) => state.position));
          committed = from;
          this.advanceProgress(from);
          initialised = true;
        }
        await this.retryFailingProjections(from);
        // Caught up, the projector wakes on each append (reactors only once per coalescing
        // window) and shares a read in flight from its position, if any. Behind, it reads full
        // batches and the next one ahead.
        // The projector wake-up count when this read started (null for a read started ahead).
        let readWakes: number | null = null;
        let read: Promise<RecordedEvent[]>;
        if (prefetched) {
          read = prefetched;
        } else if (behind) {
          readWakes = this.projectorWakes;
          read = this.events.store.readAll({ from, limit: this.batchSize });
        } else {
          const shared = this.sharedReadAll(from, this.reactorBatchSize);
          readWakes = shared.projectorWakes;
          read = shared.events;
        }
        const batch: RecordedEvent[] = await read;
        this.rememberRead(from, batch);
        prefetched = null;
        behind = batch.length === (behind ? this.batchSize : this.reactorBatchSize);
        if (batch.length === 0) {
          if (!(await land())) {
            rewind();
            continue;
          }
          await this.idle(Math.min(this.nextDelay(from), this.untilNextRetryMs()));
          continue;
        }
        const last = batch[batch.length - 1].position;
        const catchingUp = batch.length === this.batchSize;
        if (catchingUp) {
          // Catching up: read the next batch while this one is applied.
          prefetched = this.events.store.readAll({ from: last, limit: this.batchSize });
          prefetched.catch(() => undefined);
        }
        const healthy = this.states.filter((state) => state.failure === null);
        // Caught up, batches stay one at a time: one always queued behind the other would hold
        // the projections' locks without a gap, and a rebuild's swap waits for a gap.
        if (catchingUp && healthy.length === this.states.length && healthy.every((state) => state.stored !== null)) {
          // Catching up, every projection healthy: this batch goes on the wire behind the one in
          // flight, so Postgres works on one while this process prepares the next.
          const sent = await this.sendBatchInOneRoundTrip(batch, healthy);
          const landed = await land();
          inFlight = { outcome: sent.outcome, last };
          if (!landed) {
            await land();
            rewind();
            continue;
          }
          from = last;
          failures = 0;
          continue;
        }
        if (!(await land())) {
          rewind();
          continue;
        }
        await this.applyBatch(batch, healthy);
        from = last;
        committed = last;
        this.advanceProgress(from);
        failures = 0;
        // Caught up (the read was not full), with no append since it started that it may have
        // missed: the read after it would come back empty, so wait for the next wake-up (or the
        // poll) now. An append known to be past `from` is read at once, as after an empty read.
        if (!behind && readWakes === this.projectorWakes && !this.appendedPast(from)) {
          await this.idle(Math.min(this.pollIntervalMs, this.untilNextRetryMs()));
        }
      } catch (error) {
        await land().catch(() => false);
        for (const state of this.states) state.stored = null;
        rewind();
        // Start again from the checkpoints as stored: batches commit with synchronous_commit off,
        // so when Postgres crashed (the usual cause of a failed batch) the last commits it
        // acknowledged may be gone, and resuming from where this process thought it was would
        // skip their events for good.
        initialised = false;
        await this.dropConnection();
        failures++;
        logger.error('projection batch failed; retrying', { error: describeError(error), failures });
        await this.idle(Math.min(5000, 100 * 2 ** Math.min(failures, 6)));
      }
    }
    await land().catch(() => false);
  }

  private untilNextRetryMs(): number {
    const due = this.states.filter((state) => state.failure !== null).map((state) => state.failure!.retryAt - Date.now());
    return due.length === 0 ? Number.POSITIVE_INFINITY : Math.max(0, Math.min(...due));
  }

  /**
   * Applies a batch to the given projections in one transaction, each from its own checkpoint
   * (read under the projections' locks, so a rebuild swap in between is respected). A projection
   * failing on an event is checkpointed right before it, marked failing, and leaves the others
   * be; the transaction commits what succeeded.
   */
  private async applyBatch(batch: RecordedEvent[], states: ProjectionState[]): Promise<void> {
    if (states.length === 0) return;
    if (states.every((state) => state.failure === null && state.stored !== null)) {
      if (await this.applyBatchInOneRoundTrip(batch, states)) return;
    }
    const names = states.map((state) => state.projection.name).sort();
    const client = await this.pipelinedConnection();
    try {
      await client.query('BEGIN');
      await client.query(
        `SELECT pg_advisory_xact_lock(hashtext(key)) FROM unnest($1::text[]) AS key ORDER BY key`,
        [names.map(lockKeyFor)],
      );
      const checkpoints = await readCheckpoints(client, names);
      const updates: Array<{ state: ProjectionState; position: Position; applied: number; error: string | null }> = [];
      for (const state of states) {
        const checkpoint = checkpoints.get(state.projection.name)?.position ?? START_POSITION;
        const pending = batch.filter((event) => comparePositions(event.position, checkpoint) > 0);
        if (pending.length === 0) {
          updates.push({ state, position: checkpoint, applied: 0, error: null });
          continue;
        }
        const slice = await applyToProjection(client, state.projection, state.types, pending, LIVE_TABLES);
        if (slice.failure === null) {
          updates.push({ state, position: pending[pending.length - 1].position, applied: slice.applied, error: null });
        } else {
          const stoppedAt = slice.failure.eventIndex > 0 ? pending[slice.failure.eventIndex - 1].position : checkpoint;
          const event = slice.failure.event;
          const message = `${event.type} ${event.id} at ${positionToString(event.position)}: ${describeError(slice.failure.error)}`;
          updates.push({ state, position: stoppedAt, applied: slice.applied, error: message });
        }
      }
      await client.query(
        `UPDATE projection_checkpoints AS checkpoint
            SET commit_position = delta.commit_position, prepare_position = delta.prepare_position,
                events_applied = checkpoint.events_applied + delta.applied, updated_at = now(),
                last_error = delta.error,
                last_error_at = CASE WHEN delta.error IS NULL THEN NULL ELSE coalesce(checkpoint.last_error_at, now()) END
           FROM unnest($1::text[], $2::numeric[], $3::numeric[], $4::bigint[], $5::text[])
                AS delta(name, commit_position, prepare_position, applied, error)
          WHERE checkpoint.name = delta.name
            AND (checkpoint.commit_position, checkpoint.prepare_position) <= (delta.commit_position, delta.prepare_position)`,
        [
          updates.map((update) => update.state.projection.name),
          updates.map((update) => update.position.commit.toString()),
          updates.map((update) => update.position.prepare.toString()),
          updates.map((update) => update.applied),
          updates.map((update) => update.error),
        ],
      );
      if (this.notifyProgress) await client.query(NOTIFY_PROGRESS_SQL);
      await client.query('COMMIT');
      for (const update of updates) {
        // Under the lock, the row said `checkpoint` and now says this (the update only moves forward).
        update.state.stored = update.position;
        this.settle(update.state, update.position, update.error);
      }
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /**
   * The common case in one round trip: every projection healthy and its checkpoint row as this
   * process left it. BEGIN, the locks, the checkpoint move (which raises when a row is not where
   * this process expects it: a rebuild swapped it, another projector moved it), every
   * projection's writes and COMMIT go out back to back, without savepoints. Any failure (a moved
   * checkpoint, a throw from `apply`, a failed write) rolls the whole batch back and answers
   * false: the careful path then runs the batch with savepoints, from the checkpoints it reads,
   * and pins a failure to its event. Projections are pure functions of the events, so applying
   * them again is harmless.
   */
  private async applyBatchInOneRoundTrip(batch: RecordedEvent[], states: ProjectionState[]): Promise<boolean> {
    return (await this.sendBatchInOneRoundTrip(batch, states)).outcome;
  }

  /**
   * Sends a one-round-trip batch and answers once it is on the wire, with its outcome to come
   * (true once committed and settled; false when it rolled back, and then every `stored` is
   * unknown again). `stored` moves ahead as soon as the batch is sent, so the next batch can
   * follow it on the wire before it commits: if this one fails, the next one's checkpoint move
   * finds the row where this one left it, raises, and rolls back too.
   */
  private async sendBatchInOneRoundTrip(batch: RecordedEvent[], states: ProjectionState[]): Promise<{ outcome: Promise<boolean> }> {
    const client = await this.pipelinedConnection();
    const sent: Array<Promise<unknown>> = [];
    const send = (sql: string, params?: unknown[]) => {
      // The whole batch leaves in as few socket writes as the awaits in `apply` allow.
      corkUntilIdle(client);
      const answer = client.query(sql, params);
      answer.catch(() => undefined);
      sent.push(answer);
      return answer;
    };
    const moves = states.map((state) => {
      const from = state.stored!;
      const pending = batch.filter((event) => comparePositions(event.position, from) > 0);
      const to = pending.length > 0 ? pending[pending.length - 1].position : from;
      return { state, from, to, pending, applied: pending.filter((event) => state.types.has(event.type)).length };
    });
    const forget = () => {
      for (const state of this.states) state.stored = null;
      for (const state of states) state.stored = null;
    };
    for (const move of moves) move.state.stored = move.to;
    let commit: Promise<{ command: string }>;
    try {
      send('BEGIN');
      send(`SELECT projection_checkpoints_lock_and_advance($1::text[], $2::text[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[], $7::bigint[])`, [
        states.map((state) => lockKeyFor(state.projection.name)).sort(),
        moves.map((move) => move.state.projection.name),
        moves.map((move) => move.from.commit.toString()),
        moves.map((move) => move.from.prepare.toString()),
        moves.map((move) => move.to.commit.toString()),
        moves.map((move) => move.to.prepare.toString()),
        moves.map((move) => move.applied),
      ]);
      for (const move of moves) {
        if (move.pending.length === 0) continue;
        const tx = new PipelinedProjectionTransaction(client, LIVE_TABLES);
        for (const event of move.pending) {
          if (!move.state.types.has(event.type)) continue;
          await move.state.projection.apply(event, tx);
        }
        const written = tx.settle().then((failure) => {
          if (failure) throw failure.error;
        });
        written.catch(() => undefined);
        sent.push(written);
      }
      if (this.notifyProgress) send(NOTIFY_PROGRESS_SQL);
      commit = send('COMMIT') as Promise<{ command: string }>;
    } catch {
      // `apply` threw before COMMIT went out: end the transaction here.
      await Promise.allSettled(sent);
      await client.query('ROLLBACK').catch(() => undefined);
      forget();
      return { outcome: Promise.resolve(false) };
    }
    const outcome = (async () => {
      const outcomes = await Promise.allSettled(sent);
      // A transaction aborted by an error answers COMMIT with ROLLBACK (no error of its own).
      const answer = await commit.catch(() => null);
      if (outcomes.some((result) => result.status === 'rejected') || answer?.command !== 'COMMIT') {
        forget();
        return false;
      }
      for (const move of moves) this.settle(move.state, move.to, null);
      return true;
    })();
    return { outcome };
  }

  private settle(state: ProjectionState, position: Position, error: string | null): void {
    if (comparePositions(position, state.position) > 0) state.position = position;
    if (error === null) {
      if (state.failure) logger.info('projection recovered', { projection: state.projection.name, position: positionToString(position) });
      state.failure = null;
      return;
    }
    const attempts = (state.failure?.attempts ?? 0) + 1;
    const delayMs = this.retryDelay(attempts);
    state.failure = { message: error, attempts, retryAt: Date.now() + delayMs };
    logger.error('projection failed on an event; it stops before it and retries', {
      projection: state.projection.name,
      error,
      attempts,
      retryInMs: delayMs,
    });
  }

  /** Catches failing projections whose retry is due up to `until`, each on its own. */
  private async retryFailingProjections(until: Position): Promise<void> {
    for (const state of this.states) {
      if (!this.running || state.failure === null || state.failure.retryAt > Date.now()) continue;
      let position = state.position;
      while (this.running && comparePositions(position, until) < 0) {
        const batch = (await this.events.store.readAll({ from: position, limit: this.batchSize })).filter(
          (event) => comparePositions(event.position, until) <= 0,
        );
        if (batch.length === 0) break;
        await this.applyBatch(batch, [state]);
        if (state.failure !== null) break;
        position = batch[batch.length - 1].position;
      }
      if (state.failure !== null && state.failure.retryAt <= Date.now()) {
        // Nothing left to apply up to where the others are (a rebuild moved it on): healthy again.
        await this.pool.query(`UPDATE projection_checkpoints SET last_error = NULL, last_error_at = NULL WHERE name = $1`, [
          state.projection.name,
        ]);
        this.settle(state, state.position, null);
      }
    }
  }

  /**
   * Reactor loops wake together and mostly read from the same position: a read already in flight
   * for that position is shared instead of sending another identical query (one per reactor per
   * wake-up otherwise). Only in-flight reads are shared, so nobody gets a stale answer: a loop
   * that asks after a read finished sends its own, and one that joins a read started before the
   * latest wake-up sees so in `wakes` and reads again.
   */
  private sharedReadAll(from: Position, limit: number): SharedRead {
    const key = `${positionToString(from)}:${limit}`;
    let read = this.reactorReads.get(key);
    if (!read) {
      const events = this.events.store.readAll({ from, limit }).finally(() => this.reactorReads.delete(key));
      read = { events, wakes: this.reactorWakes, projectorWakes: this.projectorWakes };
      this.reactorReads.set(key, read);
    }
    return read;
  }

  /** Appends what the projector read from `from` to `recent` (or starts it over there). */
  private rememberRead(from: Position, batch: RecordedEvent[]): void {
    if (batch.length === 0) return;
    const recent = this.recent;
    const end = recent && (recent.events.length > 0 ? recent.events[recent.events.length - 1].position : recent.after);
    if (recent && end && comparePositions(end, from) === 0) {
      for (const event of batch) recent.events.push(event);
    } else {
      this.recent = { after: from, events: [...batch] };
    }
    const kept = this.recent!;
    const excess = kept.events.length - RECENT_EVENTS_LIMIT;
    if (excess > 0) {
      kept.after = kept.events[excess - 1].position;
      kept.events.splice(0, excess);
    }
  }

  /**
   * A reactor loop's read: from what the projector read last when its position is in there and
   * something follows it (the projector wakes first, so it usually has), else from the log.
   */
  private reactorRead(from: Position): SharedRead {
    const recent = this.recent;
    const events = recent?.events ?? [];
    if (recent && events.length > 0 && comparePositions(from, recent.after) >= 0 && comparePositions(from, events[events.length - 1].position) < 0) {
      let low = 0;
      let high = events.length - 1;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (comparePositions(events[middle].position, from) > 0) high = middle;
        else low = middle + 1;
      }
      return { events: Promise.resolve(events.slice(low, low + this.reactorBatchSize)), wakes: this.reactorWakes, projectorWakes: this.projectorWakes };
    }
    return this.sharedReadAll(from, this.reactorBatchSize);
  }

  private async runReactorLoop(reactor: Reactor): Promise<void> {
    const types = new Set(reactor.handles);
    let from: Position | null = null;
    let appliedSinceCheckpoint = 0;
    let failures = 0;
    let checkpointedAt = 0;
    let eventsSeenAt = 0;
    let unsaved = false;
    // The checkpoint moves only now and then while the log is busy (and whenever it goes quiet):
    // re-reading a few skipped events, or reacting again to a few handled ones, after a restart
    // costs little; a checkpoint write per append under load does not.
    // `catchingUp` (a full batch): health reads the lag from the checkpoint, so it moves at the
    // busy pace then too, even over events the reactor does not handle.
    const checkpoint = async (position: Position, force = false, catchingUp = false) => {
      const intervalMs = appliedSinceCheckpoint === 0 && !catchingUp ? REACTOR_IDLE_CHECKPOINT_MS : REACTOR_BUSY_CHECKPOINT_MS;
      if (!force && Date.now() - checkpointedAt < intervalMs) {
        unsaved = true;
        return;
      }
      await writeCheckpoint(this.pool, reactor.name, 'reactor', 1, position, appliedSinceCheckpoint);
      appliedSinceCheckpoint = 0;
      checkpointedAt = Date.now();
      unsaved = false;
    };
    while (this.running) {
      try {
        if (from === null) {
          const initial = await readCheckpoints(this.pool, [reactor.name]);
          from = initial.get(reactor.name)?.position ?? START_POSITION;
        }
        const read = this.reactorRead(from);
        const batch = await read.events;
        if (batch.length === 0) {
          if (unsaved && Date.now() - Math.max(checkpointedAt, eventsSeenAt) >= REACTOR_QUIET_CHECKPOINT_MS) await checkpoint(from, true);
          await this.idleReactor(from, read.wakes);
          continue;
        }
        const full = batch.length === this.reactorBatchSize;
        eventsSeenAt = Date.now();
        if (reactor.reactBatch) {
          // One call for the batch's handled events (the webhook reactor batches its reads and writes).
          const handled = batch.filter((event) => types.has(event.type));
          if (handled.length > 0) await runWithContext(reactorContext(reactor, handled[handled.length - 1]), () => reactor.reactBatch!(handled));
          from = batch[batch.length - 1].position;
          appliedSinceCheckpoint += handled.length;
          await checkpoint(from, false, full);
          failures = 0;
          if (!full) await this.idleReactor(from, read.wakes);
          continue;
        }
        for (const event of batch) {
          if (types.has(event.type)) {
            await runWithContext(reactorContext(reactor, event), () => reactor.react(event));
            appliedSinceCheckpoint++;
          }
          // Advanced event by event so a failure mid-batch re-runs only the failed event onwards.
          from = event.position;
        }
        await checkpoint(from, false, full);
        failures = 0;
        // Caught up with everything the read saw: wait for the next wake-up instead of reading
        // again at once (an answer nearly always empty), so the loops woken together read together.
        if (!full) await this.idleReactor(from, read.wakes);
      } catch (error) {
        failures++;
        const message = describeError(error);
        if (from !== null) {
          // Everything before the failed event has reacted: checkpoint it, with the error.
          await writeCheckpoint(this.pool, reactor.name, 'reactor', 1, from, appliedSinceCheckpoint, false, message).then(
            () => {
              appliedSinceCheckpoint = 0;
            },
            () => undefined,
          );
        }
        logger.error('reactor failed; retrying', { reactor: reactor.name, error: message, failures });
        await this.idle(Math.min(5000, this.retryDelay(failures)), this.reactorListeners);
      }
    }
    // Stopping: record how far it got, so a restart does not react again to the last moments.
    if (unsaved && from !== null && failures === 0) await checkpoint(from, true).catch(() => undefined);
  }
}

/** The context a reactor's effects run in: the event that caused them. */
function reactorContext(reactor: Reactor, event: RecordedEvent) {
  return {
    requestId: `reactor:${reactor.name}:${event.id}`,
    correlationId: event.metadata.correlationId,
    causationId: event.id,
    platformId: event.metadata.platformId,
    actor: `system:${reactor.name}`,
    idempotencyKey: null,
    lastPosition: null,
  };
}

function minPosition(positions: Position[]): Position {
  if (positions.length === 0) return START_POSITION;
  return positions.reduce((lowest, position) => (comparePositions(position, lowest) < 0 ? position : lowest));
}

/** Wakes every listener of an idle wait (each removes itself). */
function wake(listeners: Set<() => void>): void {
  for (const listener of [...listeners]) listener();
}
