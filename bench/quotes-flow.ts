/**
 * `npm run bench:quotes [-- --record]`: quote flows over HTTP, one flow = `POST /quotes` (201) then
 * `POST /quotes/{id}/execute` (200), against the service exactly as `createApp` builds it (all
 * roles in one process, the projector in a worker thread, like `npm start`, or another layout
 * with BENCH_TOPOLOGY, below; compiled
 * like `npm start`: the script builds dist/ and runs from there, since ts-node's hooks, e.g. the
 * `domain` module it loads, slow every event emitter),
 * on a real Postgres (embedded, durable: fsync and
 * synchronous commits on) and Redis (append-only file). Settlement (ledger moves, COMPLETED),
 * expiry tasks, projections and reactors all run during the measurement.
 *
 * The load comes from a separate process (this file with `--client`) over keep-alive HTTP:
 *   1. throughput: a closed loop of BENCH_CONCURRENCY flows in flight (default 48) for
 *      BENCH_SECONDS (default 20): flows/s, with the flow latency;
 *   2. fixed rate: flows started every 1/rate s (open loop: latency from the scheduled start, so
 *      a stall is not hidden) at 100/s and at 300/s, for BENCH_FIXED_SECONDS each (default
 *      BENCH_SECONDS if set, else 60): p50, p99, max, achieved rate. A minute because the slow
 *      flows come in clusters, one per mark-compact (about one per thread per minute at 100/s,
 *      and the first early in the phase, from the garbage of the phase before): over 20 s, the
 *      p99 is the 20th slowest of 2,000 flows, so one cluster more or less decides it.
 * Each phase also reports the CPU it cost per flow in every process (service, Postgres, Redis,
 * load client), which a busy shared machine does not distort. A phase ends a settlement delay
 * (plus a second) after its last flow: its CPU includes its own settlements, and the next phase
 * starts on a quiet service instead of under the previous phase's settlements (which put a
 * burst at about twice the new rate into its first second). `--record` appends to RESULTS.md.
 * Diagnosis only: BENCH_TIMING=1 also prints, per phase, the service's read-your-writes wait,
 * append and log-read latencies and event-loop delay; BENCH_CONCURRENCY=0 skips the closed loop; BENCH_COUNT_QUERIES=1 (below).
 */
import 'reflect-metadata';

// Request logs would cost more than the requests: warnings only, in this process and the client.
process.env.LOG_LEVEL ??= 'warn';
import { ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ProcessRole } from '../src/infra/config';
import { KeepAliveClient, RawResponse } from './keep-alive-client';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const FIXED_SECONDS = Number(process.env.BENCH_FIXED_SECONDS ?? process.env.BENCH_SECONDS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 48);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 64);
const RATES = (process.env.BENCH_RATES ?? '100,300').split(',').filter((rate) => rate.trim() !== '').map(Number);
/** Child processes run TypeScript through ts-node from a checkout, or the compiled twin under dist/. */
const TYPESCRIPT_ARGS = __filename.endsWith('.ts') ? ['-r', 'ts-node/register/transpile-only'] : [];
/** The heap flags this process was started with (`npm run bench:quotes` gives those of `npm start`). */
const HEAP_FLAGS = process.execArgv.filter((flag) => /^--(max-semi-space-size|heap-growing-percent)=/.test(flag));
/**
 * BENCH_TOPOLOGY: where the roles run. `thread` (default): as `npm start`, all in this process,
 * the projector in a worker thread. `one`: all on this process's main thread
 * (`PROJECTOR_THREAD=off npm start`). `api-worker`: the api and worker roles here, the projector
 * in a second process (the layout docker-compose.yml deploys: settlement shares the api's
 * account and quote state, and the projections get a core of their own). `split`: the api role
 * here, projector and worker in a second process.
 */
