import { Client, ClientBase, Pool } from 'pg';
import { EventStore, Position, START_POSITION, comparePositions, positionToString } from '../event-store/event-store.port';
import { lockKeyFor, readCheckpoints, writeCheckpoint } from './checkpoints';
import { LIVE_TABLES, Projection, TableNaming, connectPipelined } from './projection';
import { applyToProjection, describeError } from './projection-apply';

/** Fresh tables a rebuild fills before they are swapped in. */
const REBUILD_TABLES: TableNaming = (logical) => `${logical}__rebuild`;
const OLD_SUFFIX = '__old';
/** Session-private temporary tables: a verification never touches shared ones. */
const VERIFY_TABLES: TableNaming = (logical) => `pg_temp.${logical}__verify`;
/**
 * Events per replay transaction. Kept small because every open writing transaction holds back
 * the event store's visibility horizon for the whole cluster (see readAll in
 * postgres-event-store.ts): a long one would delay what the live service sees meanwhile.
 */
const BATCH_SIZE = 500;
/** How long the swap waits for readers of the live tables before it backs off and retries. */
const SWAP_LOCK_TIMEOUT_MS = 3000;
const SWAP_ATTEMPTS = 5;
const LOCK_NOT_AVAILABLE_SQLSTATE = '55P03';

export interface RebuildProgress {
  phase: 'replay' | 'swap';
  eventsRead: number;
  eventsApplied: number;
  /** 0..1 estimate from global positions. */
  fraction: number;
}

export interface RebuildResult {
  eventsRead: number;
  eventsApplied: number;
  position: Position;
  durationMs: number;
  /** 1, or more when readers held the live tables past the lock timeout and the swap backed off. */
  swapAttempts: number;
}

/** A projection failed on an event during a rebuild or a verification. */
export class ProjectionReplayError extends Error {
  constructor(projectionName: string, event: { id: string; type: string; position: Position }, cause: unknown) {
    super(
      `projection ${projectionName} failed on ${event.type} ${event.id} at ${positionToString(event.position)}: ${describeError(cause)}`,
    );
    this.name = 'ProjectionReplayError';
  }
}

export class RebuildInProgressError extends Error {
  constructor(projectionName: string) {
    super(`a rebuild of ${projectionName} is already running`);
    this.name = 'RebuildInProgressError';
  }
}

export async function createProjectionTables(client: ClientBase, projection: Projection, naming: TableNaming | string): Promise<void> {
  const physical: TableNaming = typeof naming === 'function' ? naming : (logical) => `${logical}${naming}`;
  for (const statement of projection.schema(physical)) await client.query(statement);
}

async function dropProjectionTables(client: ClientBase, projection: Projection, naming: TableNaming): Promise<void> {
  for (const logical of projection.tables) await client.query(`DROP TABLE IF EXISTS ${naming(logical)} CASCADE`);
}

/**
 * Replays the events after `from` (up to `until` when given) into the tables `naming` names.
 * With `ownTransactions`, each batch commits on its own (a long replay then never holds back the
 * event store's visibility horizon, which a long-open writing transaction would); otherwise the
 * writes join the caller's transaction.
 */
