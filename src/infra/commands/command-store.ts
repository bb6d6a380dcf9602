import { Injectable } from '@nestjs/common';
import { DomainEvent } from '../domain/decider';
import { DomainError } from '../domain/domain-error';
import { AppendResult, ConcurrencyError, EventMetadata, Position, RecordedEvent } from '../event-store/event-store.port';
import { DomainStreamAppend, EventStoreService } from '../event-store/event-store.service';
import { recordAppendedPosition } from '../request-context';
import { KeyedLock } from './keyed-lock';
import { StateCache } from './state-cache';
import { StreamType } from './stream-type';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyStreamType = StreamType<any, any, any>;

export interface LoadedStream<TState> {
  state: TState;
  /** Last revision read, or 'no_stream'; pass it back as the expected revision. */
  revision: number | 'no_stream';
  /** The events read just now (all of them unless caught up from a cached state). */
  recorded: RecordedEvent[];
  /** True when the state is this process's memory of the stream, not read just now. */
  fromCache: boolean;
}

export interface HandledCommand<TState, TEvent> {
  state: TState;
  /** What was appended (none when the command changed nothing). */
  events: TEvent[];
  revision: number | 'no_stream';
  position: Position | null;
  /** The events the decision was made on, as `LoadedStream.recorded`. */
  recorded: RecordedEvent[];
}

export interface HandleOptions<TState> {
  /** Runs before the decision on every state tried, e.g. the tenant check (throw 404). */
  check?: (state: TState) => void;
  /** Overrides of the appended events' metadata (e.g. the tenant when a reactor writes). */
  metadata?: Partial<EventMetadata>;
  /** A state the caller loaded already, tried first. */
  preloaded?: LoadedStream<TState>;
}

/** One stream's share of an atomic commit (see `commit`); `type` and `state` keep its cache true. */
export interface DecidedAppend extends DomainStreamAppend {
  type?: AnyStreamType;
  /** The state the events were decided on (required with `type`). */
  state?: unknown;
}

/**
 * The one write path: load a stream's state, decide a command, append with the expected
 * revision, re-decide on a conflict. Every context's commands go through here; stream types
 * choose caching, serialisation, retries and event ids (see StreamType).
 */
@Injectable()
export class CommandStore {
  private readonly caches = new Map<AnyStreamType, StateCache<unknown>>();
  private readonly locks = new Map<AnyStreamType, KeyedLock>();

  constructor(readonly events: EventStoreService) {}

  /**
   * The stream's state read from the store (caught up from the cached state for cached types).
   * The newest position seen is noted in the request context: the response then waits until
   * the read models include it, even when the command turns out to be already done.
   */
  async load<TCommand, TState, TEvent extends DomainEvent>(type: StreamType<TCommand, TState, TEvent>, stream: string): Promise<LoadedStream<TState>> {
    const cached = type.fullReads ? undefined : (this.cacheOf(type)?.get(stream) as { state: TState; revision: number; position: Position | null } | undefined);
    const recorded = await this.events.store.readStream(stream, cached ? { fromRevision: cached.revision + 1 } : undefined);
    let state = cached ? cached.state : type.decider.initialState();
    for (const event of recorded) state = type.decider.evolve(state, { type: event.type, data: event.data, id: event.id } as unknown as TEvent);
    const last = recorded[recorded.length - 1];
    const revision = last ? last.revision : (cached?.revision ?? 'no_stream');
    const position = last ? last.position : (cached?.position ?? null);
    if (revision !== 'no_stream') this.remember(type, stream, state, revision, position);
    if (position) recordAppendedPosition(position);
    return { state, revision, recorded, fromCache: false };
  }

  /** This process's memory of the stream when it has one (cached types), else `load`. */
  async loadCached<TCommand, TState, TEvent extends DomainEvent>(type: StreamType<TCommand, TState, TEvent>, stream: string): Promise<LoadedStream<TState>> {
    return this.cached(type, stream) ?? this.load(type, stream);
  }

  /** The cached state without reading (undefined when none). */
  cached<TCommand, TState, TEvent extends DomainEvent>(type: StreamType<TCommand, TState, TEvent>, stream: string): LoadedStream<TState> | undefined {
    const entry = this.cacheOf(type)?.get(stream);
    if (!entry) return undefined;
    if (entry.position) recordAppendedPosition(entry.position);
    return { state: entry.state as TState, revision: entry.revision, recorded: [], fromCache: true };
  }

