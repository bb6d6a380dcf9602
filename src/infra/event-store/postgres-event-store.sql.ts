/**
 * Schema of the Postgres event store. Every statement is idempotent (IF NOT EXISTS / OR REPLACE) so
 * `PostgresEventStore.ensureSchema` can run at every boot; it takes an advisory lock around this
 * script because concurrent CREATE ... IF NOT EXISTS and CREATE OR REPLACE FUNCTION can still fail
 * with unique violations or "tuple concurrently updated" when two processes boot at once.
 */

/** Key of the transaction-scoped advisory lock that serialises schema creation across processes. */
export const EVENT_STORE_SCHEMA_LOCK_KEY = 7_310_452_119_004_001n;

/** Channel used for LISTEN/NOTIFY wake-ups between processes. */
export const EVENT_STORE_NOTIFY_CHANNEL = 'event_store_appended';

/** SQLSTATE raised by `es_append` when the expected revision does not hold (detail = actual revision, -1 = no stream). */
export const WRONG_EXPECTED_REVISION_SQLSTATE = 'ES409';

/**
 * Encodings of the non-numeric expectations passed to `es_append` and the fast path (numeric
 * expectations are >= 0).
 */
export const EXPECTED_NO_STREAM = -1;
export const EXPECTED_ANY = -2;
export const EXPECTED_STREAM_EXISTS = -3;

export const EVENT_STORE_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS events (
  global_position bigserial PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id uuid NOT NULL,
  stream_name text NOT NULL,
  stream_revision bigint NOT NULL,
  event_type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT events_event_id_key UNIQUE (event_id),
  -- The optimistic-concurrency guard: two writers expecting the same revision both insert the
  -- next one, and the second fails on this key once the first commits.
  CONSTRAINT events_stream_revision_key UNIQUE (stream_name, stream_revision)
);

-- $all is read in (transaction_id, global_position) order: see readAll in postgres-event-store.ts.
CREATE INDEX IF NOT EXISTS events_transaction_position_idx ON events (transaction_id, global_position);

-- Finds a batch that was already stored, so a retried append answers like the first attempt.
-- exact = every id is stored, in p_stream_name, at consecutive revisions in the given order, and
-- (for an exact or no_stream expectation) starting right after the expected revision.
CREATE OR REPLACE FUNCTION es_stored_batch(p_stream_name text, p_expected_revision bigint, p_event_ids uuid[])
RETURNS TABLE (matched_count bigint, exact boolean, last_revision bigint, commit_position xid8, prepare_position bigint)
LANGUAGE sql STABLE AS $fn$
  SELECT count(*),
         count(*) = cardinality(p_event_ids)
           AND bool_and(e.stream_name = p_stream_name)
           AND max(e.stream_revision - w.ordinal) = min(e.stream_revision - w.ordinal)
           AND (p_expected_revision < -1 OR min(e.stream_revision) = p_expected_revision + 1),
         max(e.stream_revision),
         (array_agg(e.transaction_id ORDER BY w.ordinal DESC))[1],
         (array_agg(e.global_position ORDER BY w.ordinal DESC))[1]
  FROM unnest(p_event_ids) WITH ORDINALITY AS w(event_id, ordinal)
  JOIN events e ON e.event_id = w.event_id
$fn$;

-- Whether a stream's event at this revision is stored: the multi-stream fast path's expectation
-- check (APPEND_MANY_FAST_SQL in postgres-append-many.ts). A function, with sequential scans off,
-- so that its plan is always a probe of events_stream_revision_key: written inline, the check was
-- an anti-join whose generic plan, made while the table was small, hashed the whole events table
-- on every append for as long as the connection lived ("Quote flows" in bench/RESULTS.md).
CREATE OR REPLACE FUNCTION es_stream_at(p_stream_name text, p_revision bigint) RETURNS boolean
LANGUAGE sql STABLE SET enable_seqscan = off AS $fn$
  SELECT EXISTS (SELECT 1 FROM events WHERE stream_name = p_stream_name AND stream_revision = p_revision)
$fn$;

-- The complete append, for the cases the one-statement fast path (APPEND_FAST_SQL in
-- postgres-append.ts) does not settle: 'any' and 'stream_exists' expectations, retries of a
-- stored batch, and conflicts (raised as ES409 with the actual revision in DETAIL, -1 = no
-- stream). Expectations: >= 0 exact, -1 no_stream, -2 any, -3 stream_exists. A concurrent append to the same stream can still make the INSERT
-- fail on events_stream_revision_key: the caller runs this function again, which then reports
-- the conflict (or the stored batch).
-- Earlier versions kept each stream's revision in a table of its own and took jsonb[] arrays;
-- the unique key on events now guards revisions alone (one row written per event, not two).
-- Both functions also took a NOTIFY channel, for appends that notified inside their transaction
-- (the store now NOTIFYs after the commit): the versions with it are dropped, since a call
-- without it would match them too.
DROP FUNCTION IF EXISTS es_append(text, bigint, uuid[], text[], jsonb[], jsonb[], text);
DROP FUNCTION IF EXISTS es_append(text, bigint, uuid[], text[], jsonb, jsonb, text);
DROP FUNCTION IF EXISTS es_append_many(text[], bigint[], text[], bigint[], uuid[], text[], jsonb, jsonb, text);