async function replay(
  store: EventStore,
  client: ClientBase,
  projection: Projection,
  naming: TableNaming,
  range: { from: Position; until: Position | null },
  ownTransactions: boolean,
  onBatch: (read: number, applied: number, last: Position) => void,
): Promise<Position> {
  const types = new Set(projection.handles);
  let position = range.from;
  for (;;) {
    const batch = await store.readAll({ from: position, limit: BATCH_SIZE });
    const until = range.until;
    const within = until ? batch.filter((event) => comparePositions(event.position, until) <= 0) : batch;
    if (within.length === 0) return position;
    if (ownTransactions) await client.query('BEGIN');
    try {
      const slice = await applyToProjection(client, projection, types, within, naming);
      if (slice.failure) throw new ProjectionReplayError(projection.name, slice.failure.event, slice.failure.error);
      if (ownTransactions) await client.query('COMMIT');
      position = within[within.length - 1].position;
      onBatch(within.length, slice.applied, position);
    } catch (error) {
      if (ownTransactions) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    if (within.length < batch.length) return position;
  }
}

/**
 * Rebuilds a projection without downtime: replays the whole log into fresh tables while the live
 * ones keep serving (and the live projector keeps writing them), then, holding the projection's
 * lock (which pauses its live batches for a moment), catches up the last events and swaps the
 * tables in by renaming, with the checkpoint, in one transaction. Readers see the old tables or
 * the new ones, never a mix. If readers hold the live tables too long, the swap backs off and
 * tries again rather than queueing every reader behind it. One rebuild per projection at a time.
 */
export async function rebuildProjection(
  pool: Pool,
  store: EventStore,
  projection: Projection,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<RebuildResult> {
  const started = Date.now();
  const client = await connectPipelined(pool);
  let holdsRebuildLock = false;
  try {
    const locked = await client.query(`SELECT pg_try_advisory_lock(hashtext($1)) AS locked`, [`projection-rebuild:${projection.name}`]);
    if (!locked.rows[0].locked) throw new RebuildInProgressError(projection.name);
    holdsRebuildLock = true;
    // Fresh tables need no durability until the swap (a crash just means rebuilding again); the
    // swap transaction itself commits durably.
    await client.query('SET synchronous_commit = off');

    const head = await store.headPosition();
    let eventsRead = 0;
    let eventsApplied = 0;
    const report = (phase: RebuildProgress['phase']) => (read: number, applied: number, last: Position) => {
      eventsRead += read;
      eventsApplied += applied;
      const fraction = head.prepare > 0n ? Math.min(1, Number(last.prepare) / Number(head.prepare)) : 1;
      onProgress({ phase, eventsRead, eventsApplied, fraction });
    };

    await dropProjectionTables(client, projection, REBUILD_TABLES);
    await createProjectionTables(client, projection, REBUILD_TABLES);
    // Every pass stops at the head as it was when the pass began, never "once a read comes back
    // empty": a steady stream of writes can keep that from happening for as long as it lasts.
    let position = await replay(store, client, projection, REBUILD_TABLES, { from: START_POSITION, until: head }, true, report('replay'));
    // What was appended meanwhile, still without the lock, so the catch-up under it stays short.
    position = await replay(store, client, projection, REBUILD_TABLES, { from: position, until: await store.headPosition() }, true, report('replay'));

    let attempt = 1;
    for (; ; attempt++) {
      const readBefore = eventsRead;
      const appliedBefore = eventsApplied;
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL lock_timeout = ${SWAP_LOCK_TIMEOUT_MS}`);
        await client.query('SET LOCAL synchronous_commit = on');
        await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [lockKeyFor(projection.name)]);
        const caughtUp = await replay(store, client, projection, REBUILD_TABLES, { from: position, until: await store.headPosition() }, false, report('swap'));
        for (const logical of projection.tables) {
          await client.query(`DROP TABLE IF EXISTS ${logical}${OLD_SUFFIX} CASCADE`);
          await client.query(`ALTER TABLE IF EXISTS ${logical} RENAME TO ${logical}${OLD_SUFFIX}`);
          await client.query(`ALTER TABLE ${REBUILD_TABLES(logical)} RENAME TO ${logical}`);
          await client.query(`DROP TABLE IF EXISTS ${logical}${OLD_SUFFIX} CASCADE`);
        }
        await writeCheckpoint(client, projection.name, 'projection', projection.version, caughtUp, eventsApplied, true);
        await client.query('COMMIT');
        position = caughtUp;
        break;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        // Events caught up inside the rolled-back transaction are gone from the fresh tables.
        eventsRead = readBefore;
        eventsApplied = appliedBefore;
        const lockTimedOut = (error as { code?: string }).code === LOCK_NOT_AVAILABLE_SQLSTATE;
        if (!lockTimedOut || attempt >= SWAP_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        position = await replay(store, client, projection, REBUILD_TABLES, { from: position, until: await store.headPosition() }, true, report('replay'));
      }
    }
    onProgress({ phase: 'swap', eventsRead, eventsApplied, fraction: 1 });
    return { eventsRead, eventsApplied, position, durationMs: Date.now() - started, swapAttempts: attempt };
  } finally {
    // Leftovers of a failed rebuild; the session lock goes with the connection.
    if (holdsRebuildLock) await dropProjectionTables(client, projection, REBUILD_TABLES).catch(() => undefined);
    await endQuietly(client);
  }
}

export interface TableDifference {
  table: string;
  /** Rows the log produces that the live table lacks (or holds with other values). */
  missingFromLive: number;
  /** Rows of the live table the log does not produce (or produces with other values). */
  extraInLive: number;
  sampleMissing: unknown[];
  sampleExtra: unknown[];
}

export interface VerifyResult {
  projection: string;
  /** The live checkpoint the comparison was made at. */
  position: Position;
  eventsReplayed: number;
  /** The version that built the live tables, when it differs from the code's. */
  liveVersion: number;
  differences: TableDifference[];
}

/**
 * Replays the log up to the live checkpoint into session-private temporary tables and compares
 * them row by row with the live read model. The replay runs without any lock, in short
 * transactions; only the final catch-up to the live checkpoint and the comparison hold the
 * projection's lock (pausing its live batches, so the live tables stand still meanwhile).
 */
export async function verifyProjection(
  pool: Pool,
  store: EventStore,
  projection: Projection,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<VerifyResult> {
  const client = await connectPipelined(pool);
  try {
    const initial = (await readCheckpoints(client, [projection.name])).get(projection.name);
    if (!initial) throw new Error(`projection ${projection.name} has no live read model yet (the service creates it at its first start)`);
    // Scratch tables: nothing here needs to survive a crash.
    await client.query('SET synchronous_commit = off');
    let eventsReplayed = 0;
    const head = initial.position;
    const report = (read: number, applied: number, last: Position) => {
      eventsReplayed += read;
      const fraction = head.prepare > 0n ? Math.min(1, Number(last.prepare) / Number(head.prepare)) : 1;
      onProgress({ phase: 'replay', eventsRead: eventsReplayed, eventsApplied: 0, fraction });
    };
    await createProjectionTables(client, projection, VERIFY_TABLES);
    let position = await replay(store, client, projection, VERIFY_TABLES, { from: START_POSITION, until: initial.position }, true, report);

    await client.query(`SELECT pg_advisory_lock(hashtext($1))`, [lockKeyFor(projection.name)]);
    try {
      const live = (await readCheckpoints(client, [projection.name])).get(projection.name)!;
      position = await replay(store, client, projection, VERIFY_TABLES, { from: position, until: live.position }, true, report);
      const differences: TableDifference[] = [];
      for (const logical of projection.tables) {
        const difference = await compareTables(client, VERIFY_TABLES(logical), LIVE_TABLES(logical));
        if (difference.missingFromLive || difference.extraInLive) differences.push({ table: logical, ...difference });
      }
      return { projection: projection.name, position: live.position, eventsReplayed, liveVersion: live.version, differences };
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtext($1))`, [lockKeyFor(projection.name)]).catch(() => undefined);
    }
  } finally {
    // Ending the session drops its temporary tables.
    await endQuietly(client);
  }
}

/**
 * Compares whole rows as jsonb (every column type has jsonb equality, unlike json or point), as
 * multisets, so duplicated rows count too.
 */
async function compareTables(
  client: ClientBase,
  expected: string,
  live: string,
): Promise<Omit<TableDifference, 'table'>> {
  const exists = await client.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [live]);
  const count = async (left: string, right: string) => {
    const result = await client.query(
      `WITH d AS (SELECT to_jsonb(t) AS r FROM ${left} t EXCEPT ALL SELECT to_jsonb(t) AS r FROM ${right} t)
       SELECT (SELECT count(*) FROM d)::int AS count,
              (SELECT coalesce(jsonb_agg(r), '[]'::jsonb) FROM (SELECT r FROM d LIMIT 3) AS s) AS sample`,
    );
    return { count: result.rows[0].count as number, sample: result.rows[0].sample as unknown[] };
  };
  if (!exists.rows[0].present) {
    const all = await client.query(`SELECT count(*)::int AS count FROM ${expected}`);
    return { missingFromLive: all.rows[0].count, extraInLive: 0, sampleMissing: [], sampleExtra: [] };
  }
  const missing = await count(expected, live);
  const extra = await count(live, expected);
  return { missingFromLive: missing.count, extraInLive: extra.count, sampleMissing: missing.sample, sampleExtra: extra.sample };
}

async function endQuietly(client: Client): Promise<void> {
  await client.end().catch(() => undefined);
}