const TOPOLOGIES: Record<string, { here: ProcessRole[]; elsewhere: ProcessRole[]; description: string }> = {
  thread: { here: ['api', 'worker'], elsewhere: [], description: 'all roles in one process, the projector in a worker thread (npm start)' },
  one: { here: ['api', 'projector', 'worker'], elsewhere: [], description: 'all roles on the main thread (PROJECTOR_THREAD=off npm start)' },
  'api-worker': { here: ['api', 'worker'], elsewhere: ['projector'], description: 'api and worker roles in this process, the projector in another' },
  split: { here: ['api'], elsewhere: ['projector', 'worker'], description: 'api role in this process, projector and worker roles in another' },
};
const TOPOLOGY_NAME = process.env.BENCH_TOPOLOGY ?? 'thread';
if (!(TOPOLOGY_NAME in TOPOLOGIES)) throw new Error(`BENCH_TOPOLOGY must be one of ${Object.keys(TOPOLOGIES).join(', ')}`);
const TOPOLOGY = TOPOLOGIES[TOPOLOGY_NAME];
/** The repository: this file's parent, or its grandparent when it runs compiled from dist/bench. */
const REPOSITORY_ROOT = __filename.endsWith('.ts') ? join(__dirname, '..') : join(__dirname, '..', '..');

interface ClientSetup {
  baseUrl: string;
  authorization: string;
  /**
   * How long a phase's background work goes on after its last flow: its settlements come a
   * settlement delay after each execute. The client waits this long before the phase ends, so the
   * phase's CPU includes its own settlements and the next phase does not start under them.
   */
  drainMs: number;
  pairs: Array<{ source: string; destination: string }>;
}

interface PhaseResult {
  label: string;
  flows: number;
  failures: number;
  elapsedMs: number;
  latenciesMs: number[];
  createMs?: number[];
  executeMs?: number[];
}

// ---------------------------------------------------------------- load client (child process)

/** This process's connections to the service (bench/keep-alive-client.ts), opened on the first call. */
let keepAlive: KeepAliveClient | null = null;

function call(setup: ClientSetup, method: string, path: string, body: unknown): Promise<RawResponse> {
  keepAlive ??= new KeepAliveClient(setup.baseUrl, [`authorization: ${setup.authorization}`]);
  return keepAlive.request(method, path, body);
}

let pairIndex = 0;
let reportedFailure = false;
/** Per-request latencies of the current phase (ms). */
let createMs: number[] = [];
let executeMs: number[] = [];
async function flow(setup: ClientSetup): Promise<boolean> {
  const pair = setup.pairs[pairIndex++ % setup.pairs.length];
  const createStart = performance.now();
  const created = await call(setup, 'POST', '/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: pair.source },
    destination: { destinationType: 'ACCOUNT', accountId: pair.destination },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1_000,
  });
  if (created.status !== 201) {
    if (!reportedFailure) console.error('create failed', created.status, JSON.stringify(created.json));
    reportedFailure = true;
    return false;
  }
  const executeStart = performance.now();
  createMs.push(executeStart - createStart);
  const executed = await call(setup, 'POST', `/quotes/${created.json.id}/execute`, undefined);
  executeMs.push(performance.now() - executeStart);
  const ok = executed.status === 200 && executed.json.status === 'PROCESSING';
  if (!ok && !reportedFailure) console.error('execute failed', executed.status, JSON.stringify(executed.json));
  reportedFailure ||= !ok;
  return ok;
}

/** A flow that threw (a socket error): counted as failed, the first one printed. */
function flowError(error: unknown): boolean {
  if (!reportedFailure) console.error('flow error', String(error));
  reportedFailure = true;
  return false;
}

async function closedLoop(setup: ClientSetup, label: string, concurrency: number, seconds: number): Promise<PhaseResult> {
  const result: PhaseResult = { label, flows: 0, failures: 0, elapsedMs: 0, latenciesMs: [] };
  const started = Date.now();
  const deadline = started + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < deadline) {
      const flowStart = performance.now();
      const ok = await flow(setup).catch(flowError);
      result.latenciesMs.push(performance.now() - flowStart);
      if (ok) result.flows++;
      else result.failures++;
    }
  }));
  result.elapsedMs = Date.now() - started;
  return result;
}

