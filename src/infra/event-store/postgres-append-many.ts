import type { Pool, QueryResultRow } from 'pg';
import { AppendResult, ConcurrencyError, NewEvent, StreamAppend } from './event-store.port';
import { UNIQUE_VIOLATION_SQLSTATE, currentRevision, decodeActualRevision, encodeExpectedRevision, isPgError } from './postgres-append';
import { WRONG_EXPECTED_REVISION_SQLSTATE } from './postgres-event-store.sql';

/** The atomic append to several streams (PostgresEventStore.appendToStreams). */

const APPEND_MANY_SQL = `SELECT commit_position::text AS commit_position, prepare_positions::text[] AS prepare_positions
  FROM es_append_many($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::uuid[], $6::text[], $7::jsonb, $8::jsonb)`;

/**
 * The fast path of appendToStreams (the ledger's commonest append), as the one-stream fast path
 * is for one stream: one plain statement instead of the plpgsql es_append_many, whose function
 * calls and three statements cost about as much Postgres CPU as the insert itself. Every stream
 * in the batch gets events from its expected revision + 1 on, so the same reasoning holds:
 * revision $2 must exist (or the stream be new, -1) and the unique key on (stream_name,
 * stream_revision) refuses a revision already taken. The check is one uncorrelated condition, so
 * the statement inserts every event or none; none (a stream is not where expected) falls back to
 * es_append_many, which names the stream and its revision. Parameters as es_append_many's.
 */
export const APPEND_MANY_FAST_SQL = `WITH inserted AS (
  INSERT INTO events (event_id, stream_name, stream_revision, event_type, data, metadata)
  SELECT b.event_id, b.stream_name, b.revision, b.event_type, b.data, b.metadata
    FROM ROWS FROM (unnest($5::uuid[]), unnest($3::text[]), unnest($4::bigint[]), unnest($6::text[]),
                    jsonb_array_elements($7::jsonb), jsonb_array_elements($8::jsonb))
         WITH ORDINALITY AS b(event_id, stream_name, revision, event_type, data, metadata, ordinal)
   WHERE NOT EXISTS (
     SELECT 1 FROM unnest($1::text[], $2::bigint[]) AS c(stream_name, expected)
      WHERE c.expected <> -1 AND NOT es_stream_at(c.stream_name, c.expected))
   ORDER BY b.ordinal
  RETURNING global_position, transaction_id
)
SELECT count(*)::int AS inserted, max(transaction_id::text) AS commit_position,
       array_agg(global_position::text ORDER BY global_position) AS prepare_positions
  FROM inserted`;

interface AppendManyRow extends QueryResultRow {
  commit_position: string;
  prepare_positions: string[];
}

interface FastAppendManyRow extends QueryResultRow {
  inserted: number;
  commit_position: string | null;
  prepare_positions: string[] | null;
}

/**
 * Appends to several streams in one statement, hence one commit (see the port). The expected
 * revisions are checked by APPEND_MANY_FAST_SQL (or es_append_many, which names a stream that is
 * not where expected); a racing writer or an already stored event id fails the INSERT on a
 * unique key, which rolls the whole statement back.
 */
export async function appendToManyStreams(pool: Pool, appends: StreamAppend[]): Promise<AppendResult[]> {
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
    const fast = (await pool.query<FastAppendManyRow>({ name: 'es_append_many_fast', text: APPEND_MANY_FAST_SQL, values })).rows[0];
    if (fast && fast.inserted === events.length) {
      row = fast as AppendManyRow;
    } else {
      // A stream is not where expected: es_append_many names it.
      row = (await pool.query<AppendManyRow>({ name: 'es_append_many', text: APPEND_MANY_SQL, values })).rows[0];
    }
  } catch (error) {
    throw await multiAppendConflict(pool, error, appends, streamOf);
  }
  const commit = BigInt(row.commit_position);
  let offset = 0;
  return appends.map((append) => {
    offset += append.events.length;
    return {
      nextExpectedRevision: (append.expectedRevision === 'no_stream' ? -1 : append.expectedRevision) + append.events.length,
      position: { commit, prepare: BigInt(row.prepare_positions[offset - 1]) },
    };
  });
}

/** The ConcurrencyError naming the stream a failed es_append_many tripped on, or `error` itself. */
async function multiAppendConflict(pool: Pool, error: unknown, appends: StreamAppend[], streamOf: Map<string, string>): Promise<unknown> {
  const expectedOf = (streamName: string) => appends.find((append) => append.streamName === streamName)?.expectedRevision ?? 'any';
  if (isPgError(error, WRONG_EXPECTED_REVISION_SQLSTATE)) {
    const streamName = error.hint ?? appends[0].streamName;
    return new ConcurrencyError(streamName, expectedOf(streamName), decodeActualRevision(error.detail));
  }
  if (!isPgError(error, UNIQUE_VIOLATION_SQLSTATE)) return error;
  // DETAIL: Key (stream_name, stream_revision)=(<stream>, <n>) already exists. / Key (event_id)=(<uuid>) already exists.
  const key = /\)=\((.*)\) already exists/.exec(error.detail ?? '')?.[1] ?? '';
  const streamName =
    error.constraint === 'events_event_id_key'
      ? streamOf.get(key) ?? appends[0].streamName
      : appends.find((append) => key.startsWith(`${append.streamName}, `))?.streamName ?? appends[0].streamName;
  return new ConcurrencyError(streamName, expectedOf(streamName), await currentRevision(pool, streamName));
}
