import { Client, Pool } from 'pg';
import { EventStore, Position, RecordedEvent, START_POSITION, comparePositions, positionToString } from '../event-store/event-store.port';
import { logger } from '../logger';
import { NOTIFY_PROGRESS_SQL, lockKeyFor, readCheckpoints } from './checkpoints';
import { LIVE_TABLES, connectPipelined } from './projection';
import { applyToProjection, describeError } from './projection-apply';
import { ProjectionState, ProjectionStates } from './projection-states';
import { SentBatch, sendPipelinedBatch } from './pipelined-batch';

/**
 * Commits batches of events to the projections, read-model rows and checkpoints in one
 * transaction per batch, on a pipelined connection of its own: in one round trip when it can
 * (pipelined-batch.ts), else carefully, each projection from its own checkpoint and a failing one
 * pinned to its event. Also retries the failing projections, each on its own.
 */
export class ProjectionBatches {
  private connection: Client | null = null;

  /**
   * @param notifyProgress NOTIFY PROJECTIONS_ADVANCED_CHANNEL in every batch transaction, for
   *   read-your-writes waiters in other processes (NotifiedReadModelWaiter).
   */
  constructor(
    private readonly pool: Pool,
    private readonly events: { readonly store: EventStore },
    private readonly states: ProjectionStates,
    private readonly batchSize: number,
    private readonly notifyProgress: boolean,
  ) {}

  /** Sends a one-round-trip batch (every projection in `states` healthy, its `stored` known); see sendPipelinedBatch. */
  async send(batch: RecordedEvent[], states: ProjectionState[]): Promise<SentBatch> {
    return sendPipelinedBatch(await this.pipelinedConnection(), batch, states, this.states, this.notifyProgress);
  }

  /**
   * Applies a batch to the given projections in one transaction, each from its own checkpoint
   * (read under the projections' locks, so a rebuild swap in between is respected). A projection
   * failing on an event is checkpointed right before it, marked failing, and leaves the others
   * be; the transaction commits what succeeded. Tries the one round trip first when it may.
   */
  async apply(batch: RecordedEvent[], states: ProjectionState[]): Promise<void> {
    if (states.length === 0) return;
    if (states.every((state) => state.failure === null && state.stored !== null)) {
      if (await (await this.send(batch, states)).outcome) return;
    }
    const names = states.map((state) => state.projection.name).sort();
    const client = await this.pipelinedConnection();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext(key)) FROM unnest($1::text[]) AS key ORDER BY key`, [names.map(lockKeyFor)]);
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
        this.states.settle(update.state, update.position, update.error);
      }
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /** Catches failing projections whose retry is due up to `until`, each on its own. */
  async retryFailing(until: Position, running: () => boolean): Promise<void> {
    for (const state of this.states.all) {
      if (!running() || state.failure === null || state.failure.retryAt > Date.now()) continue;
      let position = state.position;
      while (running() && comparePositions(position, until) < 0) {
        const batch = (await this.events.store.readAll({ from: position, limit: this.batchSize })).filter(
          (event) => comparePositions(event.position, until) <= 0,
        );
        if (batch.length === 0) break;
        await this.apply(batch, [state]);
        if (state.failure !== null) break;
        position = batch[batch.length - 1].position;
      }
      if (state.failure !== null && state.failure.retryAt <= Date.now()) {
        // Nothing left to apply up to where the others are (a rebuild moved it on): healthy again.
        await this.pool.query(`UPDATE projection_checkpoints SET last_error = NULL, last_error_at = NULL WHERE name = $1`, [
          state.projection.name,
        ]);
        this.states.settle(state, state.position, null);
      }
    }
  }

  /** Closes the connection (after a failure, or at stop); the next batch opens another. */
  async dropConnection(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    await connection?.end().catch(() => undefined);
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
}
