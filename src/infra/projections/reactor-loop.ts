import { Pool } from 'pg';
import { Position, RecordedEvent, START_POSITION, comparePositions } from '../event-store/event-store.port';
import { logger } from '../logger';
import { runWithContext } from '../request-context';
import { readCheckpoints, writeCheckpoint } from './checkpoints';
import { Reactor } from './projection';
import { describeError } from './projection-apply';
import { RetryDelays, retryDelayMs } from './projection-states';
import { SharedReads } from './shared-reads';
import { Wakes } from './wakes';

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

/** What a reactor loop needs of the runner around it. */
export interface ReactorLoopParts {
  pool: Pool;
  events: { latestAppendedPosition(): Position | null };
  wakes: Wakes;
  reads: SharedReads;
  /** Events per read. */
  batchSize: number;
  pollIntervalMs: number;
  delays: RetryDelays;
  running(): boolean;
}

/**
 * Runs one reactor from its own checkpoint, at least once per event: reads the log (from what
 * the projector read last, or a read shared with the other reactor loops), reacts, and moves the
 * checkpoint now and then. Caught up, it waits for the next (coalesced) reactor wake-up.
 */
export async function runReactorLoop(reactor: Reactor, parts: ReactorLoopParts): Promise<void> {
  const { pool, reads, batchSize, running } = parts;
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
    await writeCheckpoint(pool, reactor.name, 'reactor', 1, position, appliedSinceCheckpoint);
    appliedSinceCheckpoint = 0;
    checkpointedAt = Date.now();
    unsaved = false;
  };
  while (running()) {
    try {
      if (from === null) {
        const initial = await readCheckpoints(pool, [reactor.name]);
        from = initial.get(reactor.name)?.position ?? START_POSITION;
      }
      const read = reads.readForReactor(from, batchSize);
      const batch = await read.events;
      if (batch.length === 0) {
        if (unsaved && Date.now() - Math.max(checkpointedAt, eventsSeenAt) >= REACTOR_QUIET_CHECKPOINT_MS) await checkpoint(from, true);
        await idleReactor(parts, from, read.wakes);
        continue;
      }
      const full = batch.length === batchSize;
      eventsSeenAt = Date.now();
      if (reactor.reactBatch) {
        // One call for the batch's handled events (the webhook reactor batches its reads and writes).
        const handled = batch.filter((event) => types.has(event.type));
        if (handled.length > 0) await runWithContext(reactorContext(reactor, handled[handled.length - 1]), () => reactor.reactBatch!(handled));
        from = batch[batch.length - 1].position;
        appliedSinceCheckpoint += handled.length;
        await checkpoint(from, false, full);
        failures = 0;
        if (!full) await idleReactor(parts, from, read.wakes);
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
      if (!full) await idleReactor(parts, from, read.wakes);
    } catch (error) {
      failures++;
      const message = describeError(error);
      if (from !== null) {
        // Everything before the failed event has reacted: checkpoint it, with the error.
        await writeCheckpoint(pool, reactor.name, 'reactor', 1, from, appliedSinceCheckpoint, false, message).then(
          () => {
            appliedSinceCheckpoint = 0;
          },
          () => undefined,
        );
      }
      logger.error('reactor failed; retrying', { reactor: reactor.name, error: message, failures });
      await parts.wakes.idleReactor(Math.min(5000, retryDelayMs(parts.delays, failures)));
    }
  }
  // Stopping: record how far it got, so a restart does not react again to the last moments.
  if (unsaved && from !== null && failures === 0) await checkpoint(from, true).catch(() => undefined);
}

/**
 * A caught-up reactor loop waits for the next reactor wake-up, unless one came since the read it
 * used started (that read may predate the append). An append known here but not yet visible to
 * that read (an older concurrent transaction holds back the snapshot) is retried soon, as the
 * projector does, once no wake-up is pending for it; the poll covers other processes.
 */
function idleReactor(parts: ReactorLoopParts, from: Position, readWakes: number): Promise<void> {
  if (readWakes !== parts.wakes.reactorWakes) return Promise.resolve();
  const latest = parts.events.latestAppendedPosition();
  const unseen = latest !== null && comparePositions(latest, from) > 0 && !parts.wakes.reactorWakePending;
  return parts.wakes.idleReactor(unseen ? 2 : parts.pollIntervalMs);
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
