/**
 * `npm run bench:cards [-- --record]`: card authorizations over HTTP, one authorization =
 * `POST /sandbox/cards/{id}/simulate/authorization` (202), against the service as `npm start`
 * builds it (all roles in one process, the projector in a worker thread; compiled: the script
 * builds dist/ and runs from there, like bench/quotes-flow.ts, whose machinery this follows) on
 * a real Postgres (embedded, durable) and Redis (append-only file). Each authorization decides,
 * holds the money and records the transaction in one commit before its 202; the pull
 * confirmation tasks, the projections and the webhook reactors run during the measurement.
 *
 * BENCH_CARDS cards (default 64), each funded by its own cardholder's USD account holding far
 * more than the run spends, take the authorizations in turn: the load is spread over many
 * accounts. BENCH_CARDS=1 measures the one hot account instead (every hold on one ledger stream).
 *
 * The load comes from a separate process (this file with `--client`) over keep-alive HTTP
 * (bench/keep-alive-client.ts):
 *   1. throughput: a closed loop of BENCH_CONCURRENCY authorizations in flight (default 48) for
 *      BENCH_SECONDS (default 20);
 *   2. fixed rate: one authorization every 1/BENCH_RATE s (default 100/s; open loop, latency from
 *      the scheduled start) for BENCH_FIXED_SECONDS (default BENCH_SECONDS if set, else 60, for
 *      the reason bench/quotes-flow.ts gives): p50, p99, max.
 * Each phase reports the CPU per authorization in every process (service, Postgres, Redis, load
 * client), and ends a settlement delay (plus a second) after its last request and once every
 * projection has applied its events (`GET /health`), so its CPU includes its own pull
 * confirmations and projections, and the next phase starts on a quiet service. After the run, the approved and declined authorizations are counted
 * from the event store (all must be approved: the accounts never run short). `--record` appends
 * to bench/RESULTS.md with the machine, the date and the load average.
 * Diagnosis only: BENCH_TIMING=1 prints, per phase, where a request's time goes in the service
 * (time inside it, the read-your-writes wait, event-loop delay) and when the slow ones came;
 * BENCH_CONCURRENCY=0 skips the closed loop.
 */
import 'reflect-metadata';

// Request logs would cost more than the requests: warnings only, in this process and the client.
process.env.LOG_LEVEL ??= 'warn';
import { ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import type http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'pg';
import { CpuSnapshot, describeCpuPerItem, ownCpuMs, treeCpuMs } from './lib/cpu-accounting';
import { machineDescription, percentile } from './lib/environment';
import { KeepAliveClient, RawResponse } from './keep-alive-client';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const FIXED_SECONDS = Number(process.env.BENCH_FIXED_SECONDS ?? process.env.BENCH_SECONDS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 48);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const CARDS = Number(process.env.BENCH_CARDS ?? 64);
const AMOUNT_CENTS = 100;
/** Far more than a run spends (~300/s x 100 s x 100 cents per card even if one card took all). */
const FUNDING_CENTS = 1_000_000_000_000;
/** Child processes run TypeScript through ts-node from a checkout, or the compiled twin under dist/. */
const TYPESCRIPT_ARGS = __filename.endsWith('.ts') ? ['-r', 'ts-node/register/transpile-only'] : [];
const HEAP_FLAGS = process.execArgv.filter((flag) => /^--(max-semi-space-size|heap-growing-percent)=/.test(flag));
/** bench/RESULTS.md of the checkout (this file's parent, or its grandparent when it runs compiled from dist/bench), or BENCH_RESULTS_FILE. */
const RESULTS_FILE = process.env.BENCH_RESULTS_FILE || join(__dirname, ...(__filename.endsWith('.ts') ? [] : ['..', '..', 'bench']), 'RESULTS.md');

interface ClientSetup {
  baseUrl: string;
  authorization: string;
  /** How long a phase's pull confirmations go on after its last authorization. */
  drainMs: number;
  cardIds: string[];
}

interface PhaseResult {
  label: string;
  approved: number;
  failures: number;
  elapsedMs: number;
  latenciesMs: number[];
  /** BENCH_TIMING=1: how many requests took over 50 ms, by the second of the phase they started in. */
  slowBySecond?: number[];
  /** How long the projections took, after the drain, to apply the phase's last events. */
  catchUpMs?: number;
}

// ---------------------------------------------------------------- load client (child process)

let keepAlive: KeepAliveClient | null = null;
function call(setup: ClientSetup, method: string, path: string, body?: unknown): Promise<RawResponse> {
  keepAlive ??= new KeepAliveClient(setup.baseUrl, [`authorization: ${setup.authorization}`]);
  return keepAlive.request(method, path, body);
}

let cardIndex = 0;
let reportedFailure = false;
async function authorizeOnce(setup: ClientSetup): Promise<boolean> {
  const cardId = setup.cardIds[cardIndex++ % setup.cardIds.length];
  const body = { amount: AMOUNT_CENTS, currency: { code: 'USD' }, merchant: { descriptor: 'BENCH COFFEE', mcc: '5814', country: 'US' } };
  const answer = await call(setup, 'POST', `/sandbox/cards/${cardId}/simulate/authorization`, body).catch((error) => ({ status: 0, json: String(error) }));
  if (answer.status !== 202 && !reportedFailure) console.error('authorization failed', answer.status, JSON.stringify(answer.json));
  reportedFailure ||= answer.status !== 202;
  return answer.status === 202;
}

async function closedLoop(setup: ClientSetup, label: string, concurrency: number, seconds: number): Promise<PhaseResult> {
  const result: PhaseResult = { label, approved: 0, failures: 0, elapsedMs: 0, latenciesMs: [] };
  const started = performance.now();
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < deadline) {
      const sent = performance.now();
      const ok = await authorizeOnce(setup);
      result.latenciesMs.push(performance.now() - sent);
      if (ok) result.approved++;
      else result.failures++;
    }
  }));
  result.elapsedMs = performance.now() - started;
  return result;
}