async function fixedRate(setup: ClientSetup, label: string, perSecond: number, seconds: number): Promise<PhaseResult> {
  const result: PhaseResult = { label, flows: 0, failures: 0, elapsedMs: 0, latenciesMs: [] };
  const total = Math.round(perSecond * seconds);
  const intervalMs = 1000 / perSecond;
  const origin = performance.now();
  const epochOrigin = Date.now();
  const inFlight: Promise<void>[] = [];
  /** BENCH_SERIES=<file> (diagnosis): each flow's scheduled start and latency (ms), one JSON line per phase. */
  const series: Array<[number, number]> | null = process.env.BENCH_SERIES ? [] : null;
  for (let index = 0; index < total; index++) {
    const scheduled = origin + index * intervalMs;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(
      flow(setup)
        .catch(flowError)
        .then((ok) => {
          result.latenciesMs.push(performance.now() - scheduled);
          series?.push([Math.round(scheduled - origin), Math.round(performance.now() - scheduled)]);
          if (ok) result.flows++;
          else result.failures++;
        }),
    );
  }
  await Promise.all(inFlight);
  result.elapsedMs = performance.now() - origin;
  if (series) appendFileSync(process.env.BENCH_SERIES!, JSON.stringify({ rate: perSecond, epochOrigin, flows: series }) + '\n');
  return result;
}

async function runClient(): Promise<void> {
  const clientLoop = process.env.BENCH_TIMING === '1' ? monitorEventLoopDelay({ resolution: 1 }) : null;
  clientLoop?.enable();
  const setup = await new Promise<ClientSetup>((resolve) => process.once('message', (message) => resolve(message as ClientSetup)));
  const phases: Array<() => Promise<PhaseResult>> = [
    () => closedLoop(setup, 'warm-up', 16, 5),
    // BENCH_CONCURRENCY=0: the fixed rates only (diagnosis).
    ...(CONCURRENCY > 0 ? [() => closedLoop(setup, `throughput (closed loop, ${CONCURRENCY} in flight)`, CONCURRENCY, SECONDS)] : []),
    ...RATES.map((rate) => () => fixedRate(setup, `fixed rate ${rate} flows/s`, rate, FIXED_SECONDS)),
  ];
  for (const phase of phases) {
    process.send!({ kind: 'phase-start' });
    await new Promise((resolve) => process.once('message', resolve));
    createMs = [];
    executeMs = [];
    clientLoop?.reset();
    const result = await phase();
    result.createMs = createMs;
    result.executeMs = executeMs;
    if (clientLoop) {
      // BENCH_TIMING=1: how late the load client itself ran (its timers and answers wait behind it).
      process.stderr.write(
        `  timing: load client event-loop delay p50 ${(clientLoop.percentile(50) / 1e6).toFixed(1)} / p99 ${(clientLoop.percentile(99) / 1e6).toFixed(1)} / max ${(clientLoop.max / 1e6).toFixed(1)} ms (${result.label})\n`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, setup.drainMs));
    process.send!({ kind: 'phase-end', result, clientCpuMs: ownCpuMs() });
    await new Promise((resolve) => process.once('message', resolve));
  }
  process.send!({ kind: 'done' });
  keepAlive?.close();
}

// ---------------------------------------------------------------- CPU accounting (from /proc)

function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** CPU ms of a process tree (its live descendants and reaped children included). */
function treeCpuMs(rootPid: number): number {
  const stats = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((entry) => {
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      return [{ pid: Number(entry), parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) }];
    } catch {
      return [];
    }
  });
  let ticks = 0;
  const visit = (pid: number) => {
    for (const stat of stats) {
      if (stat.pid === pid) ticks += stat.ticks;
      if (stat.parent === pid) visit(stat.pid);
    }
  };
  visit(rootPid);
  return ticks * 10;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

// ---------------------------------------------------------------- service (parent process)

/** BENCH_COUNT_QUERIES=1: counts the SQL statements the service sends, by their first words. */
function countQueries(): Map<string, number> {
  const counts = new Map<string, number>();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pg = require('pg');
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, config: any, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : config?.text ?? config?.name ?? '?';
    const key = String(text).replace(/\s+/g, ' ').replace(/^SELECT e\.global_position.*? FROM events e/, '[events]').slice(0, 90);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return original.call(this, config, ...rest);
  };
  return counts;
}

