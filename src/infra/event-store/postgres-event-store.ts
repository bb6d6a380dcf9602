import { EventEmitter } from 'node:events';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { Listening, listenOn } from '../postgres/listen';
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
  StreamAppend,
  SubscribeOptions,
  Subscription,
} from './event-store.port';
import {
  EVENT_STORE_NOTIFY_CHANNEL,
  EVENT_STORE_SCHEMA_LOCK_KEY,
  EVENT_STORE_SCHEMA_SQL,
  EXPECTED_ANY,
  EXPECTED_NO_STREAM,
  EXPECTED_STREAM_EXISTS,
  WRONG_EXPECTED_REVISION_SQLSTATE,
} from './postgres-event-store.sql';

export interface PostgresEventStoreOptions {
  /** Fallback poll period of idle subscriptions, in case a wake-up is missed. Default 50 ms. */
  pollIntervalMs?: number;
  /** Wake subscriptions of other processes through LISTEN/NOTIFY. Default false (poll only). */
  notify?: boolean;
  /**
   * How appends NOTIFY when `notify` is on. 'after-commit' (default): one coalesced
   * `pg_notify` statement after commits, off the append's round trip. 'in-transaction': pg_notify
   * inside es_append, which serialises committing appenders on the notify queue lock (see
   * bench/RESULTS.md); kept for measurement.
   */
  notifyStrategy?: 'after-commit' | 'in-transaction';
  /** Events read per query by subscriptions. Default 500. */
  subscriptionBatchSize?: number;
}

const DEFAULT_POLL_INTERVAL_MS = 50;
const DEFAULT_SUBSCRIPTION_BATCH_SIZE = 500;
/** First retry delay when committed events are hidden behind an older open transaction. */
const HIDDEN_EVENTS_FIRST_RETRY_MS = 2;
const UNIQUE_VIOLATION_SQLSTATE = '23505';

/**
 * Columns are read as text (bigint and xid8 exceed JS numbers). The aliases reuse the column
 * names, so every ORDER BY below must name the table's columns (`e.transaction_id`): a bare name
 * would sort by the text alias, where '1000' < '993'.
 */
const EVENT_COLUMNS = `e.global_position::text AS global_position, e.transaction_id::text AS transaction_id,
  e.event_id::text AS event_id, e.stream_name, e.stream_revision::text AS stream_revision, e.event_type, e.data, e.metadata, e.created_at`;

/**
 * Events are visible to $all readers only once every transaction with a smaller id has ended:
 * rows below the snapshot's xmin can no longer be joined by rows of an older, still open
 * transaction, so reading in (transaction_id, global_position) order never skips an event.
 */
const READ_ALL_SQL = `SELECT ${EVENT_COLUMNS} FROM events e
  WHERE (e.transaction_id, e.global_position) > ($1::text::xid8, $2::bigint)
    AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY e.transaction_id, e.global_position
  LIMIT $3`;

const HEAD_POSITION_SQL = `SELECT e.transaction_id::text AS transaction_id, e.global_position::text AS global_position
  FROM events e WHERE e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`;

/** Events after a position, capped; committed ones still hidden behind an open transaction count too. */
const COUNT_AFTER_SQL = `SELECT count(*)::int AS count FROM (
  SELECT 1 FROM events e WHERE (e.transaction_id, e.global_position) > ($1::text::xid8, $2::bigint) LIMIT $3) AS after`;

/** Whether committed events exist that readers cannot see yet (an older transaction is still open). */
const HIDDEN_EVENTS_SQL = `SELECT EXISTS (SELECT 1 FROM events
  WHERE transaction_id >= pg_snapshot_xmin(pg_current_snapshot())) AS hidden`;

const READ_STREAM_SQL = `SELECT ${EVENT_COLUMNS} FROM events e
  WHERE e.stream_name = $1 AND e.stream_revision >= $2
  ORDER BY e.stream_revision LIMIT $3`;

