import { Pool } from 'pg';
import { EventStore, Position, RecordedEvent, START_POSITION, comparePositions } from '../event-store/event-store.port';
import { logger } from '../logger';
import { readCheckpoints } from './checkpoints';
import { describeError } from './projection-apply';
import { ProjectionBatches } from './projection-batches';
import { ProjectionStates } from './projection-states';
import { RecentEvents } from './recent-events';
import { SharedReads } from './shared-reads';
import { Wakes } from './wakes';

/** What the projector loop needs of the runner around it. */
export interface ProjectorLoopParts {
  pool: Pool;
  events: { readonly store: EventStore; latestAppendedPosition(): Position | null };
  states: ProjectionStates;
  batches: ProjectionBatches;
  wakes: Wakes;
  reads: SharedReads;
  recent: RecentEvents;
  /** Events per read while behind. */
  batchSize: number;
  /** Events per read once caught up (shared with the reactor loops). */
  caughtUpBatchSize: number;
  pollIntervalMs: number;
  /** Told every position up to which every healthy projection has committed. */
  report(position: Position): void;
  running(): boolean;
}

/**
 * The projector: reads the log from where the projections stand and commits it to them batch by
 * batch. Caught up, it wakes on each append and shares a read in flight from its position, if
 * any. Behind, it reads full batches and the next one ahead, and sends each batch on the wire
 * behind the one in flight (pipelined-batch.ts). After a failed batch it starts again from the
 * checkpoints as stored.
 */
export class ProjectorLoop {
  constructor(private readonly parts: ProjectorLoopParts) {}

  async run(): Promise<void> {
    const { events, states, batches, wakes, reads, recent, batchSize, caughtUpBatchSize, report, running } = this.parts;
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
      report(committed);
      return true;
    };
    /** After a batch in flight rolled back: read again from where the log is committed. */
    const rewind = () => {
      from = committed;
      prefetched = null;
      behind = true;
    };
    while (running()) {
      try {
        if (!initialised) {
          from = states.load(await readCheckpoints(this.parts.pool, states.names()));
          committed = from;
          report(from);
          initialised = true;
        }
        await batches.retryFailing(from, running);
        // The projector wake-up count when this read started (null for a read started ahead).
        let readWakes: number | null = null;
        let read: Promise<RecordedEvent[]>;
        if (prefetched) {
          read = prefetched;
        } else if (behind) {
          readWakes = wakes.projectorWakes;
          read = events.store.readAll({ from, limit: batchSize });
        } else {
          const shared = reads.read(from, caughtUpBatchSize);
          readWakes = shared.projectorWakes;
          read = shared.events;
        }
        const batch: RecordedEvent[] = await read;
        recent.remember(from, batch);
        prefetched = null;
        behind = batch.length === (behind ? batchSize : caughtUpBatchSize);
        if (batch.length === 0) {
          if (!(await land())) {
            rewind();
            continue;
          }
          await wakes.idleProjector(Math.min(this.nextDelayMs(from), states.untilNextRetryMs()));
          continue;
        }
        const last = batch[batch.length - 1].position;
        const catchingUp = batch.length === batchSize;
        if (catchingUp) {
          // Catching up: read the next batch while this one is applied.
          prefetched = events.store.readAll({ from: last, limit: batchSize });
          prefetched.catch(() => undefined);
        }
        const healthy = states.healthy();
        // Caught up, batches stay one at a time: one always queued behind the other would hold
        // the projections' locks without a gap, and a rebuild's swap waits for a gap.
        if (catchingUp && healthy.length === states.all.length && healthy.every((state) => state.stored !== null)) {
          // Catching up, every projection healthy: this batch goes on the wire behind the one in
          // flight, so Postgres works on one while this process prepares the next.
          const sent = await batches.send(batch, healthy);
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
        await batches.apply(batch, healthy);
        from = last;
        committed = last;
        report(from);
        failures = 0;
        // Caught up (the read was not full), with no append since it started that it may have
        // missed: the read after it would come back empty, so wait for the next wake-up (or the
        // poll) now. An append known to be past `from` is read at once, as after an empty read.
        if (!behind && readWakes === wakes.projectorWakes && !this.appendedPast(from)) {
          await wakes.idleProjector(Math.min(this.parts.pollIntervalMs, states.untilNextRetryMs()));
        }
      } catch (error) {
        await land().catch(() => false);
        states.forgetStored();
        rewind();
        // Start again from the checkpoints as stored: batches commit with synchronous_commit off,
        // so when Postgres crashed (the usual cause of a failed batch) the last commits it
        // acknowledged may be gone, and resuming from where this process thought it was would
        // skip their events for good.
        initialised = false;
        await batches.dropConnection();
        failures++;
        logger.error('projection batch failed; retrying', { error: describeError(error), failures });
        await wakes.idleProjector(Math.min(5000, 100 * 2 ** Math.min(failures, 6)));
      }
    }
    await land().catch(() => false);
  }

  /**
   * When an append is known to be past our position but invisible yet (an older concurrent
   * transaction still holds back the snapshot xmin), retry quickly instead of a full poll.
   */
  private nextDelayMs(from: Position): number {
    return this.appendedPast(from) ? 2 : this.parts.pollIntervalMs;
  }

  /** Whether this process knows of an append past `from`. */
  private appendedPast(from: Position): boolean {
    const latest = this.parts.events.latestAppendedPosition();
    return latest !== null && comparePositions(latest, from) > 0;
  }
}
