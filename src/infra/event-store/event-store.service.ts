import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import {
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
  Position,
  RecordedEvent,
  comparePositions,
} from './event-store.port';
import { currentContext, recordAppendedPosition } from '../request-context';
import { uuidv7 } from '../ids';
import { DomainEvent } from '../domain/decider';

/** One stream's share of `EventStoreService.appendToStreams`. */
export interface DomainStreamAppend {
  streamName: string;
  events: DomainEvent[];
  expectedRevision: number | 'no_stream';
  metadata?: Partial<EventMetadata>;
}

/**
 * The application's view of the event store: fills event metadata from the request context and
 * records appended positions (read-your-writes). Commands reach it through the CommandStore
 * (src/infra/commands), the one read/decide/append path.
 */
export class EventStoreService {
  private readonly appended = new EventEmitter();
  private latestAppended: Position | null = null;
  /** Told each committed append's duration in seconds (the console's /metrics histogram). */
  private appendDurationObserver: ((seconds: number) => void) | null = null;

  constructor(readonly store: EventStore) {
    this.appended.setMaxListeners(1000);
  }

  /** Fires after every append made through this process (in-process wake-up for consumers). */
  onAppended(listener: (position: Position) => void): () => void {
    this.appended.on('appended', listener);
    return () => this.appended.off('appended', listener);
  }

  latestAppendedPosition(): Position | null {
    return this.latestAppended;
  }

  /** One observer (set at start); it must not allocate: it runs on every append. */
  observeAppendDurations(observer: (seconds: number) => void): void {
    this.appendDurationObserver = observer;
  }

  async append(
    streamName: string,
    events: DomainEvent[],
    expectedRevision: ExpectedRevision,
    metadataOverrides: Partial<EventMetadata> = {},
  ): Promise<AppendResult> {
    const startedMs = performance.now();
    const result = await this.store.appendToStream(streamName, toNewEvents(events, buildMetadata(metadataOverrides)), { expectedRevision });
    this.appendDurationObserver?.((performance.now() - startedMs) / 1000);
    this.noteAppended(result.position);
    return result;
  }

  /**
   * Whether `appendToStreams` is available: the adapter can commit several streams at once
   * (Postgres). Callers keep their sequential path for the others (EventStoreDB).
   */
  get supportsAtomicMultiAppend(): boolean {
    return typeof this.store.appendToStreams === 'function';
  }

  /**
   * Appends to several streams atomically (all or nothing, one commit): throws ConcurrencyError
   * naming the stream whose expectation failed, or whose event id is already stored, having
   * written nothing. Metadata comes from the request context, with each append's overrides.
   */
  async appendToStreams(appends: DomainStreamAppend[]): Promise<AppendResult[]> {
    if (!this.store.appendToStreams) throw new Error('This event store cannot append to several streams atomically');
    const startedMs = performance.now();
    const results = await this.store.appendToStreams(
      appends.map((append) => ({
        streamName: append.streamName,
        expectedRevision: append.expectedRevision,
        events: toNewEvents(append.events, buildMetadata(append.metadata ?? {})),
      })),
    );
    this.appendDurationObserver?.((performance.now() - startedMs) / 1000);
    this.noteAppended(results.reduce((max, result) => (comparePositions(result.position, max) > 0 ? result.position : max), results[0].position));
    return results;
  }

  /** After an append: read-your-writes for the request, and the in-process wake-up. */
  private noteAppended(position: Position): void {
    recordAppendedPosition(position);
    this.announceAppended(position);
  }

  /**
   * An append another thread of this process made (the projector thread hears of the api's):
   * wakes this thread's consumers as an own append would, without touching any request's context.
   */
  noteAppendedElsewhere(position: Position): void {
    this.announceAppended(position);
  }

  private announceAppended(position: Position): void {
    if (this.latestAppended === null || comparePositions(position, this.latestAppended) > 0) this.latestAppended = position;
    this.appended.emit('appended', position);
  }

  async readStream(streamName: string): Promise<RecordedEvent[]> {
    return this.store.readStream(streamName);
  }
}

function toNewEvents(events: DomainEvent[], metadata: EventMetadata): NewEvent[] {
  return events.map((event) => ({ id: event.id ?? uuidv7(), type: event.type, data: event.data as Record<string, unknown>, metadata }));
}

function buildMetadata(overrides: Partial<EventMetadata>): EventMetadata {
  const context = currentContext();
  return {
    correlationId: context?.correlationId ?? randomUUID(),
    causationId: context?.causationId ?? context?.requestId ?? randomUUID(),
    platformId: context?.platformId ?? null,
    actor: context?.actor ?? 'system',
    idempotencyKey: context?.idempotencyKey ?? null,
    requestId: context?.requestId ?? null,
    ...overrides,
  };
}