/** Open loop: each authorization's latency counts from its scheduled start, so a stall is not hidden. */
async function fixedRate(setup: ClientSetup, label: string, perSecond: number, seconds: number): Promise<PhaseResult> {
  const result: PhaseResult = { label, approved: 0, failures: 0, elapsedMs: 0, latenciesMs: [] };
  const origin = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let index = 0; index < Math.round(perSecond * seconds); index++) {
    const scheduled = origin + (index * 1000) / perSecond;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(authorizeOnce(setup).then((ok) => {
      result.latenciesMs.push(performance.now() - scheduled);
      if (process.env.BENCH_TIMING === '1' && performance.now() - scheduled > 50) {
        result.slowBySecond ??= Array.from({ length: Math.ceil(seconds) }, () => 0);
        result.slowBySecond[Math.floor((scheduled - origin) / 1000)]++;
      }
      if (ok) result.approved++;
      else result.failures++;
    }));
  }
  await Promise.all(inFlight);
  result.elapsedMs = performance.now() - origin;
  return result;
}

/**
 * Waits until every projection has applied the whole log (`GET /health`), so the next phase starts
 * on a service that is not still projecting this one's events (a closed loop leaves thousands
 * behind, and the fixed-rate phase would measure their read-your-writes waits instead of its own
 * rate). Answers how long it took after the drain; the phase's CPU includes it.
 */
