import { ClientBase, Pool } from 'pg';
import { Position, START_POSITION } from '../event-store/event-store.port';

/**
 * One row per projection and reactor. `projection_checkpoints_lock_and_advance` takes the
 * projections' locks and moves their checkpoints from where the caller expects them to be, and
 * raises (aborting the caller's transaction) when one is not there, so a batch can send its
 * writes and the move without waiting for a read first.
 * The DDL runs as one implicit transaction (a multi-statement simple query) under an advisory
 * lock, so processes booting at once do not race on the DDL.
 * `last_error` is set while a consumer is stuck on an event and cleared once it moves on, so
 * `/health` and `projections:status` see a failing consumer from any process.
 */
export const CHECKPOINT_DDL = `
SELECT pg_advisory_xact_lock(hashtext('projection_checkpoints:ddl'));
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  kind text NOT NULL,
  version integer NOT NULL,
  commit_position numeric(20,0) NOT NULL,
  prepare_position numeric(20,0) NOT NULL,
  events_applied bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS last_error text;
ALTER TABLE projection_checkpoints ADD COLUMN IF NOT EXISTS last_error_at timestamptz;
-- The projector's batch: its projections' locks (in key order, like every other holder of them)
-- and the checkpoint move in one statement. The move is written out here: it used to be a call to
-- a second function (projection_checkpoints_advance, which older databases still hold), and
-- that call cost about as much Postgres CPU as the UPDATE itself.
CREATE OR REPLACE FUNCTION projection_checkpoints_lock_and_advance(
  lock_keys text[], names text[], from_commit numeric[], from_prepare numeric[], to_commit numeric[], to_prepare numeric[], applied bigint[]
) RETURNS void LANGUAGE plpgsql AS $lock_and_advance$
DECLARE
  moved integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(key)) FROM (SELECT key FROM unnest(lock_keys) AS key ORDER BY key) AS ordered;
  UPDATE projection_checkpoints AS checkpoint
     SET commit_position = delta.to_commit, prepare_position = delta.to_prepare,
         events_applied = checkpoint.events_applied + delta.applied, updated_at = now(),
         last_error = NULL, last_error_at = NULL
    FROM unnest(names, from_commit, from_prepare, to_commit, to_prepare, applied)
         AS delta(name, from_commit, from_prepare, to_commit, to_prepare, applied)
   WHERE checkpoint.name = delta.name
     AND checkpoint.commit_position = delta.from_commit AND checkpoint.prepare_position = delta.from_prepare;
  GET DIAGNOSTICS moved = ROW_COUNT;
  IF moved <> cardinality(names) THEN
    RAISE EXCEPTION 'projection checkpoints moved: % of % where expected', moved, cardinality(names)
      USING ERRCODE = '40001';
  END IF;
END
$lock_and_advance$;
`;

/** Channel the projector NOTIFYs when a batch moved the projections (see NotifiedReadModelWaiter). */
export const PROJECTIONS_ADVANCED_CHANNEL = 'projections_advanced';
/** Sent inside the batch transaction: Postgres delivers it on commit, once per transaction. */
export const NOTIFY_PROGRESS_SQL = `NOTIFY ${PROJECTIONS_ADVANCED_CHANNEL}`;

/**
 * The position every healthy projection has committed (a projection stuck on an event, with
 * last_error set, is not waited for, as in the in-process runner); no row: nothing to wait for.
 */
export const PROJECTIONS_PROGRESS_SQL = `SELECT commit_position::text AS c, prepare_position::text AS p FROM projection_checkpoints
  WHERE kind = 'projection' AND last_error IS NULL ORDER BY commit_position, prepare_position LIMIT 1`;

export type ConsumerKind = 'projection' | 'reactor';

export interface CheckpointRow {
  name: string;
  kind: ConsumerKind;
  version: number;
  position: Position;
  eventsApplied: number;
  updatedAt: Date;
  /** Why the consumer is stuck, while it is; null when healthy. */
  lastError: string | null;
  lastErrorAt: Date | null;
}

type Queryable = Pool | ClientBase;

export async function readCheckpoints(db: Queryable, names?: string[], forUpdate = false): Promise<Map<string, CheckpointRow>> {
  const result = await db.query(
    `SELECT name, kind, version, commit_position::text AS c, prepare_position::text AS p, events_applied, updated_at,
            last_error, last_error_at
       FROM projection_checkpoints ${names ? 'WHERE name = ANY($1)' : ''} ORDER BY name ${forUpdate ? 'FOR UPDATE' : ''}`,
    names ? [names] : [],
  );
  const rows = new Map<string, CheckpointRow>();
  for (const row of result.rows) {
    rows.set(row.name, {
      name: row.name,
      kind: row.kind,
      version: row.version,
      position: { commit: BigInt(row.c), prepare: BigInt(row.p) },
      eventsApplied: Number(row.events_applied),
      updatedAt: row.updated_at,
      lastError: row.last_error ?? null,
      lastErrorAt: row.last_error_at ?? null,
    });
  }
  return rows;
}

/**
 * Upserts a checkpoint. `appliedDelta` adds to events_applied (or replaces it with `resetCount`).
 * A successful write clears last_error; `error` records one. A checkpoint never moves backwards
 * (a consumer that was stuck while another process of the service moved on must not drag it
 * back), except with `resetCount`, which sets it as given.
 */
export async function writeCheckpoint(
  db: Queryable,
  name: string,
  kind: ConsumerKind,
  version: number,
  position: Position,
  appliedDelta: number,
  resetCount = false,
  error: string | null = null,
): Promise<void> {
  await db.query(
    `INSERT INTO projection_checkpoints
       (name, kind, version, commit_position, prepare_position, events_applied, updated_at, last_error, last_error_at)
       VALUES ($1, $2, $3, $4, $5, $6, now(), $7::text, CASE WHEN $7::text IS NULL THEN NULL ELSE now() END)
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, commit_position = EXCLUDED.commit_position,
       prepare_position = EXCLUDED.prepare_position,
       events_applied = ${resetCount ? 'EXCLUDED.events_applied' : 'projection_checkpoints.events_applied + EXCLUDED.events_applied'},
       updated_at = now(), last_error = EXCLUDED.last_error,
       last_error_at = CASE WHEN EXCLUDED.last_error IS NULL THEN NULL
                            ELSE coalesce(projection_checkpoints.last_error_at, EXCLUDED.last_error_at) END
     ${resetCount ? '' : `WHERE (projection_checkpoints.commit_position, projection_checkpoints.prepare_position)
                              <= (EXCLUDED.commit_position, EXCLUDED.prepare_position)`}`,
    [name, kind, version, position.commit.toString(), position.prepare.toString(), appliedDelta, error],
  );
}

/**
 * Key of the advisory lock that serialises a projection's live batches with its rebuild swap and
 * its verification (`pg_advisory_xact_lock(hashtext(key))`, or the session form).
 */
export function lockKeyFor(name: string): string {
  return `projection:${name}`;
}

export { START_POSITION };
