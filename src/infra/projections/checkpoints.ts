import { Pool, PoolClient } from 'pg';
import { Position, START_POSITION } from '../event-store/event-store.port';

export const CHECKPOINT_DDL = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  kind text NOT NULL,
  version integer NOT NULL,
  commit_position numeric(20,0) NOT NULL,
  prepare_position numeric(20,0) NOT NULL,
  events_applied bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
)`;

export interface CheckpointRow {
  name: string;
  kind: 'projection' | 'reactor';
  version: number;
  position: Position;
  eventsApplied: number;
  updatedAt: Date;
}

type Queryable = Pool | PoolClient;

export async function readCheckpoints(db: Queryable, names?: string[], forUpdate = false): Promise<Map<string, CheckpointRow>> {
  const result = await db.query(
    `SELECT name, kind, version, commit_position::text AS c, prepare_position::text AS p, events_applied, updated_at
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
    });
  }
  return rows;
}

export async function writeCheckpoint(
  db: Queryable,
  name: string,
  kind: 'projection' | 'reactor',
  version: number,
  position: Position,
  appliedDelta: number,
  resetCount = false,
): Promise<void> {
  await db.query(
    `INSERT INTO projection_checkpoints (name, kind, version, commit_position, prepare_position, events_applied, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, commit_position = EXCLUDED.commit_position,
       prepare_position = EXCLUDED.prepare_position,
       events_applied = ${resetCount ? 'EXCLUDED.events_applied' : 'projection_checkpoints.events_applied + EXCLUDED.events_applied'},
       updated_at = now()`,
    [name, kind, version, position.commit.toString(), position.prepare.toString(), appliedDelta],
  );
}

export function lockKeyFor(name: string): string {
  // pg_advisory_xact_lock(hashtext(...)) serialises a projection's live batches with its rebuild swap.
  return `projection:${name}`;
}

export { START_POSITION };