async function projectionsCaughtUp(setup: ClientSetup): Promise<number> {
  const started = performance.now();
  const healthUrl = `${new URL(setup.baseUrl).origin}/health`;
  while (performance.now() - started < 120_000) {
    const report = (await (await fetch(healthUrl)).json()) as { checks: { projections: { consumers?: Record<string, { kind: string; lagEvents: number }> } } };
    const consumers = Object.values(report.checks.projections.consumers ?? {});
    if (consumers.length > 0 && consumers.every((consumer) => consumer.kind !== 'projection' || consumer.lagEvents === 0)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return performance.now() - started;
}

async function runClient(): Promise<void> {
  const setup = await new Promise<ClientSetup>((resolve) => process.once('message', (message) => resolve(message as ClientSetup)));
  const phases: Array<() => Promise<PhaseResult>> = [
    () => closedLoop(setup, 'warm-up', 16, 5),
    ...(CONCURRENCY > 0 ? [() => closedLoop(setup, `throughput (closed loop, ${CONCURRENCY} in flight)`, CONCURRENCY, SECONDS)] : []),
    () => fixedRate(setup, `fixed rate ${RATE}/s`, RATE, FIXED_SECONDS),
  ];
  for (const phase of phases) {
    process.send!({ kind: 'phase-start' });
    await new Promise((resolve) => process.once('message', resolve));
    const result = await phase();
    await new Promise((resolve) => setTimeout(resolve, setup.drainMs));
    result.catchUpMs = await projectionsCaughtUp(setup);
    process.send!({ kind: 'phase-end', result, clientCpuMs: ownCpuMs() });
    await new Promise((resolve) => process.once('message', resolve));
  }
  keepAlive?.close();
  process.send!({ kind: 'done' });
}

// ---------------------------------------------------------------- service (parent process)

async function runService(): Promise<void> {
  const { createApp } = await import('../src/app.factory');
  const { loadConfig } = await import('../src/infra/config');
  const { startEmbeddedPostgres } = await import('../src/infra/runtime/embedded-postgres');
  const { startLocalRedis } = await import('../src/infra/runtime/local-redis');
  const { ProjectorThread } = await import('../src/infra/projections/projector-thread');
  const { PlatformsService } = await import('../src/platforms/platforms.service');

  const loadAtStart = loadavg().map((load) => load.toFixed(1)).join(' / ');
  const root = mkdtempSync(join(tmpdir(), 'bench-cards-'));
  chmodSync(root, 0o755);
  const postgres = await startEmbeddedPostgres({ dataDir: join(root, 'postgres'), persistent: false, settings: { max_connections: 200 } });
  const redis = await startLocalRedis({ dataDir: join(root, 'redis'), persistent: true });
  const lines: string[] = [];
  const report = (line: string) => {
    process.stdout.write(line + '\n');
    lines.push(line);
  };
  let client: ChildProcess | null = null;
  let projectorThread: import('../src/infra/projections/projector-thread').ProjectorThread | null = null;
  try {
    const env = { MASTER_KEY: randomBytes(32).toString('hex'), QUEUE_PREFIX: 'bench', DATA_DIR: join(root, 'data'), SERVICE_MODE: 'sandbox', LOG_LEVEL: 'warn' };
    const config = loadConfig({ ...env, ...sandboxEnv() }, { databaseUrl: postgres.url, redisUrl: redis.url });
    config.roles = new Set(['api', 'worker']);
    projectorThread = ProjectorThread.forProcess(config);
    const app = await createApp(config, { projectorThread });
    await projectorThread.start();
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as { port: number }).port;
    const platform = await app.get(PlatformsService).createPlatform();
    const setup: ClientSetup = {
      baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
      authorization: `Basic ${Buffer.from(`${platform.clientId}:${platform.clientSecret}`).toString('base64')}`,
      drainMs: config.sandbox.settlementDelayMs + 1000,
      cardIds: [],
    };
    setup.cardIds = await createCards(setup, CARDS);
    report(
      `- all roles in one process, the projector in a worker thread (npm start), node ${HEAP_FLAGS.join(' ') || "with V8's default heap sizes"}; ` +
        `${CARDS} ACTIVE cards, each on its own funded USD account; ${AMOUNT_CENTS} cents an authorization; ` +
        `pull confirmation after ${config.sandbox.settlementDelayMs} ms; load average at start ${loadAtStart}`,
    );

    client = fork(__filename, ['--client'], { execArgv: TYPESCRIPT_ARGS, stdio: 'inherit' });
    const meter: Record<string, () => number> = { service: ownCpuMs, postgres: () => treeCpuMs(postgres.postmasterPid), redis: () => treeCpuMs(redis.redisPid) };
    const timing = process.env.BENCH_TIMING === '1' ? await timeService(app) : null;
    await drive(client, setup, meter, report, timing);
    report(await countOutcomes(postgres.url));
    await projectorThread.stop();
    await app.close();
  } finally {
    client?.kill();
    await projectorThread?.stop();
    await redis.stop();
    await postgres.stop();
    rmSync(root, { recursive: true, force: true });
  }
  if (process.argv.includes('--record')) {
    appendFileSync(RESULTS_FILE, `\n### Card authorizations (bench/card-authorizations.ts), ${new Date().toISOString()}, ${machineDescription()}\n\n${lines.join('\n')}\n`);
  }
}

/** The sandbox delays given to this process (SANDBOX_*), so a run can shorten the pull confirmation. */
function sandboxEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([name, value]) => name.startsWith('SANDBOX_') && value !== undefined)) as Record<string, string>;
}

/** Runs the client's phases, metering each one's CPU per process. */
async function drive(client: ChildProcess, setup: ClientSetup, meter: Record<string, () => number>, report: (line: string) => void, timing: Timing | null): Promise<void> {
  const snapshot = (): CpuSnapshot => Object.fromEntries(Object.entries(meter).map(([name, read]) => [name, read()]));
  let before: CpuSnapshot = {};
  let clientCpuBefore = 0;
  client.send(setup);
  await new Promise<void>((resolve, reject) => {
    client.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`client exited with ${code}`))));
    client.on('message', (message: any) => {
      if (message.kind === 'phase-start') {
        before = snapshot();
        timing?.reset();
        client.send('go');
      } else if (message.kind === 'phase-end') {
        const after = snapshot();
        const spent: CpuSnapshot = Object.fromEntries(Object.keys(after).map((name) => [name, after[name] - before[name]]));
        spent.client = message.clientCpuMs - clientCpuBefore;
        clientCpuBefore = message.clientCpuMs;
        describePhase(message.result as PhaseResult, spent, report);
        if (timing && message.result.label !== 'warm-up') {
          process.stdout.write(`  timing: ${timing.describe()}; requests over 50 ms by second: ${message.result.slowBySecond?.join(' ') ?? 'none'}\n`);
        }
        client.send('next');
      } else if (message.kind === 'done') {
        client.disconnect();
        resolve();
      }
    });
  });
}

