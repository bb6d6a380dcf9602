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
 * Encodings of the non-numeric expectations passed to `es_append` (numeric expectations are >= 0).
 */
export const EXPECTED_NO_STREAM = -1;
export const EXPECTED_ANY = -2;
export const EXPECTED_STREAM_EXISTS = -3;

export const EVENT_STORE_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS event_streams (
  stream_name text PRIMARY KEY,
  -- Revision of the last event in the stream; the row lock taken by es_append serialises writers of one stream.
  revision bigint NOT NULL
);

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

-- Appends a batch in one round trip: checks the expected revision (>= 0 exact, -1 no_stream,
-- -2 any, -3 stream_exists), inserts the events and returns the new last revision and the
-- position of the last event (commit = transaction id, prepare = global_position).
CREATE OR REPLACE FUNCTION es_append(
  p_stream_name text,
  p_expected_revision bigint,
  p_event_ids uuid[],
  p_event_types text[],
  p_data jsonb[],
  p_metadata jsonb[],
  p_notify_channel text DEFAULT NULL
)
RETURNS TABLE (next_revision bigint, commit_position xid8, prepare_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_count bigint := coalesce(cardinality(p_event_ids), 0);
  v_new_revision bigint;
  v_actual_revision bigint;
  v_last_position bigint;
  v_stored record;
BEGIN
  IF v_count = 0 THEN
    RAISE EXCEPTION 'es_append needs at least one event' USING ERRCODE = '22023';
  END IF;
  IF cardinality(p_event_types) <> v_count OR cardinality(p_data) <> v_count OR cardinality(p_metadata) <> v_count THEN
    RAISE EXCEPTION 'es_append arrays differ in length' USING ERRCODE = '22023';
  END IF;

  -- 'any' and 'stream_exists' cannot fail on a retry, so a retried batch must be recognised first.
  IF p_expected_revision < -1 THEN
    SELECT * INTO v_stored FROM es_stored_batch(p_stream_name, p_expected_revision, p_event_ids);
    IF v_stored.exact THEN
      RETURN QUERY SELECT v_stored.last_revision, v_stored.commit_position, v_stored.prepare_position;
      RETURN;
    ELSIF v_stored.matched_count > 0 THEN
      SELECT revision INTO v_actual_revision FROM event_streams WHERE stream_name = p_stream_name;
      RAISE EXCEPTION 'event ids already stored elsewhere for stream %', p_stream_name
        USING ERRCODE = 'ES409', DETAIL = coalesce(v_actual_revision, -1)::text;
    END IF;
  END IF;

  IF p_expected_revision >= 0 THEN
    UPDATE event_streams SET revision = revision + v_count
     WHERE stream_name = p_stream_name AND revision = p_expected_revision
    RETURNING revision INTO v_new_revision;
  ELSIF p_expected_revision = -1 THEN
    INSERT INTO event_streams (stream_name, revision) VALUES (p_stream_name, v_count - 1)
    ON CONFLICT (stream_name) DO NOTHING
    RETURNING revision INTO v_new_revision;
  ELSIF p_expected_revision = -2 THEN
    INSERT INTO event_streams AS s (stream_name, revision) VALUES (p_stream_name, v_count - 1)
    ON CONFLICT (stream_name) DO UPDATE SET revision = s.revision + v_count
    RETURNING s.revision INTO v_new_revision;
  ELSIF p_expected_revision = -3 THEN
    UPDATE event_streams SET revision = revision + v_count
     WHERE stream_name = p_stream_name
    RETURNING revision INTO v_new_revision;
  ELSE
    RAISE EXCEPTION 'invalid expected revision %', p_expected_revision USING ERRCODE = '22023';
  END IF;

  IF v_new_revision IS NULL THEN
    -- The expectation failed: either a retry of a batch already stored (answer as the first time) or a conflict.
    IF p_expected_revision >= -1 THEN
      SELECT * INTO v_stored FROM es_stored_batch(p_stream_name, p_expected_revision, p_event_ids);
      IF v_stored.exact THEN
        RETURN QUERY SELECT v_stored.last_revision, v_stored.commit_position, v_stored.prepare_position;
        RETURN;
      END IF;
    END IF;
    SELECT revision INTO v_actual_revision FROM event_streams WHERE stream_name = p_stream_name;
    RAISE EXCEPTION 'wrong expected revision for stream %', p_stream_name
      USING ERRCODE = 'ES409', DETAIL = coalesce(v_actual_revision, -1)::text;
  END IF;

  -- ORDER BY ordinal makes global_position follow the revision order inside the batch.
  WITH inserted AS (
    INSERT INTO events (event_id, stream_name, stream_revision, event_type, data, metadata)
    SELECT b.event_id, p_stream_name, v_new_revision - v_count + b.ordinal, b.event_type, b.data, b.metadata
      FROM unnest(p_event_ids, p_event_types, p_data, p_metadata)
           WITH ORDINALITY AS b(event_id, event_type, data, metadata, ordinal)
     ORDER BY b.ordinal
    RETURNING global_position
  )
  SELECT max(global_position) INTO v_last_position FROM inserted;

  IF p_notify_channel IS NOT NULL THEN
    PERFORM pg_notify(p_notify_channel, '');
  END IF;

  RETURN QUERY SELECT v_new_revision, pg_current_xact_id(), v_last_position;
END
$fn$;
`;
