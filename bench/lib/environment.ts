import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
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
  /** The postmaster of an embedded server (its CPU time is measured with its backends); null otherwise. */
  readonly postmasterPid: number | null;
  stop(): Promise<void>;
}

/** bench/RESULTS.md, or BENCH_RESULTS_FILE (to record a run of another checkout in this one). */
export const RESULTS_FILE = process.env.BENCH_RESULTS_FILE || resolve(__dirname, '..', 'RESULTS.md');

export async function startBenchDatabase(name: string): Promise<BenchDatabase> {
  const external = process.env.BENCH_DATABASE_URL;
  let serverUrl: string;
  let stopServer: () => Promise<void>;
  let origin: string;
  let postmasterPid: number | null = null;
  if (external) {
    serverUrl = external;
    stopServer = async () => undefined;
    origin = 'BENCH_DATABASE_URL';
  } else {
    const root = mkdtempSync(join(tmpdir(), `bench-${name}-`));
    chmodSync(root, 0o755); // As root, postgres runs as the `postgres` user, which must enter it.
    const server = await startEmbeddedPostgres({ dataDir: join(root, 'postgres'), database: 'postgres', persistent: false });
    serverUrl = server.url;
    postmasterPid = server.postmasterPid;
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
      postmasterPid,
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

let clockTicksPerSecond: number | null = null;

/** CPU time (user + system, ms) of a process and all its descendants, ended ones included, from /proc. */
export function processTreeCpuMs(rootPid: number): number {
  clockTicksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  const children = new Map<number, number[]>();
  const cpuTicks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const parent = Number(fields[1]);
      // utime + stime, plus cutime + cstime: the time of children already ended and reaped
      // (Postgres backends of closed connections), which would otherwise vanish from the sum.
      cpuTicks.set(pid, Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
      children.set(parent, [...(children.get(parent) ?? []), pid]);
    } catch {
      // The process ended while we looked.
    }
  }
  let ticks = 0;
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    ticks += cpuTicks.get(pid) ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return (ticks * 1000) / clockTicksPerSecond;
}

/**
 * CPU spent by this process and by chosen process trees over a measurement: on a machine shared
 * with other work, wall-clock rates swing with the neighbours' load, while CPU time per
 * operation stays put, so before/after comparisons use it.
 */
export class CpuMeter {
  private readonly startSelf = process.cpuUsage();
  private readonly startTrees: number[];

  constructor(private readonly trees: Array<number | null>) {
    this.startTrees = trees.map((pid) => (pid === null ? 0 : processTreeCpuMs(pid)));
  }

  /** Milliseconds of CPU since construction: [this process, ...each tree]. */
  elapsed(): number[] {
    const self = process.cpuUsage(this.startSelf);
    return [
      (self.user + self.system) / 1000,
      ...this.trees.map((pid, index) => (pid === null ? NaN : processTreeCpuMs(pid) - this.startTrees[index])),
    ];
  }
}

/** "123 µs" of CPU per operation. */
export function microsecondsPer(cpuMs: number, operations: number): string {
  return Number.isFinite(cpuMs) ? `${Math.round((cpuMs * 1000) / operations)} µs` : 'n/a';
}
