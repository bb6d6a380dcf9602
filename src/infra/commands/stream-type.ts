import { Decider, DomainEvent } from '../domain/decider';

/**
 * How the command store treats one kind of stream (one decider): the defaults suit most
 * aggregates (read the stream, decide, append, re-decide up to 5 times on a conflict); hot
 * streams (ledger accounts, quotes) keep their speed through these options, not their own loops.
 */
export interface StreamType<TCommand, TState, TEvent extends DomainEvent> {
  /** For error messages and logs, e.g. 'quote'. */
  readonly name: string;
  readonly decider: Decider<TCommand, TState, TEvent>;
  /** Decisions per command before 409 CONFLICT (default 5). */
  readonly maxAttempts?: number;
  /** Pause before re-deciding after the `attempt`-th conflict (default none). */
  readonly conflictBackoffMs?: (attempt: number) => number;
  /** Message of the 409 CONFLICT after the last attempt. */
  readonly conflictMessage?: string;
  /**
   * Keep the folded state of this many streams in memory. A command is first decided on it
   * (without reading the stream); a refusal, a no-op or a conflict decided on it is re-decided on
   * a fresh read. Reads catch up from the cached revision unless `fullReads`.
   */
  readonly cacheSize?: number;
  /** Read whole streams even when a state is cached (callers that need every recorded event). */
  readonly fullReads?: boolean;
  /** Serialise commands per stream inside this process (hot streams: no conflicts between own requests). */
  readonly serialize?: boolean;
  /** Deterministic event ids from the event's business key: the same step appended twice is one event. */
  readonly eventId?: (streamName: string, event: TEvent) => string;
}

/** Declares a stream type (see StreamType); the command store keeps its cache and locks per type. */
export function streamType<TCommand, TState, TEvent extends DomainEvent>(
  type: StreamType<TCommand, TState, TEvent>,
): StreamType<TCommand, TState, TEvent> {
  return Object.freeze({ ...type });
}
