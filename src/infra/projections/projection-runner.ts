import { Pool } from 'pg';
import { Position, RecordedEvent, START_POSITION, comparePositions, positionToString } from '../event-store/event-store.port';
import { EventStoreService } from '../event-store/event-store.service';
import { logger } from '../logger';
import { runWithContext } from '../request-context';
import { CHECKPOINT_DDL, readCheckpoints, writeCheckpoint } from './checkpoints';
import { Projection, Reactor, projectionTransaction } from './projection';
import { createProjectionTables, rebuildProjection } from './projection-rebuild';

/** How often a reactor whose batches it does not handle still moves its checkpoint. */
const REACTOR_IDLE_CHECKPOINT_MS = 1000;

export interface ProjectionRunnerOptions {
  batchSize?: number;
  /** Fallback poll for appends made by other processes. */
  pollIntervalMs?: number;
}

interface Waiter {
  position: Position;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

/**
 * Runs every projection from its checkpoint (read-model SQL and checkpoints committed in one
 * transaction per batch) and every reactor from its own checkpoint (at least once). Restart-safe:
 * a crash loses at most an uncommitted batch, which is read again.
 */
export class ProjectionRunner {
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private running = false;
  private readonly loops: Promise<void>[] = [];
  private projectionProgress: Position = START_POSITION;
  private waiters: Waiter[] = [];
  private wakeListeners = new Set<() => void>();
  private unsubscribe: (() => void) | null = null;
  private readonly reactorReads = new Map<string, Promise<RecordedEvent[]>>();

  constructor(
    private readonly pool: Pool,
    private readonly events: EventStoreService,
    private readonly projections: Projection[],
    private readonly reactors: Reactor[],
    options: ProjectionRunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 1000;
    this.pollIntervalMs = options.pollIntervalMs ?? 25;
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
          await createProjectionTables(client, projection, '');
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
    this.unsubscribe = this.events.onAppended(() => this.wakeAll());
    if (this.projections.length > 0) this.loops.push(this.runProjectionLoop());
    for (const reactor of this.reactors) this.loops.push(this.runReactorLoop(reactor));
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.wakeAll();
    await Promise.allSettled(this.loops);
    this.loops.length = 0;
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiters = [];
  }

  /** Position up to which every projection has committed (in this process). */
  progress(): Position {
    return this.projectionProgress;
  }

