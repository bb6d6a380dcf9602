import { Pool } from 'pg';
import { EventStore, START_POSITION, positionToString } from '../event-store/event-store.port';
import { ConsumerKind, readCheckpoints } from './checkpoints';
import { Projection } from './projection';

/** Counting a lag stops here: past it, the figure is reported as "at least". */
export const LAG_COUNT_CAP = 100_000;

export interface ConsumerStatus {
  name: string;
  kind: ConsumerKind;
  /** 'ok'; 'failing' (stuck on an event, see lastError); 'not-started' (no checkpoint yet); 'version-changed' (the service rebuilds it at its next start). */
  state: 'ok' | 'failing' | 'not-started' | 'version-changed';
  /** Version that built the read model (projections); the code's version when not started. */
  version: number;
  codeVersion: number | null;
  /** `commit/prepare` of the last event it has processed. */
  position: string;
  /** Events in the log after its position (at most LAG_COUNT_CAP, then lagCapped). */
  lagEvents: number;
  lagCapped: boolean;
  /** Age of the oldest event it has not processed yet; 0 when caught up. */
  lagSeconds: number;
  eventsApplied: number;
  updatedAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

export interface ProjectionsStatus {
  /** Position of the newest event readers can see. */
  head: string;
  consumers: ConsumerStatus[];
}

/**
 * Each projection's and reactor's position and lag, from the checkpoints every process commits
 * (so any process, or the `projections:status` CLI, sees the projector's progress). Projections
 * of the code without a checkpoint yet are listed as not started.
 */
export async function projectionsStatus(
  pool: Pool,
  store: EventStore,
  projections: Projection[],
  options: { lagCountCap?: number; now?: Date } = {},
): Promise<ProjectionsStatus> {
  const cap = options.lagCountCap ?? LAG_COUNT_CAP;
  const now = options.now ?? new Date();
  const [head, checkpoints] = await Promise.all([store.headPosition(), readCheckpoints(pool)]);
  const codeVersions = new Map(projections.map((projection) => [projection.name, projection.version]));
  const consumers: ConsumerStatus[] = [];
  for (const checkpoint of checkpoints.values()) {
    const [lagEvents, nextEvents] = await Promise.all([
      store.countEventsAfter(checkpoint.position, cap),
      store.readAll({ from: checkpoint.position, limit: 1 }),
    ]);
    const oldestPending = nextEvents[0]?.createdAt;
    const codeVersion = checkpoint.kind === 'projection' ? (codeVersions.get(checkpoint.name) ?? null) : null;
    consumers.push({
      name: checkpoint.name,
      kind: checkpoint.kind,
      state: checkpoint.lastError
        ? 'failing'
        : codeVersion !== null && codeVersion !== checkpoint.version
          ? 'version-changed'
          : 'ok',
      version: checkpoint.version,
      codeVersion,
      position: positionToString(checkpoint.position),
      lagEvents,
      lagCapped: lagEvents >= cap,
      lagSeconds: ageSeconds(oldestPending, now),
      eventsApplied: checkpoint.eventsApplied,
      updatedAt: checkpoint.updatedAt.toISOString(),
      lastError: checkpoint.lastError,
      lastErrorAt: checkpoint.lastErrorAt?.toISOString() ?? null,
    });
  }
  for (const projection of projections) {
    if (checkpoints.has(projection.name)) continue;
    const [lagEvents, firstEvents] = await Promise.all([
      store.countEventsAfter(START_POSITION, cap),
      store.readAll({ from: START_POSITION, limit: 1 }),
    ]);
    consumers.push({
      name: projection.name,
      kind: 'projection',
      state: 'not-started',
      version: projection.version,
      codeVersion: projection.version,
      position: positionToString(START_POSITION),
      lagEvents,
      lagCapped: lagEvents >= cap,
      lagSeconds: ageSeconds(firstEvents[0]?.createdAt, now),
      eventsApplied: 0,
      updatedAt: null,
      lastError: null,
      lastErrorAt: null,
    });
  }
  consumers.sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'projection' ? -1 : 1));
  return { head: positionToString(head), consumers };
}

/** Seconds since `since`, to a tenth; 0 without an event. */
function ageSeconds(since: Date | undefined, now: Date): number {
  return since ? Math.max(0, Math.round((now.getTime() - since.getTime()) / 100) / 10) : 0;
}