/**
 * The append's fast path, one statement: inserts the batch at the revisions after the expected
 * one, provided the expected revision is the stream's last (checked through the unique key on
 * (stream_name, stream_revision): revision $2 must exist and $2 + 1 must not). Settles exact and
 * no_stream expectations when nothing is in the way; otherwise it inserts nothing (the expected
 * revision does not exist) or fails on a unique key (it is not the last, or the batch is a retry),
 * and es_append settles the case. Data and metadata travel as one JSON array each, cheaper to
 * encode and decode than Postgres array literals of jsonb.
 */
const APPEND_FAST_SQL = `WITH inserted AS (
  INSERT INTO events (event_id, stream_name, stream_revision, event_type, data, metadata)
  SELECT b.event_id, $1, $2::bigint + b.ordinal, b.event_type, b.data, b.metadata
    FROM ROWS FROM (unnest($3::uuid[]), unnest($4::text[]), jsonb_array_elements($5::jsonb), jsonb_array_elements($6::jsonb))
         WITH ORDINALITY AS b(event_id, event_type, data, metadata, ordinal)
   WHERE $2::bigint = -1 OR EXISTS (SELECT 1 FROM events s WHERE s.stream_name = $1 AND s.stream_revision = $2::bigint)
   ORDER BY b.ordinal
  RETURNING global_position, transaction_id
)
SELECT count(*)::int AS inserted, max(global_position)::text AS prepare_position, max(transaction_id::text) AS commit_position
  FROM inserted`;

/** The fast path for the commonest append, a single event: no arrays to unpack, no sort. */
const APPEND_ONE_FAST_SQL = `INSERT INTO events (event_id, stream_name, stream_revision, event_type, data, metadata)
  SELECT $3::uuid, $1::text, $2::bigint + 1, $4::text, $5::jsonb, $6::jsonb
   WHERE $2::bigint = -1 OR EXISTS (SELECT 1 FROM events s WHERE s.stream_name = $1::text AND s.stream_revision = $2::bigint)
  RETURNING global_position::text AS prepare_position, transaction_id::text AS commit_position`;

const APPEND_SQL = `SELECT next_revision::text AS next_revision, commit_position::text AS commit_position,
  prepare_position::text AS prepare_position
  FROM es_append($1, $2, $3::uuid[], $4::text[], $5::jsonb, $6::jsonb, $7)`;

const APPEND_MANY_SQL = `SELECT commit_position::text AS commit_position, prepare_positions::text[] AS prepare_positions
  FROM es_append_many($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::uuid[], $6::text[], $7::jsonb, $8::jsonb, $9)`;

/**
 * The fast path of appendToStreams (the ledger's commonest append), as APPEND_FAST_SQL is for one
 * stream: one plain statement instead of the plpgsql es_append_many, whose function calls and
 * three statements cost about as much Postgres CPU as the insert itself. Every stream in the
 * batch gets events from its expected revision + 1 on, so the same reasoning holds: revision $2
 * must exist (or the stream be new, -1) and the unique key on (stream_name, stream_revision)
 * refuses a revision already taken. The check is one uncorrelated condition, so the statement
 * inserts every event or none; none (a stream is not where expected) falls back to
 * es_append_many, which names the stream and its revision. Parameters as es_append_many's, less
 * the NOTIFY channel.
 */
const APPEND_MANY_FAST_SQL = `WITH inserted AS (
  INSERT INTO events (event_id, stream_name, stream_revision, event_type, data, metadata)
  SELECT b.event_id, b.stream_name, b.revision, b.event_type, b.data, b.metadata
    FROM ROWS FROM (unnest($5::uuid[]), unnest($3::text[]), unnest($4::bigint[]), unnest($6::text[]),
                    jsonb_array_elements($7::jsonb), jsonb_array_elements($8::jsonb))
         WITH ORDINALITY AS b(event_id, stream_name, revision, event_type, data, metadata, ordinal)
   WHERE NOT EXISTS (
     SELECT 1 FROM unnest($1::text[], $2::bigint[]) AS c(stream_name, expected)
      WHERE c.expected <> -1
        AND NOT EXISTS (SELECT 1 FROM events s WHERE s.stream_name = c.stream_name AND s.stream_revision = c.expected))
   ORDER BY b.ordinal
  RETURNING global_position, transaction_id
)
SELECT count(*)::int AS inserted, max(transaction_id::text) AS commit_position,
       array_agg(global_position::text ORDER BY global_position) AS prepare_positions
  FROM inserted`;

