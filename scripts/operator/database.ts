import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Pool } from 'pg';
import { EsdbEventStore } from '../../src/infra/event-store/esdb-event-store';
import { EventStore } from '../../src/infra/event-store/event-store.port';
import { PostgresEventStore } from '../../src/infra/event-store/postgres-event-store';
import { createPool } from '../../src/infra/postgres/pool';
import { CHECKPOINT_DDL } from '../../src/infra/projections/checkpoints';
import { startEmbeddedPostgres } from '../../src/infra/runtime/embedded-postgres';
import { redactUrl } from '../../src/infra/runtime/infrastructure';

/** What the operator CLIs work on: the service's own database and event log. */
export interface OperatorDatabase {
  pool: Pool;
  store: EventStore;
  /** One line for stderr: which database, and whether the service's embedded one was shared. */
  description: string;
  close(): Promise<void>;
}

/**
 * Opens the database the service uses, found the same way the service finds it: DATABASE_URL
 * when set, else the embedded Postgres under DATA_DIR (default `.data`). When the service runs,
 * its embedded Postgres is shared (never restarted); when it does not, this starts the cluster
 * for the duration of the command and stops it afterwards. The event log is the one
 * EVENTSTORE_CONNECTION_STRING names, else the Postgres `events` table.
 */
export async function openOperatorDatabase(env: NodeJS.ProcessEnv): Promise<OperatorDatabase> {
  let url = env.DATABASE_URL;
  let description: string;
  let stopEmbedded: () => Promise<void> = async () => undefined;
  if (url) {
    description = `database ${redactUrl(url)} (DATABASE_URL)`;
  } else {
    const dataDir = resolve(env.DATA_DIR || '.data', 'postgres');
    if (!existsSync(resolve(dataDir, 'PG_VERSION'))) {
      throw new OperatorError(
        `no database: ${dataDir} holds no Postgres cluster. Start the service once (npm start), or set DATABASE_URL (and DATA_DIR if the service uses another one).`,
      );
    }
    const embedded = await startEmbeddedPostgres({ dataDir });
    url = embedded.url;
    stopEmbedded = () => embedded.stop();
    description = embedded.shared
      ? `embedded Postgres of the running service (${dataDir}, pid ${embedded.postmasterPid})`
      : `embedded Postgres ${dataDir}, started for this command (the service is not running)`;
  }
  const pool = createPool(url, 6);
  let store: EventStore | null = null;
  try {
    await pool.query(CHECKPOINT_DDL);
    if (env.EVENTSTORE_CONNECTION_STRING) {
      store = new EsdbEventStore(env.EVENTSTORE_CONNECTION_STRING);
      description += `, event log in EventStoreDB ${redactUrl(env.EVENTSTORE_CONNECTION_STRING)}`;
    } else {
      await PostgresEventStore.ensureSchema(pool);
      store = new PostgresEventStore(pool);
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    await stopEmbedded();
    throw new OperatorError(`cannot use the ${description}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const opened = store;
  return {
    pool,
    store: opened,
    description,
    async close() {
      await opened.close().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await stopEmbedded();
    },
  };
}

/** A failure to report in one line, without a stack trace (exit code 2). */
export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorError';
  }
}

/** Where a CLI writes; the real process streams, or buffers in tests. */
export interface CliOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
}

export function processOutput(): CliOutput {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}
