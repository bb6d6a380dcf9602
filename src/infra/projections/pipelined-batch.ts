import { Client } from 'pg';
import { RecordedEvent, comparePositions } from '../event-store/event-store.port';
import { corkUntilIdle } from '../postgres/cork';
import { NOTIFY_PROGRESS_SQL, lockKeyFor } from './checkpoints';
import { LIVE_TABLES, PipelinedProjectionTransaction } from './projection';
import { ProjectionState, ProjectionStates } from './projection-states';

/** A batch on the wire: `outcome` is true once it committed and its projections settled, false when it rolled back. */
export interface SentBatch {
  outcome: Promise<boolean>;
}

/**
 * The common case of a projection batch in one round trip: every projection healthy and its
 * checkpoint row as this process left it (`stored`). BEGIN, the locks, the checkpoint move (which
 * raises when a row is not where this process expects it: a rebuild swapped it, another
 * projector moved it), every projection's writes and COMMIT go out back to back, without
 * savepoints. Any failure (a moved checkpoint, a throw from `apply`, a failed write) rolls the
 * whole batch back and answers false, and every `stored` is unknown again: the careful path
 * (ProjectionBatches.applyBatch) then runs the batch with savepoints, from the checkpoints it
 * reads, and pins a failure to its event. Projections are pure functions of the events, so
 * applying them again is harmless.
 *
 * Answers once the batch is on the wire. `stored` moves ahead as soon as the batch is sent, so
 * the next batch can follow it on the wire before it commits: if this one fails, the next one's
 * checkpoint move finds the row where this one left it, raises, and rolls back too.
 */
export async function sendPipelinedBatch(
  client: Client,
  batch: RecordedEvent[],
  states: ProjectionState[],
  all: ProjectionStates,
  notifyProgress: boolean,
): Promise<SentBatch> {
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
    all.forgetStored();
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
    if (notifyProgress) send(NOTIFY_PROGRESS_SQL);
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
    for (const move of moves) all.settle(move.state, move.to, null);
    return true;
  })();
  return { outcome };
}