/**
 * How often a racing append is re-run through es_append before the race is reported as a
 * conflict. An exact expectation settles on the second run (the revision is taken); only racing
 * 'any' and 'stream_exists' appenders need more.
 */
const MAX_APPEND_ATTEMPTS = 32;

/** How soon a lost LISTEN connection is made again for onAppendedElsewhere listeners. */
const LISTENER_RETRY_MS = 1000;

interface FastAppendRow extends QueryResultRow {
  inserted: number;
  prepare_position: string | null;
  commit_position: string | null;
}

interface AppendManyRow extends QueryResultRow {
  commit_position: string;
  prepare_positions: string[];
}

interface FastAppendManyRow extends QueryResultRow {
  inserted: number;
  commit_position: string | null;
  prepare_positions: string[] | null;
}

interface EventRow extends QueryResultRow {
  global_position: string;
  transaction_id: string;
  event_id: string;
  stream_name: string;
  stream_revision: string;
  event_type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  created_at: Date;
}

interface AppendRow extends QueryResultRow {
  next_revision: string;
  commit_position: string;
  prepare_position: string;
}

/** Anything that runs a query: the pool, or a client inside a caller's transaction. */
type Queryable = Pick<Pool, 'query'> | Pick<PoolClient, 'query'>;

export class PostgresEventStore implements EventStore {
  private readonly pollIntervalMs: number;
  private readonly notify: boolean;
  private readonly notifyStrategy: 'after-commit' | 'in-transaction';
  private readonly subscriptionBatchSize: number;
  /** Fired after this process's own appends commit, and on NOTIFY from other processes. */
  private readonly appended = new EventEmitter();
  private readonly subscriptions = new Set<PostgresSubscription>();
  /** onAppendedElsewhere listeners: woken by NOTIFYs only. */
  private readonly elsewhereListeners = new Set<() => void>();
  private listener: Listening | null = null;
  private listenerConnecting: Promise<void> | null = null;
  private notifyInFlight = false;
  private notifyPending = false;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    options: PostgresEventStoreOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.notify = options.notify ?? false;
    this.notifyStrategy = options.notifyStrategy ?? 'after-commit';
    this.subscriptionBatchSize = options.subscriptionBatchSize ?? DEFAULT_SUBSCRIPTION_BATCH_SIZE;
    this.appended.setMaxListeners(0);
  }

  /** Creates the tables and functions; safe to call from several processes booting at once. */
  static async ensureSchema(pool: Pool): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [EVENT_STORE_SCHEMA_LOCK_KEY.toString()]);
      await client.query(EVENT_STORE_SCHEMA_SQL);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async appendToStream(streamName: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    const result = await this.appendWith(this.pool, streamName, events, options, true);
    this.appended.emit('appended');
    if (this.notify && this.notifyStrategy === 'after-commit') this.scheduleNotify();
    return result;
  }

  /**
   * Appends to several streams in one statement, hence one commit (see the port). The expected
   * revisions are checked by APPEND_MANY_FAST_SQL (or es_append_many, which names a stream that is
   * not where expected); a racing writer or an already stored event id fails the INSERT on a
   * unique key, which rolls the whole statement back.
   */
  async appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]> {
    if (appends.length === 0) throw new Error('appendToStreams needs at least one stream');
    const seen = new Set<string>();
    /** Stream of each event id, to name the stream of a duplicate id. */
    const streamOf = new Map<string, string>();
    const streamNames: string[] = [];
    const revisions: number[] = [];
    const events: NewEvent[] = [];
    for (const { streamName, events: streamEvents, expectedRevision } of appends) {
      if (streamEvents.length === 0) throw new Error(`appendToStreams: no events for ${streamName}`);
      if (seen.has(streamName)) throw new Error(`appendToStreams: ${streamName} appears twice`);
      if (expectedRevision !== 'no_stream' && (!Number.isSafeInteger(expectedRevision) || expectedRevision < 0)) {
        throw new Error(`appendToStreams: invalid expected revision ${String(expectedRevision)} for ${streamName}`);
      }
      seen.add(streamName);
      const first = (expectedRevision === 'no_stream' ? -1 : expectedRevision) + 1;
      streamEvents.forEach((event, index) => {
        streamOf.set(event.id, streamName);
        streamNames.push(streamName);
        revisions.push(first + index);
        events.push(event);
      });
    }
    const notifyChannel = this.notify && this.notifyStrategy === 'in-transaction' ? EVENT_STORE_NOTIFY_CHANNEL : null;
    const values = [
      appends.map((append) => append.streamName),
      appends.map((append) => encodeExpectedRevision(append.expectedRevision)),
      streamNames,
      revisions,
      events.map((event) => event.id),
      events.map((event) => event.type),
      JSON.stringify(events.map((event) => event.data)),
      JSON.stringify(events.map((event) => event.metadata)),
    ];
    let row: AppendManyRow;
    try {
      const fast =
        notifyChannel === null
          ? (await this.pool.query<FastAppendManyRow>({ name: 'es_append_many_fast', text: APPEND_MANY_FAST_SQL, values })).rows[0]
          : null;
      if (fast && fast.inserted === events.length) {
        row = fast as AppendManyRow;
      } else {
        // A stream is not where expected (es_append_many names it), or a NOTIFY goes with the append.
        const result = await this.pool.query<AppendManyRow>({ name: 'es_append_many', text: APPEND_MANY_SQL, values: [...values, notifyChannel] });
        row = result.rows[0];
      }
    } catch (error) {
      throw await this.multiAppendConflict(error, appends, streamOf);
    }
    const commit = BigInt(row.commit_position);
    let offset = 0;
    const results = appends.map((append) => {
      offset += append.events.length;
      return {
        nextExpectedRevision: (append.expectedRevision === 'no_stream' ? -1 : append.expectedRevision) + append.events.length,
        position: { commit, prepare: BigInt(row.prepare_positions[offset - 1]) },
      };
    });
    this.appended.emit('appended');
    if (this.notify && this.notifyStrategy === 'after-commit') this.scheduleNotify();
    return results;
  }

  /** The ConcurrencyError naming the stream a failed es_append_many tripped on, or `error` itself. */
  private async multiAppendConflict(error: unknown, appends: StreamAppend[], streamOf: Map<string, string>): Promise<unknown> {
    const expectedOf = (streamName: string) => appends.find((append) => append.streamName === streamName)?.expectedRevision ?? 'any';
    if (isPgError(error, WRONG_EXPECTED_REVISION_SQLSTATE)) {
      const streamName = (error as PgError & { hint?: string }).hint ?? appends[0].streamName;
      return new ConcurrencyError(streamName, expectedOf(streamName), decodeActualRevision(error.detail));
    }
    if (!isPgError(error, UNIQUE_VIOLATION_SQLSTATE)) return error;
    // DETAIL: Key (stream_name, stream_revision)=(<stream>, <n>) already exists. / Key (event_id)=(<uuid>) already exists.
    const key = /\)=\((.*)\) already exists/.exec(error.detail ?? '')?.[1] ?? '';
    const streamName =
      error.constraint === 'events_event_id_key'
        ? streamOf.get(key) ?? appends[0].streamName
        : appends.find((append) => key.startsWith(`${append.streamName}, `))?.streamName ?? appends[0].streamName;
    return new ConcurrencyError(streamName, expectedOf(streamName), await this.currentRevision(streamName));
  }

  /**
   * Appends inside a transaction the caller owns (BEGIN/COMMIT on `client`), e.g. to write events
   * atomically with other rows. Subscriptions see the events after the commit, on their next poll.
   */
  appendToStreamInTransaction(
    client: PoolClient,
    streamName: string,
    events: NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    return this.appendWith(client, streamName, events, options, false);
  }

  async readStream(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const result = await this.pool.query<EventRow>({
      name: 'es_read_stream',
      text: READ_STREAM_SQL,
      values: [streamName, options.fromRevision ?? 0, options.maxCount ?? null],
    });
    return result.rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    const from = options.from ?? START_POSITION;
    // xid8 has no negative values; 0 is below every real transaction id.
    const commit = from.commit < 0n ? 0n : from.commit;
    const result = await this.pool.query<EventRow>({
      name: 'es_read_all',
      text: READ_ALL_SQL,
      values: [commit.toString(), from.prepare.toString(), options.limit],
    });
    return result.rows.map(toRecordedEvent);
  }

  async headPosition(): Promise<Position> {
    const result = await this.pool.query<{ transaction_id: string; global_position: string }>({
      name: 'es_head_position',
      text: HEAD_POSITION_SQL,
    });
    const row = result.rows[0];
    if (row === undefined) return START_POSITION;
    return { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) };
  }

  async countEventsAfter(from: Position, max: number): Promise<number> {
    const commit = from.commit < 0n ? 0n : from.commit;
    const result = await this.pool.query<{ count: number }>({
      name: 'es_count_after',
      text: COUNT_AFTER_SQL,
      values: [commit.toString(), from.prepare.toString(), max],
    });
    return result.rows[0].count;
  }

  subscribeToAll(options: SubscribeOptions = {}): Subscription {
    if (this.closed) throw new Error('PostgresEventStore is closed');
    const subscription = new PostgresSubscription(this, options.from ?? START_POSITION, this.subscriptionBatchSize);
    this.subscriptions.add(subscription);
    this.appended.on('appended', subscription.wake);
    void this.ensureListener();
    return subscription;
  }

  onAppendedElsewhere(listener: () => void): () => void {
    this.elsewhereListeners.add(listener);
    void this.ensureListener();
    return () => {
      if (!this.elsewhereListeners.delete(listener)) return;
      if (!this.listenerWanted) void this.releaseListener();
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.elsewhereListeners.clear();
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.releaseListener();
    this.appended.removeAllListeners();
  }

  /** @internal Used by subscriptions. */
  get idlePollIntervalMs(): number {
    return this.pollIntervalMs;
  }

  /** @internal */
  async hasHiddenEvents(): Promise<boolean> {
    const result = await this.pool.query<{ hidden: boolean }>({ name: 'es_hidden_events', text: HIDDEN_EVENTS_SQL });
    return result.rows[0]?.hidden === true;
  }

  /** @internal Releases the LISTEN connection once no subscription is left. */
  async subscriptionEnded(subscription: PostgresSubscription): Promise<void> {
    this.appended.off('appended', subscription.wake);
    this.subscriptions.delete(subscription);
    if (!this.listenerWanted) await this.releaseListener();
  }

  private get listenerWanted(): boolean {
    return this.subscriptions.size > 0 || this.elsewhereListeners.size > 0;
  }

  /** @internal Re-establishes LISTEN after a lost connection; cheap when already listening. */
  ensureListener(): Promise<void> {
    if (!this.notify || this.closed || this.listener !== null || !this.listenerWanted) return Promise.resolve();
    this.listenerConnecting ??= this.connectListener().finally(() => {
      this.listenerConnecting = null;
    });
    return this.listenerConnecting;
  }

  private async connectListener(): Promise<void> {
    const retryLater = () => {
      // Subscriptions reconnect on their next idle cycle; other listeners only poll, so retry here.
      if (this.elsewhereListeners.size > 0 && !this.closed) setTimeout(() => void this.ensureListener(), LISTENER_RETRY_MS).unref();
    };
    try {
      const listening: Listening = await listenOn(
        this.pool,
        EVENT_STORE_NOTIFY_CHANNEL,
        () => {
          this.appended.emit('appended');
          for (const listener of this.elsewhereListeners) listener();
        },
        () => {
          if (this.listener === listening) this.listener = null;
          retryLater();
        },
      );
      if (this.closed || !this.listenerWanted) {
        listening.drop();
        return;
      }
      this.listener = listening;
    } catch {
      retryLater();
    }
  }

  private async releaseListener(): Promise<void> {
    await this.listenerConnecting;
    const listener = this.listener;
    this.listener = null;
    listener?.drop();
  }

  /** Coalesces NOTIFYs: at most one in flight and one queued, whatever the append rate. */
  private scheduleNotify(): void {
    if (this.notifyInFlight) {
      this.notifyPending = true;
      return;
    }
    this.notifyInFlight = true;
    this.pool
      .query({ name: 'es_notify', text: "SELECT pg_notify($1, '')", values: [EVENT_STORE_NOTIFY_CHANNEL] })
      .catch(() => undefined)
      .finally(() => {
        this.notifyInFlight = false;
        if (this.notifyPending) {
          this.notifyPending = false;
          this.scheduleNotify();
        }
      });
  }

  private async appendWith(
    queryable: Queryable,
    streamName: string,
    events: NewEvent[],
    options: AppendOptions,
    autocommit: boolean,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('appendToStream needs at least one event');
    const expected = encodeExpectedRevision(options.expectedRevision);
    const notifyChannel = this.notify && this.notifyStrategy === 'in-transaction' ? EVENT_STORE_NOTIFY_CHANNEL : null;
    const ids = events.map((event) => event.id);
    const types = events.map((event) => event.type);
    const data = () => JSON.stringify(events.map((event) => event.data));
    const metadata = () => JSON.stringify(events.map((event) => event.metadata));

    // Inside a caller's transaction a unique-key failure would abort that transaction, leaving no
    // way to settle the case: the fast path runs in autocommit only.
    if (autocommit && expected >= EXPECTED_NO_STREAM && notifyChannel === null) {
      try {
        const single = events.length === 1;
        const result = single
          ? await queryable.query<FastAppendRow>({
              name: 'es_append_one_fast',
              text: APPEND_ONE_FAST_SQL,
              values: [streamName, expected, ids[0], types[0], JSON.stringify(events[0].data), JSON.stringify(events[0].metadata)],
            })
          : await queryable.query<FastAppendRow>({
              name: 'es_append_fast',
              text: APPEND_FAST_SQL,
              values: [streamName, expected, ids, types, data(), metadata()],
            });
        const row = single ? { ...result.rows[0], inserted: result.rowCount ?? 0 } : result.rows[0];
        if (row && row.inserted === events.length) {
          return {
            nextExpectedRevision: expected + events.length,
            position: { commit: BigInt(row.commit_position!), prepare: BigInt(row.prepare_position!) },
          };
        }
      } catch (error) {
        if (!isPgError(error, UNIQUE_VIOLATION_SQLSTATE)) throw error;
      }
    }

    for (let attempt = 1; ; attempt++) {
      try {
        const result = await queryable.query<AppendRow>({
          name: 'es_append',
          text: APPEND_SQL,
          values: [streamName, expected, ids, types, data(), metadata(), notifyChannel],
        });
        const row = result.rows[0];
        return {
          nextExpectedRevision: Number(row.next_revision),
          position: { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) },
        };
      } catch (error) {
        if (isPgError(error, WRONG_EXPECTED_REVISION_SQLSTATE)) {
          throw new ConcurrencyError(streamName, options.expectedRevision, decodeActualRevision(error.detail));
        }
        if (isPgError(error, UNIQUE_VIOLATION_SQLSTATE)) {
          // A concurrent append took the revision (or stored this very batch) between es_append's
          // check and its insert: running it again reports the conflict or the stored batch.
          if (autocommit && attempt < MAX_APPEND_ATTEMPTS) continue;
          throw new ConcurrencyError(streamName, options.expectedRevision, await this.currentRevision(streamName));
        }
        throw error;
      }
    }
  }

  private async currentRevision(streamName: string): Promise<number | 'no_stream'> {
    const result = await this.pool.query<{ revision: string | null }>(
      'SELECT max(stream_revision)::text AS revision FROM events WHERE stream_name = $1',
      [streamName],
    );
    const row = result.rows[0];
    return row?.revision == null ? 'no_stream' : Number(row.revision);
  }
}

