import { ClientBase } from 'pg';
import { RecordedEvent } from '../event-store/event-store.port';
import { PipelinedProjectionTransaction, Projection, TableNaming } from './projection';

export interface ProjectionFailure {
  /** Index in the events given of the event the projection failed on. */
  eventIndex: number;
  event: RecordedEvent;
  error: unknown;
}

export interface AppliedSlice {
  /** Events of the projection's types applied (before the failure, if any). */
  applied: number;
  failure: ProjectionFailure | null;
}

/**
 * Applies `events` (consecutive events of the log) to one projection, inside the transaction the
 * caller holds open on `client`. Writes are pipelined; a failure (a throw from `apply` or a
 * failed write) is pinned to the earliest event that caused it. Then the projection's writes of
 * this call are rolled back to a savepoint and the events before the failing one applied again,
 * so the transaction holds exactly the events before the failure, and the caller checkpoints
 * the projection right before it. Other projections in the same transaction are unaffected.
 */
export async function applyToProjection(
  client: ClientBase,
  projection: Projection,
  types: ReadonlySet<string>,
  events: readonly RecordedEvent[],
  naming: TableNaming,
): Promise<AppliedSlice> {
  const savepoint = 'projection_slice';
  await client.query(`SAVEPOINT ${savepoint}`);
  const first = await applyEvents(client, projection, types, events, events.length, naming);
  if (first.failure === null) {
    await client.query(`RELEASE SAVEPOINT ${savepoint}`);
    return first;
  }
  await client.query(`ROLLBACK TO SAVEPOINT ${savepoint}`);
  const again = await applyEvents(client, projection, types, events, first.failure.eventIndex, naming);
  if (again.failure !== null) {
    // The events before the failure succeeded a moment ago: a projection whose outcome changes
    // between two runs is not deterministic, and nothing of this batch can be trusted.
    throw again.failure.error;
  }
  await client.query(`RELEASE SAVEPOINT ${savepoint}`);
  return { applied: again.applied, failure: first.failure };
}

async function applyEvents(
  client: ClientBase,
  projection: Projection,
  types: ReadonlySet<string>,
  events: readonly RecordedEvent[],
  count: number,
  naming: TableNaming,
): Promise<AppliedSlice> {
  const tx = new PipelinedProjectionTransaction(client, naming);
  let applied = 0;
  let thrown: ProjectionFailure | null = null;
  for (let index = 0; index < count; index++) {
    const event = events[index];
    if (!types.has(event.type)) continue;
    tx.eventIndex = index;
    try {
      await projection.apply(event, tx);
      applied++;
    } catch (error) {
      thrown = { eventIndex: index, event, error };
      break;
    }
  }
  const failedWrite = await tx.settle();
  let failure = thrown;
  if (failedWrite && (failure === null || failedWrite.eventIndex <= failure.eventIndex)) {
    failure = { eventIndex: failedWrite.eventIndex, event: events[failedWrite.eventIndex], error: failedWrite.error };
  }
  if (failure === null) return { applied, failure: null };
  const appliedBefore = events.slice(0, failure.eventIndex).filter((event) => types.has(event.type)).length;
  return { applied: appliedBefore, failure };
}

export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