CREATE OR REPLACE FUNCTION es_append(
  p_stream_name text,
  p_expected_revision bigint,
  p_event_ids uuid[],
  p_event_types text[],
  p_data jsonb,
  p_metadata jsonb
)
RETURNS TABLE (next_revision bigint, commit_position xid8, prepare_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_count bigint := coalesce(cardinality(p_event_ids), 0);
  v_actual_revision bigint;
  v_last_position bigint;
  v_stored record;
BEGIN
  IF v_count = 0 THEN
    RAISE EXCEPTION 'es_append needs at least one event' USING ERRCODE = '22023';
  END IF;
  IF cardinality(p_event_types) <> v_count OR jsonb_array_length(p_data) <> v_count
     OR jsonb_array_length(p_metadata) <> v_count THEN
    RAISE EXCEPTION 'es_append arrays differ in length' USING ERRCODE = '22023';
  END IF;
  IF p_expected_revision < -3 THEN
    RAISE EXCEPTION 'invalid expected revision %', p_expected_revision USING ERRCODE = '22023';
  END IF;

  SELECT max(stream_revision) INTO v_actual_revision FROM events WHERE stream_name = p_stream_name;

  SELECT * INTO v_stored FROM es_stored_batch(p_stream_name, p_expected_revision, p_event_ids);
  IF v_stored.exact THEN
    RETURN QUERY SELECT v_stored.last_revision, v_stored.commit_position, v_stored.prepare_position;
    RETURN;
  ELSIF v_stored.matched_count > 0 THEN
    RAISE EXCEPTION 'event ids already stored elsewhere for stream %', p_stream_name
      USING ERRCODE = 'ES409', DETAIL = coalesce(v_actual_revision, -1)::text;
  END IF;

  IF (p_expected_revision >= 0 AND v_actual_revision IS DISTINCT FROM p_expected_revision)
     OR (p_expected_revision = -1 AND v_actual_revision IS NOT NULL)
     OR (p_expected_revision = -3 AND v_actual_revision IS NULL) THEN
    RAISE EXCEPTION 'wrong expected revision for stream %', p_stream_name
      USING ERRCODE = 'ES409', DETAIL = coalesce(v_actual_revision, -1)::text;
  END IF;

  -- ORDER BY ordinal makes global_position follow the revision order inside the batch.
  WITH inserted AS (
    INSERT INTO events (event_id, stream_name, stream_revision, event_type, data, metadata)
    SELECT b.event_id, p_stream_name, coalesce(v_actual_revision, -1) + b.ordinal, b.event_type, b.data, b.metadata
      FROM ROWS FROM (unnest(p_event_ids), unnest(p_event_types), jsonb_array_elements(p_data), jsonb_array_elements(p_metadata))
           WITH ORDINALITY AS b(event_id, event_type, data, metadata, ordinal)
     ORDER BY b.ordinal
    RETURNING global_position
  )
  SELECT max(global_position) INTO v_last_position FROM inserted;

  RETURN QUERY SELECT coalesce(v_actual_revision, -1) + v_count, pg_current_xact_id(), v_last_position;
END
$fn$;

-- The atomic multi-stream append (EventStore.appendToStreams), one statement in autocommit:
-- checks every stream's expectation (p_check_expected: >= 0 exact, -1 no_stream), raising ES409
-- with the actual revision in DETAIL and the stream in HINT, then inserts every event at the
-- revision the caller computed, in the given order. A concurrent append that took one of these
-- revisions, or an event id already stored, fails the INSERT on a unique key: the whole
-- statement, hence every stream, is rolled back.
CREATE OR REPLACE FUNCTION es_append_many(
  p_check_streams text[],
  p_check_expected bigint[],
  p_stream_names text[],
  p_revisions bigint[],
  p_event_ids uuid[],
  p_event_types text[],
  p_data jsonb,
  p_metadata jsonb
)
RETURNS TABLE (commit_position xid8, prepare_positions bigint[])
LANGUAGE plpgsql AS $fn$
DECLARE
  v_count bigint := coalesce(cardinality(p_event_ids), 0);
  v_conflict record;
  v_positions bigint[];
BEGIN
  IF v_count = 0 OR cardinality(p_stream_names) <> v_count OR cardinality(p_revisions) <> v_count
     OR cardinality(p_event_types) <> v_count OR jsonb_array_length(p_data) <> v_count
     OR jsonb_array_length(p_metadata) <> v_count OR cardinality(p_check_streams) <> cardinality(p_check_expected) THEN
    RAISE EXCEPTION 'es_append_many arrays differ in length or are empty' USING ERRCODE = '22023';
  END IF;

  SELECT c.stream_name, a.actual INTO v_conflict
    FROM unnest(p_check_streams, p_check_expected) AS c(stream_name, expected)
    CROSS JOIN LATERAL (SELECT max(e.stream_revision) AS actual FROM events e WHERE e.stream_name = c.stream_name) AS a
   WHERE a.actual IS DISTINCT FROM nullif(c.expected, -1)
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'wrong expected revision for stream %', v_conflict.stream_name
      USING ERRCODE = 'ES409', DETAIL = coalesce(v_conflict.actual, -1)::text, HINT = v_conflict.stream_name;
  END IF;

  -- ORDER BY ordinal makes global_position follow the given order.
  WITH inserted AS (
    INSERT INTO events (event_id, stream_name, stream_revision, event_type, data, metadata)
    SELECT b.event_id, b.stream_name, b.revision, b.event_type, b.data, b.metadata
      FROM ROWS FROM (unnest(p_event_ids), unnest(p_stream_names), unnest(p_revisions), unnest(p_event_types),
                      jsonb_array_elements(p_data), jsonb_array_elements(p_metadata))
           WITH ORDINALITY AS b(event_id, stream_name, revision, event_type, data, metadata, ordinal)
     ORDER BY b.ordinal
    RETURNING global_position
  )
  SELECT array_agg(global_position ORDER BY global_position) INTO v_positions FROM inserted;

  RETURN QUERY SELECT pg_current_xact_id(), v_positions;
END
$fn$;
`;
