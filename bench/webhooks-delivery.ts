/**
 * `npm run bench:webhooks [-- <webhooks>]`: webhook deliveries per second to a local endpoint.
 *
 * Real Postgres (embedded, durable commits) and Redis (local redis-server, append-only file) are
 * started for the run, the endpoint runs in its own process, and the service runs in this one
 * exactly as `createApp` builds it.
 *   1. queue: N events stored, the projector role turns them into N queued deliveries;
 *   2. deliver: a worker-role app drains that backlog (the headline deliveries/s);
 *   3. end to end: all roles in one process; N events appended, time until all are delivered;
 *   4. fan-out: the same over 8 platforms (per-platform queues and workers);
 *   5. the production split: api + projector in this process, `main.ts worker` in another.
 * Each phase also reports the CPU it cost per webhook in every process involved (service,
 * Postgres, Redis, endpoint), which a busy shared machine does not distort, and the rate the
 * machine's cores would sustain at that cost. WEBHOOK_* variables apply (e.g.
 * WEBHOOK_PLATFORM_CONCURRENCY); BENCH_ONLY=backlog runs phases 1-2 without recording;
 * BENCH_PROFILE=<dir> writes a CPU profile per phase.
 * Prints the figures and appends them to bench/RESULTS.md with the machine and date.
 */