async function runService(): Promise<void> {
  const queryCounts = process.env.BENCH_COUNT_QUERIES ? countQueries() : null;
  const { createApp } = await import('../src/app.factory');
  const { loadConfig } = await import('../src/infra/config');
  const { startEmbeddedPostgres } = await import('../src/infra/runtime/embedded-postgres');
  const { startLocalRedis } = await import('../src/infra/runtime/local-redis');
  const { ProjectorThread } = await import('../src/infra/projections/projector-thread');
  const { PlatformsService } = await import('../src/platforms/platforms.service');

  const loadAtStart = loadavg()[0].toFixed(1);
  const root = mkdtempSync(join(tmpdir(), 'bench-quotes-'));
  chmodSync(root, 0o755);
  // BENCH_UNSAFE_NO_FSYNC=1 (diagnosis only, never recorded): how much of a flow is waiting for the disk.
  const unsafe: Record<string, string> = process.env.BENCH_UNSAFE_NO_FSYNC === '1' ? { fsync: 'off', synchronous_commit: 'off' } : {};
  const postgres = await startEmbeddedPostgres({ dataDir: join(root, 'postgres'), persistent: false, settings: { max_connections: 200, ...unsafe } });
  const redis = await startLocalRedis({ dataDir: join(root, 'redis'), persistent: true });
  let client: ChildProcess | null = null;
  let background: ChildProcess | null = null;
  let projectorThread: import('../src/infra/projections/projector-thread').ProjectorThread | null = null;
  const lines: string[] = [];
  const report = (line: string) => {
    process.stdout.write(line + '\n');
    lines.push(line);
  };
  try {
    const env = { MASTER_KEY: randomBytes(32).toString('hex'), QUEUE_PREFIX: 'bench', DATA_DIR: join(root, 'data'), SERVICE_MODE: 'sandbox', LOG_LEVEL: 'warn', ...pick(process.env, /^SANDBOX_/) };
    const config = loadConfig(env, { databaseUrl: postgres.url, redisUrl: redis.url });
    if (TOPOLOGY.elsewhere.length > 0) {
      // Two processes, so the service can use both cores.
      background = await startBackgroundRoles(TOPOLOGY.elsewhere, { ...env, DATABASE_URL: postgres.url, REDIS_URL: redis.url });
    }
    config.roles = new Set(TOPOLOGY.here);
    if (TOPOLOGY_NAME === 'thread') projectorThread = ProjectorThread.forProcess(config);
    const app = await createApp(config, { projectorThread: projectorThread ?? undefined });
    await projectorThread?.start();
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as { port: number }).port;
    const timing = process.env.BENCH_TIMING === '1' ? await timeService(app) : null;
    const platform = await app.get(PlatformsService).createPlatform();
    const setup: ClientSetup = {
      baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
      authorization: `Basic ${Buffer.from(`${platform.clientId}:${platform.clientSecret}`).toString('base64')}`,
      drainMs: config.sandbox.settlementDelayMs + 1000,
      pairs: [],
    };
    setup.pairs = await createCustomers(setup, CUSTOMERS);
    report(
      `- ${TOPOLOGY.description}, node ${HEAP_FLAGS.length > 0 ? HEAP_FLAGS.join(' ') : 'with V8\'s default heap sizes'}; ${CUSTOMERS} customers ` +
        `(one funded USD account and one external account each); settlement delay ${config.sandbox.settlementDelayMs} ms; load average at start ${loadAtStart}`,
    );

    client = fork(__filename, ['--client'], { execArgv: TYPESCRIPT_ARGS, stdio: 'inherit' });
    const meter: Record<string, () => number> = {
      service: ownCpuMs,
      ...(background ? { [`${TOPOLOGY.elsewhere.join('+')} process`]: () => treeCpuMs(background!.pid!) } : {}),
      postgres: () => treeCpuMs(postgres.postmasterPid),
      redis: () => treeCpuMs(redis.redisPid),
    };
    client.send(setup);
    let before: Record<string, number> = {};
    let clientCpuBefore = 0;
    await new Promise<void>((resolve, reject) => {
      client!.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`client exited with ${code}`))));
      client!.on('message', (message: any) => {
        if (message.kind === 'phase-start') {
          before = Object.fromEntries(Object.entries(meter).map(([name, read]) => [name, read()]));
          timing?.reset();
          client!.send('go');
        } else if (message.kind === 'phase-end') {
          const spent = Object.fromEntries(Object.entries(meter).map(([name, read]) => [name, read() - before[name]]));
          spent.client = message.clientCpuMs - clientCpuBefore;
          clientCpuBefore = message.clientCpuMs;
          describePhase(message.result as PhaseResult, spent, report);
          if (timing && (message.result as PhaseResult).label !== 'warm-up') process.stdout.write(timing.describe() + '\n');
          client!.send('next');
        } else if (message.kind === 'done') {
          client!.disconnect();
          resolve();
        }
      });
    });
    await projectorThread?.stop();
    await app.close();
    if (queryCounts) {
      for (const [text, count] of [...queryCounts].sort((a, b) => b[1] - a[1]).slice(0, 40)) process.stdout.write(`${String(count).padStart(8)}  ${text}\n`);
    }
  } finally {
    client?.kill();
    // Already stopped after a full run; after a failure, a running thread would keep the process alive.
    await projectorThread?.stop();
    if (background && background.exitCode === null) {
      background.kill('SIGTERM');
      await new Promise((resolve) => background!.once('exit', resolve));
    }
    await redis.stop();
    await postgres.stop();
    rmSync(root, { recursive: true, force: true });
  }
  if (process.argv.includes('--record') && !process.env.BENCH_UNSAFE_NO_FSYNC) {
    const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
    appendFileSync(join(REPOSITORY_ROOT, 'bench', 'RESULTS.md'), `\n### Quote flows (bench/quotes-flow.ts), ${new Date().toISOString()}, ${machine}\n\n${lines.join('\n')}\n`);
  }
}

