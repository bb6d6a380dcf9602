import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { AppendOptions, AppendResult, ConcurrencyError, ExpectedRevision, NewEvent } from './event-store.port';
import { EXPECTED_ANY, EXPECTED_NO_STREAM, EXPECTED_STREAM_EXISTS, WRONG_EXPECTED_REVISION_SQLSTATE } from './postgres-event-store.sql';

/**
 * The append to one stream (PostgresEventStore.appendToStream and appendToStreamInTransaction):
 * a one-statement fast path for the common cases, es_append for the rest.
 */

export const UNIQUE_VIOLATION_SQLSTATE = '23505';

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
  FROM es_append($1, $2, $3::uuid[], $4::text[], $5::jsonb, $6::jsonb)`;

/**
 * How often a racing append is re-run through es_append before the race is reported as a
 * conflict. An exact expectation settles on the second run (the revision is taken); only racing
 * 'any' and 'stream_exists' appenders need more.
 */
const MAX_APPEND_ATTEMPTS = 32;

interface FastAppendRow extends QueryResultRow {
  inserted: number;
  prepare_position: string | null;
  commit_position: string | null;
}

interface AppendRow extends QueryResultRow {
  next_revision: string;
  commit_position: string;
  prepare_position: string;
}

/** Anything that runs a query: the pool, or a client inside a caller's transaction. */
type Queryable = Pick<Pool, 'query'> | Pick<PoolClient, 'query'>;

/**
 * Appends `events` to `streamName` through `queryable`. `autocommit`: the statement is its own
 * transaction (the pool), so the fast path may fail on a unique key and the race be settled by
 * running es_append again; inside a caller's transaction (a client) that failure would abort it.
 */
export async function appendToOneStream(
  pool: Pool,
  queryable: Queryable,
  streamName: string,
  events: NewEvent[],
  options: AppendOptions,
  autocommit: boolean,
): Promise<AppendResult> {
  if (events.length === 0) throw new Error('appendToStream needs at least one event');
  const expected = encodeExpectedRevision(options.expectedRevision);
  if (autocommit && expected >= EXPECTED_NO_STREAM) {
    const fast = await appendFast(queryable, streamName, expected, events);
    if (fast) return fast;
  }
  const values = [
    streamName,
    expected,
    events.map((event) => event.id),
    events.map((event) => event.type),
    JSON.stringify(events.map((event) => event.data)),
    JSON.stringify(events.map((event) => event.metadata)),
  ];
  for (let attempt = 1; ; attempt++) {
    try {
      const row = (await queryable.query<AppendRow>({ name: 'es_append', text: APPEND_SQL, values })).rows[0];
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
        throw new ConcurrencyError(streamName, options.expectedRevision, await currentRevision(pool, streamName));
      }
      throw error;
    }
  }
}

/** The fast path (exact and no_stream expectations): the result, or null when es_append must settle the case. */
async function appendFast(queryable: Queryable, streamName: string, expected: number, events: NewEvent[]): Promise<AppendResult | null> {
  try {
    const single = events.length === 1;
    const result = single
      ? await queryable.query<FastAppendRow>({
          name: 'es_append_one_fast',
          text: APPEND_ONE_FAST_SQL,
          values: [streamName, expected, events[0].id, events[0].type, JSON.stringify(events[0].data), JSON.stringify(events[0].metadata)],
        })
      : await queryable.query<FastAppendRow>({
          name: 'es_append_fast',
          text: APPEND_FAST_SQL,
          values: [
            streamName,
            expected,
            events.map((event) => event.id),
            events.map((event) => event.type),
            JSON.stringify(events.map((event) => event.data)),
            JSON.stringify(events.map((event) => event.metadata)),
          ],
        });
    const row = single ? { ...result.rows[0], inserted: result.rowCount ?? 0 } : result.rows[0];
    if (!row || row.inserted !== events.length) return null;
    return {
      nextExpectedRevision: expected + events.length,
      position: { commit: BigInt(row.commit_position!), prepare: BigInt(row.prepare_position!) },
    };
  } catch (error) {
    if (!isPgError(error, UNIQUE_VIOLATION_SQLSTATE)) throw error;
    return null;
  }
}

/** The stream's last revision as stored now (what a conflict reports). */
export async function currentRevision(pool: Pool, streamName: string): Promise<number | 'no_stream'> {
  const result = await pool.query<{ revision: string | null }>('SELECT max(stream_revision)::text AS revision FROM events WHERE stream_name = $1', [
    streamName,
  ]);
  const row = result.rows[0];
  return row?.revision == null ? 'no_stream' : Number(row.revision);
}

export function encodeExpectedRevision(expected: ExpectedRevision): number {
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

/** The actual revision es_append reports in an ES409's DETAIL (-1: no stream). */
export function decodeActualRevision(detail: string | undefined): number | 'no_stream' {
  const revision = Number(detail ?? '-1');
  return revision < 0 || Number.isNaN(revision) ? 'no_stream' : revision;
}

export interface PgError extends Error {
  code: string;
  detail?: string;
  hint?: string;
  constraint?: string;
}

export function isPgError(error: unknown, code: string): error is PgError {
  return error instanceof Error && (error as Partial<PgError>).code === code;
}