import 'reflect-metadata';
import { ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { Pool } from 'pg';
import { createApp } from '../src/app.factory';
import { AppConfig, ProcessRole, loadConfig } from '../src/infra/config';
import { EventStoreService } from '../src/infra/event-store/event-store.service';
import { uuidv7 } from '../src/infra/ids';
import { runWithContext } from '../src/infra/request-context';
import { startEmbeddedPostgres } from '../src/infra/runtime/embedded-postgres';
import { startLocalRedis } from '../src/infra/runtime/local-redis';
import { PlatformsService } from '../src/platforms/platforms.service';
import { PlatformConfigQuery } from '../src/platforms/queries/platform-config.query';
import { CpuMeter, describeCpuPerItem, ownCpuMs, treeCpuMs } from './lib/cpu-accounting';

const WEBHOOKS = Number(process.argv[2] ?? process.env.BENCH_WEBHOOKS ?? 20_000);
const APPEND_CONCURRENCY = 32;

interface Sink {
  url: string;
  pid: number;
  count(): Promise<number>;
  stop(): void;
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0].toFixed(1);
  const root = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  // As root, Postgres runs as the `postgres` user, which must be able to enter this directory.
  chmodSync(root, 0o755);
  const postgres = await startEmbeddedPostgres({ dataDir: join(root, 'postgres'), persistent: false, settings: { max_connections: 200 } });
  const redis = await startLocalRedis({ dataDir: join(root, 'redis'), persistent: true });
  const sink = await startSink();
  const lines: string[] = [];
  const report = (line: string) => {
    process.stdout.write(line + '\n');
    lines.push(line);
  };
  try {
    const masterKey = randomBytes(32).toString('hex');
    const configFor = (roles: ProcessRole[], prefix: string): AppConfig => {
      const config = loadConfig(
        { ...pick(process.env, /^WEBHOOK_/), MASTER_KEY: masterKey, QUEUE_PREFIX: prefix, DATA_DIR: join(root, 'data'), SERVICE_MODE: 'sandbox' },
        { databaseUrl: postgres.url, redisUrl: redis.url },
      );
      config.roles = new Set(roles);
      return config;
    };
    report(`- webhooks per run: ${WEBHOOKS}; per-platform worker concurrency: ${configFor([], 'x').webhooks.platformConcurrency}`);
    let workerProcessPid: number | null = null;
    const meter = new CpuMeter({
      service: ownCpuMs,
      'worker process': () => (workerProcessPid ? treeCpuMs(workerProcessPid) : 0),
      postgres: () => treeCpuMs(postgres.postmasterPid),
      redis: () => treeCpuMs(redis.redisPid),
      endpoint: () => treeCpuMs(sink.pid),
    });
    const cores = cpus().length;
    /** Rate, CPU per item, and what the machine's cores would sustain at that CPU cost. */
    const measure = async (label: string, unit: string, work: () => Promise<number | void>): Promise<void> => {
      const cpuBefore = meter.snapshot();
      const startedAt = Date.now();
      const profile = await startProfile(label);
      const measuredMs = await work();
      await profile.stop();
      const elapsedMs = measuredMs ?? Date.now() - startedAt;
      const cpu = describeCpuPerItem(meter.since(cpuBefore), WEBHOOKS, unit);
      report(`- ${label}: **${rate(WEBHOOKS, elapsedMs)} ${unit === "delivery" ? "deliveries" : unit + "s"}/s** (${elapsedMs} ms); ${cpu.text}; CPU-bound ceiling on ${cores} cores ≈ ${rate(cores * WEBHOOKS, cpu.totalMs * WEBHOOKS)}/s`);
    };

    // 1 and 2: build a backlog with the projector, then let a worker drain it.
    const producer = await createApp(configFor(['api', 'projector'], 'bench1'));
    const [platformId] = await createPlatforms(producer, 1, sink.url);
    const pool = new Pool({ connectionString: postgres.url, max: 2 });
    await measure('store events + reactor -> queued deliveries (projector role)', 'webhook', async () => {
      await appendTestEvents(producer, [platformId], WEBHOOKS);
      await waitForCount(pool, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE source_event_id IS NOT NULL`, WEBHOOKS);
    });
    await producer.close();

    await measure('deliver a backlog (worker role, 1 platform; time from first to last try)', 'delivery', async () => {
      const worker = await createApp(configFor(['worker'], 'bench1'));
      await waitForSink(sink, WEBHOOKS);
      await waitForCount(pool, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'DELIVERED'`, WEBHOOKS);
      await worker.close();
      // The app's start is not part of the rate: the attempts' own times bound the drain.
      const span = await pool.query(`SELECT (extract(epoch FROM max(attempted_at) - min(attempted_at)) * 1000)::int AS ms FROM webhook_delivery_attempts`);
      return span.rows[0].ms;
    });
    report(`  (the endpoint answered ${await sink.count()} POSTs)`);

    if (process.env.BENCH_ONLY === 'backlog') {
      await pool.end();
      return;
    }

    // 3: everything in one process, events in, signed POSTs out.
    await pool.query('TRUNCATE webhook_deliveries, webhook_delivery_attempts');
    const single = await createApp(configFor(['api', 'projector', 'worker'], 'bench2'));
    const [endToEndPlatform] = await createPlatforms(single, 1, sink.url);
    await measure('end to end: event stored -> delivered (all roles in 1 process, 1 platform)', 'webhook', async () => {
      await appendTestEvents(single, [endToEndPlatform], WEBHOOKS);
      await waitForSink(sink, 2 * WEBHOOKS);
      await waitForCount(pool, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'DELIVERED'`, WEBHOOKS);
    });

    await pool.query('TRUNCATE webhook_deliveries, webhook_delivery_attempts');
    const platforms = await createPlatforms(single, 8, sink.url);
    await measure('end to end (all roles in 1 process, 8 platforms)', 'webhook', async () => {
      await appendTestEvents(single, platforms, WEBHOOKS);
      await waitForSink(sink, 3 * WEBHOOKS);
      await waitForCount(pool, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'DELIVERED'`, WEBHOOKS);
    });
    await single.close();

    // 5: the production split: api + projector here, the worker role in its own process.
    await pool.query('TRUNCATE webhook_deliveries, webhook_delivery_attempts');
    const producer2 = await createApp(configFor(['api', 'projector'], 'bench3'));
    const [splitPlatform] = await createPlatforms(producer2, 1, sink.url);
    const workerProcess = await startWorkerProcess({
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: 'bench3',
      MASTER_KEY: masterKey,
      DATA_DIR: join(root, 'data'),
      SERVICE_MODE: 'sandbox',
      ...pick(process.env, /^WEBHOOK_/),
    });
    workerProcessPid = workerProcess.pid!;
    try {
      await measure('end to end (api + projector in 1 process, worker role in another, 1 platform)', 'webhook', async () => {
        await appendTestEvents(producer2, [splitPlatform], WEBHOOKS);
        await waitForSink(sink, 4 * WEBHOOKS);
        await waitForCount(pool, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'DELIVERED'`, WEBHOOKS);
      });
    } finally {
      workerProcessPid = null;
      workerProcess.kill('SIGTERM');
      await new Promise((resolve) => workerProcess.once('exit', resolve));
      await producer2.close();
    }
    await pool.end();
  } finally {
    sink.stop();
    await redis.stop();
    await postgres.stop();
    rmSync(root, { recursive: true, force: true });
  }
  if (process.env.BENCH_ONLY) return;
  // The machine may be shared: the load average says how much of it this run had.
  const machine = `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load average at the start ${loadAtStart}, at the end ${loadavg()[0].toFixed(1)}`;
  appendFileSync(
    join(__dirname, 'RESULTS.md'),
    `\n## Webhook delivery (bench/webhooks-delivery.ts), ${new Date().toISOString()}\n\nMachine: ${machine}. Target: 1,000 deliveries/s.\n\n${lines.join('\n')}\n`,
  );
  process.stdout.write(`(appended to bench/RESULTS.md; machine: ${machine})\n`);
}

/**
 * With BENCH_PROFILE=<dir>, each phase's CPU profile of this process goes to
 * `<dir>/<phase>.cpuprofile` (open it in Chrome DevTools or any cpuprofile viewer).
 */
async function startProfile(label: string): Promise<{ stop(): Promise<void> }> {
  const directory = process.env.BENCH_PROFILE;
  if (!directory) return { stop: async () => undefined };
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stop() {
      const { profile } = await post('Profiler.stop');
      writeFileSync(join(directory, `${label.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}

async function createPlatforms(app: INestApplication, count: number, endpoint: string): Promise<string[]> {
  const platforms = app.get(PlatformsService);
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    ids.push((await platforms.createPlatform({ config: { webhookEndpoint: endpoint } })).platformId);
  }
  // The reactor reads the endpoint from the platform-config read model: wait until it has them.
  const configs = app.get(PlatformConfigQuery);
  for (const platformId of ids) {
    while (!(await configs.findRaw(platformId))?.webhookEndpoint) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return ids;
}

/** N `WebhookTestRequested` events (what `POST /sandbox/webhooks/test/async` stores), round robin over platforms. */
async function appendTestEvents(app: INestApplication, platformIds: string[], count: number): Promise<void> {
  const events = app.get(EventStoreService);
  let next = 0;
  const appendOne = async (): Promise<void> => {
    for (;;) {
      const index = next++;
      if (index >= count) return;
      const platformId = platformIds[index % platformIds.length];
      const testId = uuidv7();
      const context = { requestId: testId, correlationId: testId, causationId: testId, platformId, actor: 'bench', idempotencyKey: null, lastPosition: null };
      await runWithContext(context, () =>
        events.append(
          `webhookTest-${testId}`,
          [{ type: 'WebhookTestRequested', data: { testId, platformId, requestedAt: new Date().toISOString() } }],
          'no_stream',
        ),
      );
    }
  };
  await Promise.all(Array.from({ length: APPEND_CONCURRENCY }, appendOne));
}

/** Polls a count every 100 ms (a count over the table costs Postgres CPU the figures include). */
async function waitForCount(pool: Pool, sql: string, expected: number, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query(sql);
    if (rows[0].n >= expected) return;
    if (Date.now() > deadline) throw new Error(`timed out at ${rows[0].n}/${expected}: ${sql}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the endpoint has seen `expected` more POSTs than `before` (cheap: no database). */
async function waitForSink(sink: Sink, expected: number, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await sink.count()) < expected) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${expected} POSTs at the endpoint`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The WEBHOOK_* settings of the environment apply to the benchmarked service too. */
function pick(env: NodeJS.ProcessEnv, pattern: RegExp): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => pattern.test(entry[0]) && entry[1] !== undefined));
}

function rate(count: number, elapsedMs: number): string {
  return Math.round((count * 1000) / Math.max(1, elapsedMs)).toLocaleString('en-US');
}

/** `src/main.ts worker` as its own process (what `npm run start:worker` runs), once it is ready. */
function startWorkerProcess(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts', 'worker'], {
    cwd: join(__dirname, '..'),
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Running roles')) resolve(child);
    });
  });
}

function startSink(): Promise<Sink> {
  const child: ChildProcess = fork(join(__dirname, 'lib', 'webhook-sink.js'), [], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`webhook sink exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /LISTENING (\d+)/.exec(chunk.toString());
      if (!match) return;
      resolve({
        url: `http://127.0.0.1:${match[1]}/webhooks`,
        pid: child.pid!,
        count: () =>
          new Promise((answer) => {
            child.once('message', (message: { count: number }) => answer(message.count));
            child.send({});
          }),
        stop: () => child.kill(),
      });
    });
  });
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
