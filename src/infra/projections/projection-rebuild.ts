import { Pool, PoolClient } from 'pg';
import { EventStore, Position, START_POSITION, comparePositions } from '../event-store/event-store.port';
import { readCheckpoints, writeCheckpoint } from './checkpoints';
import { Projection, projectionTransaction } from './projection';

const REBUILD_SUFFIX = '__rebuild';
const OLD_SUFFIX = '__old';
const VERIFY_SUFFIX = '__verify';
const BATCH_SIZE = 2000;

export interface RebuildProgress {
  eventsRead: number;
  eventsApplied: number;
  /** 0..1 estimate from global positions. */
  fraction: number;
}

export async function createProjectionTables(client: PoolClient, projection: Projection, suffix: string): Promise<void> {
  const physical = (logical: string) => `${logical}${suffix}`;
  for (const statement of projection.schema(physical)) await client.query(statement);
}

async function dropProjectionTables(client: PoolClient, projection: Projection, suffix: string): Promise<void> {
  for (const logical of projection.tables) await client.query(`DROP TABLE IF EXISTS ${logical}${suffix} CASCADE`);
}

/**
 * Replays events after `from` into the tables with `suffix`, in batches committed as they go
 * (`client` outside a transaction) or inside the caller's transaction.
 */
async function replay(
  store: EventStore,
  client: PoolClient,
  projection: Projection,
  suffix: string,
  from: Position,
  until: Position | null,
  onBatch: (read: number, applied: number, last: Position) => void,
  ownTransactions: boolean,
): Promise<Position> {
  const types = new Set(projection.handles);
  const tx = projectionTransaction(client, suffix);
  let position = from;
  for (;;) {
    const batch = await store.readAll({ from: position, limit: BATCH_SIZE });
    const within = until ? batch.filter((event) => comparePositions(event.position, until) <= 0) : batch;
    if (within.length === 0) return position;
    let applied = 0;
    if (ownTransactions) await client.query('BEGIN');
    try {
      for (const event of within) {
        if (types.has(event.type)) {
          await projection.apply(event, tx);
          applied++;
        }
      }
      if (ownTransactions) await client.query('COMMIT');
    } catch (error) {
      if (ownTransactions) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    position = within[within.length - 1].position;
    onBatch(within.length, applied, position);
    if (within.length < batch.length) return position;
  }
}

/**
 * Rebuilds a projection without downtime: replays the whole log into fresh tables while the live
 * ones keep serving, then, holding the projection's lock (which pauses its live batches), catches
 * up the last events and swaps the tables in by renaming, with the checkpoint, in one transaction.
 */
export async function rebuildProjection(
  pool: Pool,
  store: EventStore,
  projection: Projection,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<{ eventsApplied: number; position: Position }> {
  const head = await store.headPosition();
  const client = await pool.connect();
  let eventsRead = 0;
  let eventsApplied = 0;
  const report = (read: number, applied: number, last: Position) => {
    eventsRead += read;
    eventsApplied += applied;
    const fraction = head.prepare > 0n ? Math.min(1, Number(last.prepare) / Number(head.prepare)) : 1;
    onProgress({ eventsRead, eventsApplied, fraction });
  };
  try {
    await dropProjectionTables(client, projection, REBUILD_SUFFIX);
    await createProjectionTables(client, projection, REBUILD_SUFFIX);
    let position = await replay(store, client, projection, REBUILD_SUFFIX, START_POSITION, null, report, true);

    await client.query('BEGIN');
    try {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('projection:' || $1::text))`, [projection.name]);
      position = await replay(store, client, projection, REBUILD_SUFFIX, position, null, report, false);
      for (const logical of projection.tables) {
        await client.query(`DROP TABLE IF EXISTS ${logical}${OLD_SUFFIX} CASCADE`);
        await client.query(`ALTER TABLE IF EXISTS ${logical} RENAME TO ${logical}${OLD_SUFFIX}`);
        await client.query(`ALTER TABLE ${logical}${REBUILD_SUFFIX} RENAME TO ${logical}`);
        await client.query(`DROP TABLE IF EXISTS ${logical}${OLD_SUFFIX} CASCADE`);
      }
      await writeCheckpoint(client, projection.name, 'projection', projection.version, position, eventsApplied, true);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    onProgress({ eventsRead, eventsApplied, fraction: 1 });
    return { eventsApplied, position };
  } finally {
    client.release();
  }
}

export interface TableDifference {
  table: string;
  missingFromLive: number;
  extraInLive: number;
  sampleMissing: unknown[];
  sampleExtra: unknown[];
}

/**
 * Replays the log up to the live checkpoint into scratch tables inside a transaction that is
 * rolled back, and compares them row for row with the live read model. Holds the projection's
 * lock meanwhile, so the live tables stand still while they are compared.
 */
export async function verifyProjection(
  pool: Pool,
  store: EventStore,
  projection: Projection,
): Promise<{ position: Position; differences: TableDifference[] }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('projection:' || $1::text))`, [projection.name]);
    const checkpoint = (await readCheckpoints(client, [projection.name])).get(projection.name);
    const position = checkpoint?.position ?? START_POSITION;
    await createProjectionTables(client, projection, VERIFY_SUFFIX);
    await replay(store, client, projection, VERIFY_SUFFIX, START_POSITION, position, () => undefined, false);
    const differences: TableDifference[] = [];
    for (const logical of projection.tables) {
      const live = logical;
      const rebuilt = `${logical}${VERIFY_SUFFIX}`;
      const missing = await client.query(`SELECT * FROM (SELECT * FROM ${rebuilt} EXCEPT ALL SELECT * FROM ${live}) AS d LIMIT 1000`);
      const extra = await client.query(`SELECT * FROM (SELECT * FROM ${live} EXCEPT ALL SELECT * FROM ${rebuilt}) AS d LIMIT 1000`);
      if (missing.rowCount || extra.rowCount) {
        differences.push({
          table: logical,
          missingFromLive: missing.rowCount ?? 0,
          extraInLive: extra.rowCount ?? 0,
          sampleMissing: missing.rows.slice(0, 3),
          sampleExtra: extra.rows.slice(0, 3),
        });
      }
    }
    return { position, differences };
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}