/**
 * BENCH_TIMING=1 (diagnosis): where a request's time goes inside the service. The read-your-writes
 * wait (from the handler's answer to the projector including its events) and the event-loop delay
 * (how long ready work queues behind other work in this one process).
 */
async function timeService(app: { get(token: unknown): any }): Promise<{ reset(): void; describe(): string }> {
  const { READ_MODEL_WAITER } = await import('../src/infra/projections/read-model-waiter');
  const waiter = app.get(READ_MODEL_WAITER);
  const original = waiter.waitFor.bind(waiter);
  let waits: number[] = [];
  waiter.waitFor = async (position: unknown, timeoutMs: number) => {
    const started = performance.now();
    const reached = await original(position, timeoutMs);
    waits.push(performance.now() - started);
    return reached;
  };
  // Each append (a durable commit) and each read of the log, timed in the store.
  const { EventStoreService } = await import('../src/infra/event-store/event-store.service');
  const store = app.get(EventStoreService).store;
  let appends: number[] = [];
  let logReads: number[] = [];
  const timed = (name: 'appendToStream' | 'readAll', into: () => number[]) => {
    const inner = store[name].bind(store) as (...args: unknown[]) => Promise<unknown>;
    (store as any)[name] = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        return await inner(...args);
      } finally {
        into().push(performance.now() - started);
      }
    };
  };
  timed('appendToStream', () => appends);
  timed('readAll', () => logReads);
  // Each request from its headers parsed to its answer written: the service's share of a request.
  let requests: number[] = [];
  (app as unknown as { getHttpServer(): http.Server }).getHttpServer().on('request', (_request: http.IncomingMessage, response: http.ServerResponse) => {
    const started = performance.now();
    response.once('finish', () => requests.push(performance.now() - started));
  });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const pct = (values: number[], p: number) => (values.length ? values[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] : 0);
  return {
    reset() {
      waits = [];
      requests = [];
      appends = [];
      logReads = [];
      loop.reset();
    },
    describe() {
      const sorted = [...waits].sort((a, b) => a - b);
      const appendsSorted = [...appends].sort((a, b) => a - b);
      const readsSorted = [...logReads].sort((a, b) => a - b);
      const requestsSorted = [...requests].sort((a, b) => a - b);
      return (
        `  timing: in the service per request p50 ${pct(requestsSorted, 50).toFixed(1)} / p99 ${pct(requestsSorted, 99).toFixed(1)} ms; ` +
        `read-your-writes wait p50 ${pct(sorted, 50).toFixed(1)} / p99 ${pct(sorted, 99).toFixed(1)} ms (${sorted.length} waits); ` +
        `append p50 ${pct(appendsSorted, 50).toFixed(1)} / p99 ${pct(appendsSorted, 99).toFixed(1)} ms (${appendsSorted.length}); ` +
        `log read p50 ${pct(readsSorted, 50).toFixed(1)} / p99 ${pct(readsSorted, 99).toFixed(1)} ms (${readsSorted.length}); ` +
        `event-loop delay p50 ${(loop.percentile(50) / 1e6).toFixed(1)} / p99 ${(loop.percentile(99) / 1e6).toFixed(1)} / max ${(loop.max / 1e6).toFixed(1)} ms`
      );
    },
  };
}