function describePhase(result: PhaseResult, spentMs: CpuSnapshot, report: (line: string) => void): void {
  if (result.label === 'warm-up') return;
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  const cpu = describeCpuPerItem(spentMs, Math.max(1, result.approved), 'authorization');
  report(
    `- ${result.label}: **${((result.approved * 1000) / result.elapsedMs).toFixed(0)} authorizations/s** ` +
      `(${result.approved} answered 202, ${result.failures} failed, ${(result.elapsedMs / 1000).toFixed(1)} s); ` +
      `latency p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${sorted[sorted.length - 1]?.toFixed(1)} ms; ` +
      `CPU ${cpu.text} (CPU-bound ceiling on 2 cores ≈ ${(2000 / cpu.totalMs).toFixed(0)}/s); ` +
      `projections caught up ${((result.catchUpMs ?? 0) / 1000).toFixed(1)} s after the drain`,
  );
}

interface Timing {
  reset(): void;
  describe(): string;
}

/**
 * BENCH_TIMING=1 (diagnosis): each request's time inside the service (headers parsed to answer
 * written), the part of it spent waiting for the projector (read-your-writes), and the event-loop
 * delay (ready work queued behind other work), as bench/quotes-flow.ts measures them.
 */
async function timeService(app: { get(token: unknown): any; getHttpServer(): http.Server }): Promise<Timing> {
  const { READ_MODEL_WAITER } = await import('../src/infra/projections/read-model-waiter');
  const waiter = app.get(READ_MODEL_WAITER);
  const waitFor = waiter.waitFor.bind(waiter);
  let waits: number[] = [];
  let requests: number[] = [];
  waiter.waitFor = async (position: unknown, timeoutMs: number) => {
    const started = performance.now();
    try {
      return await waitFor(position, timeoutMs);
    } finally {
      waits.push(performance.now() - started);
    }
  };
  app.getHttpServer().on('request', (_request: http.IncomingMessage, response: http.ServerResponse) => {
    const started = performance.now();
    response.once('finish', () => requests.push(performance.now() - started));
  });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const spread = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `p50 ${percentile(sorted, 0.5).toFixed(1)} / p99 ${percentile(sorted, 0.99).toFixed(1)} ms`;
  };
  return {
    reset() {
      waits = [];
      requests = [];
      loop.reset();
    },
    describe: () =>
      `in the service ${spread(requests)}; read-your-writes wait ${spread(waits)} (${waits.length} waits); ` +
      `event-loop delay p50 ${(loop.percentile(50) / 1e6).toFixed(1)} / p99 ${(loop.percentile(99) / 1e6).toFixed(1)} / max ${(loop.max / 1e6).toFixed(1)} ms`,
  };
}

/** BENCH_CARDS cardholders (KYC approved), each with a funded USD account and an ACTIVE card on it. */
async function createCards(setup: ClientSetup, count: number): Promise<string[]> {
  const cardIds: string[] = [];
  for (let index = 0; index < count; index++) {
    const customer = await call(setup, 'POST', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `bench-${index}`, fullName: 'Bench Holder', email: 'bench@example.com' });
    const accounts = await call(setup, 'GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.json.id)}`);
    const usd = accounts.json.data.find((account: any) => account.balance.currency.code === 'USD').id;
    await call(setup, 'POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: FUNDING_CENTS });
    const card = await call(setup, 'POST', '/cards', { cardholderId: customer.json.id, form: 'VIRTUAL', fundingSources: [usd], platformCardId: `bench-card-${index}` });
    if (card.status !== 201) throw new Error(`card: ${card.status} ${JSON.stringify(card.json)}`);
    cardIds.push(card.json.id);
  }
  // The sandbox issuer activates each card a settlement delay later.
  for (const cardId of cardIds) {
    while ((await call(setup, 'GET', `/cards/${cardId}`)).json.state !== 'ACTIVE') await new Promise((resolve) => setTimeout(resolve, 100));
  }
  keepAlive?.close();
  keepAlive = null;
  return cardIds;
}

/** Approved and declined authorizations, from the event store. */
async function countOutcomes(databaseUrl: string): Promise<string> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const result = await pool.query<{ type: string; count: string }>(
      `SELECT event_type AS type, count(*)::text AS count FROM events WHERE event_type = ANY($1) GROUP BY event_type`,
      [['CardTransactionAuthorized', 'CardAuthorizationDeclined', 'CardPullConfirmed']],
    );
    const counts = Object.fromEntries(result.rows.map((row) => [row.type, Number(row.count)]));
    return `- over the whole run (warm-up included): ${counts.CardTransactionAuthorized ?? 0} approved, ${counts.CardAuthorizationDeclined ?? 0} declined, ${counts.CardPullConfirmed ?? 0} pulls confirmed`;
  } finally {
    await pool.end();
  }
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