  /** Resolves true once all projections include `position`, false after the timeout. */
  waitForPosition(position: Position, timeoutMs: number): Promise<boolean> {
    if (this.projections.length === 0 || comparePositions(this.projectionProgress, position) >= 0) {
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  private advanceProgress(position: Position): void {
    this.projectionProgress = position;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (comparePositions(position, waiter.position) >= 0) {
        clearTimeout(waiter.timer);
        waiter.resolve(true);
      } else {
        still.push(waiter);
      }
    }
    this.waiters = still;
  }

  private wakeAll(): void {
    for (const listener of [...this.wakeListeners]) listener();
  }

  /** Sleeps until an in-process append, the poll interval, or stop(). */
  private idle(delayMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeListeners.delete(done);
        resolve();
      };
      const timer = setTimeout(done, delayMs);
      this.wakeListeners.add(done);
    });
  }

  /**
   * When an append is known to be past our position but invisible yet (an older concurrent
   * transaction still holds back the snapshot xmin), retry quickly instead of a full poll.
   */
  private nextDelay(from: Position): number {
    const latest = this.events.latestAppendedPosition();
    return latest && comparePositions(latest, from) > 0 ? 2 : this.pollIntervalMs;
  }

  private async runProjectionLoop(): Promise<void> {
    const names = this.projections.map((projection) => projection.name).sort();
    const handled = new Map(this.projections.map((projection) => [projection.name, new Set(projection.handles)]));
    const initial = await readCheckpoints(this.pool, names);
    let from = minPosition(names.map((name) => initial.get(name)?.position ?? START_POSITION));
    this.advanceProgress(from);
    let failures = 0;
    while (this.running) {
      try {
        const batch = await this.events.store.readAll({ from, limit: this.batchSize });
        if (batch.length === 0) {
          await this.idle(this.nextDelay(from));
          continue;
        }
        await this.applyBatch(batch, names, handled);
        from = batch[batch.length - 1].position;
        this.advanceProgress(from);
        failures = 0;
      } catch (error) {
        failures++;
        logger.error('projection batch failed; retrying', { error: describe(error), failures });
        await this.idle(Math.min(5000, 100 * 2 ** Math.min(failures, 6)));
      }
    }
  }

  private async applyBatch(batch: RecordedEvent[], names: string[], handled: Map<string, Set<string>>): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `SELECT pg_advisory_xact_lock(hashtext('projection:' || name)) FROM unnest($1::text[]) AS name ORDER BY name`,
        [names],
      );
      const checkpoints = await readCheckpoints(client, names);
      const tx = projectionTransaction(client, '');
      const appliedCounts: number[] = [];
      for (const name of names) {
        const projection = this.projections.find((candidate) => candidate.name === name)!;
        const types = handled.get(name)!;
        const checkpoint = checkpoints.get(name)?.position ?? START_POSITION;
        let applied = 0;
        for (const event of batch) {
          if (!types.has(event.type) || comparePositions(event.position, checkpoint) <= 0) continue;
          await projection.apply(event, tx);
          applied++;
        }
        appliedCounts.push(applied);
      }
      const last = batch[batch.length - 1].position;
      await client.query(
        `UPDATE projection_checkpoints AS checkpoint
            SET commit_position = $2, prepare_position = $3,
                events_applied = checkpoint.events_applied + delta.applied, updated_at = now()
           FROM unnest($1::text[], $4::bigint[]) AS delta(name, applied)
          WHERE checkpoint.name = delta.name
            AND (checkpoint.commit_position, checkpoint.prepare_position) < ($2::numeric, $3::numeric)`,
        [names, last.commit.toString(), last.prepare.toString(), appliedCounts],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Reactor loops wake together on every append and mostly read from the same position: a read
   * already in flight for that position is shared instead of sending another identical query
   * (one per reactor per append otherwise). Only in-flight reads are shared, so nobody gets a
   * stale answer: a loop that asks after a read finished sends its own.
   */
  private sharedReadAll(from: Position, limit: number): Promise<RecordedEvent[]> {
    const key = `${positionToString(from)}:${limit}`;
    let read = this.reactorReads.get(key);
    if (!read) {
      read = this.events.store.readAll({ from, limit }).finally(() => this.reactorReads.delete(key));
      this.reactorReads.set(key, read);
    }
    return read;
  }

  private async runReactorLoop(reactor: Reactor): Promise<void> {
    const types = new Set(reactor.handles);
    const initial = await readCheckpoints(this.pool, [reactor.name]);
    let from = initial.get(reactor.name)?.position ?? START_POSITION;
    let failures = 0;
    let checkpointedAt = 0;
    // A batch the reactor does not handle moves its checkpoint only now and then: re-reading a
    // few skipped events after a restart costs nothing, a checkpoint write per append does.
    const checkpoint = async (applied: number) => {
      if (applied === 0 && Date.now() - checkpointedAt < REACTOR_IDLE_CHECKPOINT_MS) return;
      await writeCheckpoint(this.pool, reactor.name, 'reactor', 1, from, applied);
      checkpointedAt = Date.now();
    };
    while (this.running) {
      try {
        const batch = await this.sharedReadAll(from, Math.min(this.batchSize, 200));
        if (batch.length === 0) {
          await this.idle(this.nextDelay(from));
          continue;
        }
        let applied = 0;
        if (reactor.reactBatch) {
          const handled = batch.filter((event) => types.has(event.type));
          if (handled.length > 0) await runWithContext(reactorContext(reactor, handled[handled.length - 1]), () => reactor.reactBatch!(handled));
          applied = handled.length;
          from = batch[batch.length - 1].position;
          await checkpoint(applied);
          failures = 0;
          continue;
        }
        for (const event of batch) {
          if (types.has(event.type)) {
            await runWithContext(
              {
                requestId: `reactor:${reactor.name}:${event.id}`,
                correlationId: event.metadata.correlationId,
                causationId: event.id,
                platformId: event.metadata.platformId,
                actor: `system:${reactor.name}`,
                idempotencyKey: null,
                lastPosition: null,
              },
              () => reactor.react(event),
            );
            applied++;
          }
          // Checkpoint as we go so a failure mid-batch re-runs only the failed event onwards.
          from = event.position;
        }
        await checkpoint(applied);
        failures = 0;
      } catch (error) {
        failures++;
        await writeCheckpoint(this.pool, reactor.name, 'reactor', 1, from, 0).catch(() => undefined);
        logger.error('reactor failed; retrying', { reactor: reactor.name, error: describe(error), failures });
        // Re-read from the last checkpoint written, so the failed event is retried.
        const saved = await readCheckpoints(this.pool, [reactor.name]).catch(() => null);
        from = saved?.get(reactor.name)?.position ?? from;
        await this.idle(Math.min(5000, 100 * 2 ** Math.min(failures, 6)));
      }
    }
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

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
