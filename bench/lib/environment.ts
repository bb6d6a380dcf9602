import { appendFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, platform, release, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { startEmbeddedPostgres } from '../../src/infra/runtime/embedded-postgres';
import { startLocalRedis } from '../../src/infra/runtime/local-redis';

/**
 * What every benchmark shares: a database to run against, a description of the machine, and the
 * results file. By default each benchmark starts its own embedded Postgres in a temporary
 * directory with the server's DEFAULT settings (fsync on, synchronous_commit on: durable, as
 * `npm start` runs it), never the test settings with fsync off. BENCH_DATABASE_URL points a
 * benchmark at another server instead (it creates and drops its own database there).
 */
export interface BenchDatabase {
  readonly url: string;
  /** e.g. "embedded Postgres 18.0, default durable settings (fsync=on, synchronous_commit=on, ...)" */
  readonly description: string;
  stop(): Promise<void>;
}

export const RESULTS_FILE = resolve(__dirname, '..', 'RESULTS.md');

export async function startBenchDatabase(name: string): Promise<BenchDatabase> {
  const external = process.env.BENCH_DATABASE_URL;
  let serverUrl: string;
  let stopServer: () => Promise<void>;
  let origin: string;
  if (external) {
    serverUrl = external;
    stopServer = async () => undefined;
    origin = 'BENCH_DATABASE_URL';
  } else {
    const root = mkdtempSync(join(tmpdir(), `bench-${name}-`));
    chmodSync(root, 0o755); // As root, postgres runs as the `postgres` user, which must enter it.
    const server = await startEmbeddedPostgres({ dataDir: join(root, 'postgres'), database: 'postgres', persistent: false });
    serverUrl = server.url;
    origin = 'embedded Postgres';
    stopServer = async () => {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    };
  }
  const databaseName = `bench_${name.replace(/[^a-z0-9]+/gi, '_')}_${process.pid}`;
  const admin = new Pool({ connectionString: serverUrl, max: 1 });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName}`);
    await admin.query(`CREATE DATABASE ${databaseName}`);
    const description = `${origin} ${await serverVersion(admin)}, ${await durabilitySettings(admin)}`;
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    return {
      url: url.toString(),
      description,
      async stop() {
        const dropper = new Pool({ connectionString: serverUrl, max: 1 });
        try {
          await dropper.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
        } finally {
          await dropper.end();
        }
        await stopServer();
      },
    };
  } finally {
    await admin.end();
  }
}

/** A throwaway redis-server for the HTTP benchmark (BENCH_REDIS_URL to use another). */
export async function startBenchRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.BENCH_REDIS_URL) return { url: process.env.BENCH_REDIS_URL, stop: async () => undefined };
  const root = mkdtempSync(join(tmpdir(), 'bench-redis-'));
  const redis = await startLocalRedis({ dataDir: join(root, 'redis'), persistent: false });
  return {
    url: redis.url,
    async stop() {
      await redis.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function serverVersion(pool: Pool): Promise<string> {
  const result = await pool.query(`SELECT current_setting('server_version') AS version`);
  return String(result.rows[0].version).split(' ')[0];
}

async function durabilitySettings(pool: Pool): Promise<string> {
  const names = ['fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method', 'shared_buffers', 'max_connections'];
  const result = await pool.query(`SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1) ORDER BY name`, [names]);
  const byName = new Map(result.rows.map((row) => [row.name as string, row]));
  const shown = names.map((name) => {
    const row = byName.get(name);
    if (!row) return `${name}=?`;
    if (name === 'shared_buffers') return `${name}=${(Number(row.setting) * 8) / 1024}MB`;
    return `${name}=${row.setting}`;
  });
  const isDefault = byName.get('fsync')?.setting === 'on' && byName.get('synchronous_commit')?.setting === 'on';
  return `${isDefault ? 'default durable settings' : 'NON-DEFAULT settings'} (${shown.join(', ')})`;
}

/** "AMD EPYC, 2 cores, linux 6.1, node v20.19.0" */
export function machineDescription(): string {
  const processors = cpus();
  const model = processors[0]?.model.trim() || 'unknown CPU';
  return `${model}, ${processors.length} cores, ${platform()} ${release()}, node ${process.version}`;
}

/** Prints a benchmark's figures and appends them, with machine and date, to bench/RESULTS.md. */
export function recordResults(title: string, database: string, lines: string[]): void {
  const label = process.env.BENCH_LABEL ? ` (${process.env.BENCH_LABEL})` : '';
  const section = [
    `### ${title}${label}, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    '',
    `- machine: ${machineDescription()}`,
    `- database: ${database}`,
    ...lines.map((line) => `- ${line}`),
    '',
  ].join('\n');
  process.stdout.write(`\n${section}\n`);
  if (process.env.BENCH_NO_RECORD) return;
  appendFileSync(RESULTS_FILE, `\n${section}`);
}

export function percentile(sortedValues: number[], fraction: number): number {
  if (sortedValues.length === 0) return NaN;
  const index = Math.min(sortedValues.length - 1, Math.max(0, Math.ceil(fraction * sortedValues.length) - 1));
  return sortedValues[index];
}

export function formatRate(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function numberFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${text}`);
  return value;
}
