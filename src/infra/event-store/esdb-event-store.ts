import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
} from '@eventstore/db-client';
import type { AppendExpectedRevision, AllStreamResolvedEvent, ResolvedEvent } from '@eventstore/db-client';
import {
  AppendOptions,
  AppendResult,
  ConcurrencyError,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  START_POSITION,
  SubscribeOptions,
  Subscription,
  comparePositions,
} from './event-store.port';

/** $all pages read while skipping system events, so one readAll call stays bounded. */
const MAX_PAGES_PER_READ_ALL = 20;

/**
 * EventStoreDB / KurrentDB adapter. The only file that imports `@eventstore/db-client`: nothing
 * of the client leaks through the port. Callers should always pass an exact expected revision:
 * EventStoreDB only guarantees event-id idempotency of retries then.
 */
export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async appendToStream(streamName: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    if (events.length === 0) throw new Error('appendToStream needs at least one event');
    const payload = events.map((event) =>
      jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: event.metadata }),
    );
    try {
      const result = await this.client.appendToStream(streamName, payload, {
        expectedRevision: toEsdbExpectedRevision(options.expectedRevision),
      });
      const nextExpectedRevision = Number(result.nextExpectedRevision);
      const position = result.position ?? (await this.positionOfRevision(streamName, nextExpectedRevision));
      return { nextExpectedRevision, position: { commit: position.commit, prepare: position.prepare } };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new ConcurrencyError(
          streamName,
          options.expectedRevision,
          typeof actual === 'bigint' ? Number(actual) : 'no_stream',
        );
      }
      throw error;
    }
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamName, {
        direction: FORWARDS,
        fromRevision: options.fromRevision === undefined ? START : BigInt(options.fromRevision),
        ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
      });
      for await (const resolved of read) {
        const event = toRecordedEvent(resolved);
        if (event !== null) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    const from = options.from;
    const events: RecordedEvent[] = [];
    let cursor: Position | null = from !== undefined && from.commit >= 0n ? from : null;
    // EventStoreDB reads $all from a position inclusively and returns system events: page until
    // `limit` user events strictly after `from` are collected or the log ends.
    for (let page = 0; page < MAX_PAGES_PER_READ_ALL && events.length < options.limit; page += 1) {
      const pageSize = options.limit - events.length + 1;
      let read = 0;
      let last: Position | null = null;
      for await (const resolved of this.client.readAll({
        direction: FORWARDS,
        fromPosition: cursor === null ? START : { commit: cursor.commit, prepare: cursor.prepare },
        maxCount: pageSize,
      })) {
        read += 1;
        const event = toRecordedEvent(resolved);
        const position = resolvedPosition(resolved);
        if (position !== null) last = position;
        if (event === null || isSystemEvent(event)) continue;
        if (cursor !== null && comparePositions(event.position, cursor) <= 0) continue;
        if (events.length < options.limit) events.push(event);
      }
      if (read < pageSize || last === null) break;
      cursor = last;
    }
    return events;
  }

  /** EventStoreDB has no count: pages through $all, which is why callers cap it. */
  async countEventsAfter(from: Position, max: number): Promise<number> {
    let counted = 0;
    let cursor = from;
    while (counted < max) {
      const page = await this.readAll({ from: cursor, limit: Math.min(1000, max - counted) });
      if (page.length === 0) break;
      counted += page.length;
      cursor = page[page.length - 1].position;
    }
    return counted;
  }

  async headPosition(): Promise<Position> {
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 4096 })) {
      const event = toRecordedEvent(resolved);
      if (event !== null && !isSystemEvent(event)) return event.position;
    }
    return START_POSITION;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    const from = options.from;
    const startAfter = from !== undefined && from.commit >= 0n ? from : null;
    const esdbSubscription = this.client.subscribeToAll({
      fromPosition: startAfter === null ? START : { commit: startAfter.commit, prepare: startAfter.prepare },
      filter: excludeSystemEvents(),
    });
    return {
      async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
        for await (const resolved of esdbSubscription) {
          const event = toRecordedEvent(resolved);
          if (event === null || isSystemEvent(event)) continue;
          if (startAfter !== null && comparePositions(event.position, startAfter) <= 0) continue;
          yield event;
        }
      },
      async stop(): Promise<void> {
        await esdbSubscription.unsubscribe();
      },
    };
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }

  private async positionOfRevision(streamName: string, revision: number): Promise<Position> {
    const [event] = await this.readStream(streamName, { fromRevision: revision, maxCount: 1 });
    return event?.position ?? START_POSITION;
  }
}

function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'any':
      return ANY;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

function isSystemEvent(event: RecordedEvent): boolean {
  return event.type.startsWith('$') || event.streamName.startsWith('$');
}

function resolvedPosition(resolved: ResolvedEvent | AllStreamResolvedEvent): Position | null {
  const position = resolved.event?.position;
  if (position !== undefined) return { commit: position.commit, prepare: position.prepare };
  if (resolved.commitPosition !== undefined) return { commit: resolved.commitPosition, prepare: resolved.commitPosition };
  return null;
}

function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (event === undefined) return null;
  const position = resolvedPosition(resolved) ?? START_POSITION;
  return {
    id: event.id,
    type: event.type,
    data: decodeJson(event.data) as Record<string, unknown>,
    metadata: decodeJson(event.metadata) as EventMetadata,
    streamName: event.streamId,
    revision: Number(event.revision),
    position,
    createdAt: event.created,
  };
}

function decodeJson(value: unknown): unknown {
  if (value instanceof Uint8Array) {
    return value.byteLength === 0 ? {} : JSON.parse(Buffer.from(value).toString('utf8'));
  }
  return value ?? {};
}
