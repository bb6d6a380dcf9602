/**
 * The event store port. Domain code and projections only ever see these types: no adapter's
 * client types leak out, so the Postgres and EventStoreDB adapters are interchangeable.
 */

/**
 * A global position in the `$all` log. Ordered lexicographically by (commit, prepare).
 * Postgres adapter: commit = the appending transaction's id (xid8), prepare = the row's sequence.
 * EventStoreDB adapter: its own commit/prepare positions.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START_POSITION: Position = Object.freeze({ commit: -1n, prepare: -1n });

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function positionToString(position: Position): string {
  return `${position.commit}/${position.prepare}`;
}

export function positionFromString(text: string): Position {
  const [commit, prepare] = text.split('/');
  return { commit: BigInt(commit), prepare: BigInt(prepare) };
}

/** Who did what, when and why: carried by every event for auditors. */
export interface EventMetadata {
  correlationId: string;
  causationId: string;
  platformId: string | null;
  actor: string;
  idempotencyKey?: string | null;
  requestId?: string | null;
  [extra: string]: unknown;
}

export interface NewEvent<TData = Record<string, unknown>> {
  /** uuid; deterministic (v5) where a retried step must be a no-op. */
  id: string;
  type: string;
  data: TData;
  metadata: EventMetadata;
}

export interface RecordedEvent<TData = Record<string, unknown>> extends NewEvent<TData> {
  streamName: string;
  /** 0-based revision of the event inside its stream. */
  revision: number;
  position: Position;
  createdAt: Date;
}

/**
 * - a number: the stream's current last revision must equal it;
 * - 'no_stream': the stream must not exist;
 * - 'stream_exists': the stream must exist;
 * - 'any': no check (avoid for business streams: idempotency of retries is only guaranteed with
 *   an exact expectation on EventStoreDB).
 */
export type ExpectedRevision = number | 'no_stream' | 'stream_exists' | 'any';

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  nextExpectedRevision: number;
  /** Global position of the last appended event. */
  position: Position;
}

/** One stream's share of an atomic multi-stream append (`EventStore.appendToStreams`). */
export interface StreamAppend {
  streamName: string;
  events: NewEvent[];
  /** Only an exact revision or 'no_stream': a multi-stream append always knows what it decided on. */
  expectedRevision: number | 'no_stream';
}

export interface ReadStreamOptions {
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Omit to read from the start. */
  from?: Position;
  limit: number;
}

export interface Subscription extends AsyncIterable<RecordedEvent> {
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  /** Exclusive start position; omit for the beginning of the log. */
  from?: Position;
}

export interface EventStore {
  readStream(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  appendToStream(streamName: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult>;
  /**
   * Optional: appends to several distinct streams atomically, all or nothing, in one commit (every
   * event gets the same `position.commit`; global positions follow the given order). On any
   * expected-revision conflict or already stored event id nothing is written and ConcurrencyError
   * names the conflicting stream: unlike appendToStream, a repeated call is not answered as a
   * retry. Adapters without multi-stream transactions (EventStoreDB) leave it out.
   */
  appendToStreams?(appends: StreamAppend[]): Promise<AppendResult[]>;
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeOptions): Subscription;
  /**
   * Optional: calls `listener` when another process may have appended (Postgres: its LISTEN/NOTIFY
   * wake-ups, where the store notifies). A hint only, to read the log sooner than a poll would;
   * answers the unsubscribe.
   */
  onAppendedElsewhere?(listener: () => void): () => void;
  /** Position of the newest event visible to readers, or START_POSITION when empty. */
  headPosition(): Promise<Position>;
  /**
   * How many events lie strictly after `from`, counting at most `max` (a consumer's lag, for
   * /health and `projections:status`; counting stops early so a huge lag stays cheap).
   */
  countEventsAfter(from: Position, max: number): Promise<number>;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');

/** Thrown when the expected revision does not match: the caller re-decides or answers 409. */
export class ConcurrencyError extends Error {
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Stream ${streamName}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'ConcurrencyError';
  }
}