/**
 * Catch-up subscription: reads $all in batches, and when caught up waits for a wake-up (own
 * appends, NOTIFY) or the poll interval. When committed events are hidden behind an older open
 * transaction it retries after a few milliseconds instead of a full poll interval.
 */
class PostgresSubscription implements Subscription {
  private stopped = false;
  private iterating = false;
  private wakePending = false;
  private wakeWaiter: (() => void) | null = null;
  private inFlight: Promise<unknown> | null = null;
  /** Wake-up callback, fired after appends and NOTIFYs. */
  readonly wake = (): void => {
    this.wakePending = true;
    const waiter = this.wakeWaiter;
    this.wakeWaiter = null;
    waiter?.();
  };

  constructor(
    private readonly store: PostgresEventStore,
    private position: Position,
    private readonly batchSize: number,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.iterating) throw new Error('A subscription can be iterated only once');
    this.iterating = true;
    let hiddenRetryMs = HIDDEN_EVENTS_FIRST_RETRY_MS;
    try {
      while (!this.stopped) {
        this.wakePending = false;
        const batch = await this.track(this.store.readAll({ from: this.position, limit: this.batchSize }));
        for (const event of batch) {
          if (this.stopped) return;
          this.position = event.position;
          yield event;
        }
        if (batch.length === this.batchSize) continue;
        if (batch.length > 0) hiddenRetryMs = HIDDEN_EVENTS_FIRST_RETRY_MS;
        if (this.stopped) return;
        void this.store.ensureListener();
        const hidden = await this.track(this.store.hasHiddenEvents());
        if (hidden) {
          await this.waitForWake(hiddenRetryMs);
          hiddenRetryMs = Math.min(hiddenRetryMs * 2, this.store.idlePollIntervalMs);
        } else {
          hiddenRetryMs = HIDDEN_EVENTS_FIRST_RETRY_MS;
          await this.waitForWake(this.store.idlePollIntervalMs);
        }
      }
    } finally {
      this.stopped = true;
      await this.store.subscriptionEnded(this);
    }
  }

  /** Ends iteration at the next step; the consumer's pending `next()` resolves with done. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.inFlight?.catch(() => undefined);
    await this.store.subscriptionEnded(this);
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight = promise;
    return promise;
  }

  private waitForWake(timeoutMs: number): Promise<void> {
    if (this.wakePending || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeWaiter = null;
        resolve();
      }, timeoutMs);
      this.wakeWaiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

function encodeExpectedRevision(expected: ExpectedRevision): number {
  switch (expected) {
    case 'no_stream':
      return EXPECTED_NO_STREAM;
    case 'any':
      return EXPECTED_ANY;
    case 'stream_exists':
      return EXPECTED_STREAM_EXISTS;
    default:
      if (!Number.isSafeInteger(expected) || expected < 0) throw new Error(`Invalid expected revision ${expected}`);
      return expected;
  }
}

function decodeActualRevision(detail: string | undefined): number | 'no_stream' {
  const revision = Number(detail ?? '-1');
  return revision < 0 || Number.isNaN(revision) ? 'no_stream' : revision;
}

interface PgError extends Error {
  code: string;
  detail?: string;
  constraint?: string;
}

function isPgError(error: unknown, code: string): error is PgError {
  return error instanceof Error && (error as Partial<PgError>).code === code;
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    streamName: row.stream_name,
    revision: Number(row.stream_revision),
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
    createdAt: row.created_at,
  };
}
