import { Position, START_POSITION, comparePositions, positionToString } from '../event-store/event-store.port';
import { logger } from '../logger';
import { CheckpointRow } from './checkpoints';
import { Projection } from './projection';

/** A projection's place in the runner. */
export interface ProjectionState {
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

export interface RetryDelays {
  /** First retry delay of a failing projection or reactor; doubles up to maxRetryDelayMs. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
}

/** The backoff before retry number `attempts` (1 for the first). */
export function retryDelayMs(delays: RetryDelays, attempts: number): number {
  return Math.min(delays.maxRetryDelayMs, delays.retryDelayMs * 2 ** Math.min(attempts - 1, 20));
}

/**
 * Where each projection of the runner stands, and which are failing: a projection that fails on
 * an event is marked with the error and a retry time (exponential backoff), and is retried on its
 * own until it passes the event.
 */
export class ProjectionStates {
  all: ProjectionState[] = [];

  constructor(
    private readonly projections: Projection[],
    private readonly delays: RetryDelays,
  ) {}

  names(): string[] {
    return this.projections.map((projection) => projection.name);
  }

  /** Starts over from the checkpoints as stored; a failing projection keeps its retry state. Answers where the slowest stands. */
  load(checkpoints: Map<string, CheckpointRow>): Position {
    const failures = new Map(this.all.map((state) => [state.projection.name, state.failure]));
    this.all = this.projections.map((projection) => ({
      projection,
      types: new Set(projection.handles),
      position: checkpoints.get(projection.name)?.position ?? START_POSITION,
      failure: failures.get(projection.name) ?? null,
      stored: null,
    }));
    return minPosition(this.all.map((state) => state.position));
  }

  healthy(): ProjectionState[] {
    return this.all.filter((state) => state.failure === null);
  }

  failing(): Array<{ name: string; error: string; attempts: number }> {
    return this.all
      .filter((state) => state.failure !== null)
      .map((state) => ({ name: state.projection.name, error: state.failure!.message, attempts: state.failure!.attempts }));
  }

  /** The checkpoint rows may have moved without this process (a failed batch, a lost connection). */
  forgetStored(): void {
    for (const state of this.all) state.stored = null;
  }

  /** Milliseconds until the next retry of a failing projection is due (infinite when none fails). */
  untilNextRetryMs(): number {
    const due = this.all.filter((state) => state.failure !== null).map((state) => state.failure!.retryAt - Date.now());
    return due.length === 0 ? Number.POSITIVE_INFINITY : Math.max(0, Math.min(...due));
  }

  /** Records that `state` committed up to `position`, healthy (`error` null) or stuck right after it. */
  settle(state: ProjectionState, position: Position, error: string | null): void {
    if (comparePositions(position, state.position) > 0) state.position = position;
    if (error === null) {
      if (state.failure) logger.info('projection recovered', { projection: state.projection.name, position: positionToString(position) });
      state.failure = null;
      return;
    }
    const attempts = (state.failure?.attempts ?? 0) + 1;
    const delayMs = retryDelayMs(this.delays, attempts);
    state.failure = { message: error, attempts, retryAt: Date.now() + delayMs };
    logger.error('projection failed on an event; it stops before it and retries', {
      projection: state.projection.name,
      error,
      attempts,
      retryInMs: delayMs,
    });
  }
}

function minPosition(positions: Position[]): Position {
  if (positions.length === 0) return START_POSITION;
  return positions.reduce((lowest, position) => (comparePositions(position, lowest) < 0 ? position : lowest));
}
