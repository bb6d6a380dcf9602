import type { Pool, PoolClient, QueryResultRow } from 'pg';
import {
  AppendOptions,
  AppendResult,
  EventMetadata,
  EventStore,
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
import { appendToManyStreams } from './postgres-append-many';
import { appendToOneStream } from './postgres-append';
import { AppendSignals } from './postgres-append-signals';
import { EVENT_STORE_SCHEMA_LOCK_KEY, EVENT_STORE_SCHEMA_SQL } from './postgres-event-store.sql';
import { PostgresSubscription, SubscriptionSource } from './postgres-subscription';

export interface PostgresEventStoreOptions {
  /** Fallback poll period of idle subscriptions, in case a wake-up is missed. Default 50 ms. */
  pollIntervalMs?: number;
  /**
   * Wake subscriptions of other processes through LISTEN/NOTIFY (a NOTIFY after each append
   * commits, see AppendSignals). Default false (poll only).
   */
  notify?: boolean;
  /** Events read per query by subscriptions. Default 500. */
  subscriptionBatchSize?: number;
}

const DEFAULT_POLL_INTERVAL_MS = 50;
const DEFAULT_SUBSCRIPTION_BATCH_SIZE = 500;

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

/**
 * The event store on Postgres: one `events` table (postgres-event-store.sql.ts), appends through
 * postgres-append.ts and postgres-append-many.ts, wake-ups through AppendSignals, catch-up
 * subscriptions through PostgresSubscription.
 */
export class PostgresEventStore implements EventStore, SubscriptionSource {
  private readonly pollIntervalMs: number;
  private readonly subscriptionBatchSize: number;
  private readonly signals: AppendSignals;
  private readonly subscriptions = new Set<PostgresSubscription>();
  private closed = false;

  constructor(
    private readonly pool: Pool,
    options: PostgresEventStoreOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.subscriptionBatchSize = options.subscriptionBatchSize ?? DEFAULT_SUBSCRIPTION_BATCH_SIZE;
    this.signals = new AppendSignals(pool, options.notify ?? false);
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
    const result = await appendToOneStream(this.pool, this.pool, streamName, events, options, true);
    this.signals.appended();
    return result;
  }

  async appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]> {
    const results = await appendToManyStreams(this.pool, appends);
    this.signals.appended();
    return results;
  }

  /**
   * Appends inside a transaction the caller owns (BEGIN/COMMIT on `client`), e.g. to write events
   * atomically with other rows. Subscriptions see the events after the commit, on their next poll.
   */
  appendToStreamInTransaction(client: PoolClient, streamName: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    return appendToOneStream(this.pool, client, streamName, events, options, false);
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
    this.signals.subscribe(subscription.wake);
    return subscription;
  }

  onAppendedElsewhere(listener: () => void): () => void {
    return this.signals.onAppendedElsewhere(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    const signalsClosed = this.signals.close();
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await signalsClosed;
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
    this.subscriptions.delete(subscription);
    await this.signals.unsubscribe(subscription.wake);
  }

  /** @internal Re-establishes LISTEN after a lost connection; cheap when already listening. */
  ensureListener(): Promise<void> {
    return this.signals.ensureListener();
  }
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