  /**
   * Load, decide, append at the revision decided on; on a concurrent write, re-decide on the
   * fresh state (the decider then answers from what the other writer recorded), up to the type's
   * `maxAttempts`, then 409 CONFLICT. `command` may be computed from the state (asynchronously
   * when it needs a read, e.g. whether a claim's holder still exists).
   */
  async handle<TCommand, TState, TEvent extends DomainEvent>(
    type: StreamType<TCommand, TState, TEvent>,
    stream: string,
    command: TCommand | ((state: TState) => TCommand | Promise<TCommand>),
    options: HandleOptions<TState> = {},
  ): Promise<HandledCommand<TState, TEvent>> {
    return this.serialized(type, [stream], async () => {
      let first = options.preloaded ?? this.cached(type, stream);
      for (let attempt = 1; ; attempt++) {
        const loaded = first ?? (await this.load(type, stream));
        first = undefined;
        let events: TEvent[];
        try {
          options.check?.(loaded.state);
          const built = typeof command === 'function' ? (command as (state: TState) => TCommand | Promise<TCommand>)(loaded.state) : command;
          events = type.decider.decide(built instanceof Promise ? await built : built, loaded.state);
        } catch (error) {
          // A refusal decided on memory is checked against the stream.
          if (loaded.fromCache && error instanceof DomainError) continue;
          throw error;
        }
        if (events.length === 0) {
          if (loaded.fromCache) continue;
          return { state: loaded.state, events, revision: loaded.revision, position: null, recorded: loaded.recorded };
        }
        try {
          const [appended] = await this.commit([{ type, state: loaded.state, streamName: stream, events, expectedRevision: loaded.revision, metadata: options.metadata }]);
          return { state: this.decide(type, loaded.state, events), events: withIds(type, stream, events) as TEvent[], revision: appended.nextExpectedRevision, position: appended.position, recorded: loaded.recorded };
        } catch (error) {
          if (!(error instanceof ConcurrencyError)) throw error;
          if (attempt >= (type.maxAttempts ?? 5)) throw new DomainError('CONFLICT', type.conflictMessage ?? 'The resource was changed concurrently; retry the request');
          const pauseMs = type.conflictBackoffMs?.(attempt) ?? 0;
          if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
        }
      }
    });
  }

  /** `events` applied to `state` (no I/O): the state after a decision. */
  decide<TCommand, TState, TEvent extends DomainEvent>(type: StreamType<TCommand, TState, TEvent>, state: TState, events: TEvent[]): TState {
    let next = state;
    for (const event of events) next = type.decider.evolve(next, event);
    return next;
  }

  /**
   * Appends decided events to one or several streams in ONE commit (several need an event store
   * with multi-stream appends): all or nothing. Caches of typed appends move to the new state;
   * on a ConcurrencyError (naming the stream that moved) nothing is written.
   */
  async commit(appends: DecidedAppend[]): Promise<AppendResult[]> {
    const prepared = appends.map((append) => ({ ...append, events: append.type ? withIds(append.type, append.streamName, append.events) : append.events }));
    let results: AppendResult[];
    try {
      results =
        prepared.length === 1
          ? [await this.events.append(prepared[0].streamName, prepared[0].events, prepared[0].expectedRevision, prepared[0].metadata)]
          : await this.events.appendToStreams(prepared);
    } catch (error) {
      // A cached state stays true at its revision: types that catch up keep it (the next read
      // continues from it); types that read whole streams drop it, so no one decides on it again.
      if (error instanceof ConcurrencyError) {
        for (const append of appends) {
          if (append.type?.fullReads && (appends.length === 1 || error.streamName === append.streamName)) this.forget(append.type, append.streamName);
        }
      }
      throw error;
    }
    prepared.forEach((append, index) => {
      if (append.type) this.remember(append.type, append.streamName, this.decide(append.type, append.state, append.events), results[index].nextExpectedRevision, results[index].position);
    });
    return results;
  }

  /** Runs `work` holding the streams' in-process locks when the type serialises (else at once). */
  serialized<T>(type: AnyStreamType, streams: string[], work: () => Promise<T>): Promise<T> {
    if (!type.serialize) return work();
    let lock = this.locks.get(type);
    if (!lock) this.locks.set(type, (lock = new KeyedLock()));
    return streams.length === 1 ? lock.run(streams[0], work) : lock.runAll(streams, work);
  }

  /** Notes a state this process knows to be the stream's at `revision` (cached types only). */
  remember(type: AnyStreamType, stream: string, state: unknown, revision: number, position: Position | null): void {
    const cache = this.cacheOf(type);
    if (!cache) return;
    const known = cache.get(stream);
    // A slower reader never rolls the cache back past a newer state.
    if (known && known.revision > revision) return;
    cache.set(stream, { state, revision, position: position ?? known?.position ?? null });
  }

  /** Drops what this process remembers of the stream (another writer moved it). */
  forget(type: AnyStreamType, stream: string): void {
    this.cacheOf(type)?.delete(stream);
  }

  private cacheOf(type: AnyStreamType): StateCache<unknown> | undefined {
    if (!type.cacheSize) return undefined;
    let cache = this.caches.get(type);
    if (!cache) {
      const lock = () => this.locks.get(type);
      this.caches.set(type, (cache = new StateCache(type.cacheSize, (stream) => lock()?.busy(stream) ?? false)));
    }
    return cache;
  }
}

/** The events with their type's deterministic ids (when it defines them). */
function withIds<TEvent extends DomainEvent>(type: AnyStreamType, stream: string, events: TEvent[]): TEvent[] {
  const eventId = type.eventId;
  return eventId ? events.map((event) => ({ ...event, id: eventId(stream, event) })) : events;
}