function describePhase(result: PhaseResult, spentMs: Record<string, number>, report: (line: string) => void): void {
  if (result.label === 'warm-up') return;
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  const rate = (result.flows * 1000) / result.elapsedMs;
  const perFlow = Object.entries(spentMs).map(([name, ms]) => [name, ms / Math.max(1, result.flows)] as const);
  const cpuPerFlow = perFlow.reduce((sum, [, ms]) => sum + ms, 0);
  const ceiling = (cpus().length * 1000) / cpuPerFlow;
  const requestLatency = (name: string, values: number[] | undefined) => {
    const ordered = [...(values ?? [])].sort((a, b) => a - b);
    return `${name} p50 ${percentile(ordered, 0.5).toFixed(1)} / p99 ${percentile(ordered, 0.99).toFixed(1)} ms`;
  };
  report(
    `- ${result.label}: **${rate.toFixed(0)} flows/s** (${result.flows} flows, ${result.failures} failed, ${(result.elapsedMs / 1000).toFixed(1)} s); ` +
      `flow latency p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${sorted[sorted.length - 1]?.toFixed(1)} ms ` +
      `(${requestLatency('create', result.createMs)}, ${requestLatency('execute', result.executeMs)}); ` +
      `CPU per flow ${perFlow.map(([name, ms]) => `${name} ${ms.toFixed(2)}`).join(', ')} = ${cpuPerFlow.toFixed(2)} ms (CPU-bound ceiling on ${cpus().length} cores ≈ ${ceiling.toFixed(0)}/s)`,
  );
}

async function createCustomers(setup: ClientSetup, count: number): Promise<ClientSetup['pairs']> {
  const pairs: ClientSetup['pairs'] = [];
  for (let index = 0; index < count; index++) {
    const customer = await call(setup, 'POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `bench-${index}`, fullName: 'Bench Customer', email: 'bench@example.com' });
    const accounts = await call(setup, 'GET', `/internal-accounts?customerId=${encodeURIComponent(customer.json.id)}&currency=USD`, undefined);
    const usd = accounts.json.data[0].id;
    await call(setup, 'POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 1_000_000_000_000 });
    const external = await call(setup, 'POST', '/customers/external-accounts', {
      customerId: customer.json.id,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: `12345${String(index).padStart(3, '0')}789`,
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: `Bench Payee ${index}` },
      },
    });
    if (external.status !== 201) throw new Error(`external account: ${external.status} ${JSON.stringify(external.json)}`);
    pairs.push({ source: usd, destination: external.json.id });
  }
  keepAlive?.close();
  keepAlive = null;
  return pairs;
}

/** `src/main.ts <roles>` in its own process, with this process's heap flags, ready when it says so. */
async function startBackgroundRoles(roles: ProcessRole[], env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...HEAP_FLAGS, ...TYPESCRIPT_ARGS, join(__dirname, '..', 'src', `main${extname(__filename)}`), ...roles], {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Running roles')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${roles.join('/')} process exited with ${code}: ${output}`)));
  });
  return child;
}

function pick(env: NodeJS.ProcessEnv, pattern: RegExp): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => pattern.test(name) && value !== undefined)) as Record<string, string>;
}

if (process.argv.includes('--client')) {
  runClient().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  runService().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
