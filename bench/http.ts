import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CpuMeter, formatRate, microsecondsPer, numberFromEnv, recordResults, startBenchDatabase, startBenchRedis } from './lib/environment';
import { generateLoad } from './lib/load-generator';

/**
 * HTTP `GET /config` requests per second. The service runs as its own process (src/main.ts, as
 * `npm start` runs it, with request logs at the default `info` level going to /dev/null) on the
 * embedded Postgres with default durable settings and a local Redis; the load comes from this
 * process over keep-alive connections. Both share the machine's cores.
 *
 * BENCH_CONNECTIONS (default 32), BENCH_DURATION_MS (default 10000), BENCH_WARMUP_MS (3000);
 * BENCH_PROFILE_DIR writes a CPU profile of the service there (to find the bottleneck).
 */
const CONNECTIONS = numberFromEnv('BENCH_CONNECTIONS', 32);
const DURATION_MS = numberFromEnv('BENCH_DURATION_MS', 10_000);
const WARMUP_MS = numberFromEnv('BENCH_WARMUP_MS', 3000);
const REPOSITORY_ROOT = resolve(__dirname, '..');

async function main(): Promise<void> {
  const database = await startBenchDatabase('http');
  const redis = await startBenchRedis();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  const clientId = 'client_bench';
  const clientSecret = `secret_${randomBytes(18).toString('base64url')}`;
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const service = spawn(process.execPath, [...profile, '-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
    cwd: REPOSITORY_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MASTER_KEY: randomBytes(32).toString('hex'),
      PLATFORM_CLIENT_ID: clientId,
      PLATFORM_CLIENT_SECRET: clientSecret,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      TS_NODE_PROJECT: 'tsconfig.json',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  let listening = false;
  service.stdout.on('data', (chunk: Buffer) => {
    // Request logs are read and dropped, as a log shipper would take them off the process.
    if (!listening) output += chunk;
  });
  const exited = new Promise<number | null>((resolveExit) => service.once('exit', (code) => resolveExit(code)));
  try {
    const deadline = Date.now() + 120_000;
    while (!output.includes('Service listening on')) {
      if (service.exitCode !== null) throw new Error(`service exited:\n${output}`);
      if (Date.now() > deadline) throw new Error(`service did not start:\n${output}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    }
    listening = true;
    const load = {
      url: `http://127.0.0.1:${port}/2025-10-13/config`,
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
      connections: CONNECTIONS,
    };
    process.stderr.write(`warming up for ${WARMUP_MS} ms...\n`);
    await generateLoad({ ...load, durationMs: WARMUP_MS });
    process.stderr.write(`measuring for ${DURATION_MS} ms with ${CONNECTIONS} connections...\n`);
    const meter = new CpuMeter([service.pid ?? null, database.postmasterPid]);
    const result = await generateLoad({ ...load, durationMs: DURATION_MS });
    const [generatorCpuMs, serviceCpuMs, postgresCpuMs] = meter.elapsed();
    const ok = result.statuses['200'] ?? 0;
    const perRequestMs = (serviceCpuMs + postgresCpuMs) / result.requests;
    recordResults('HTTP GET /config', database.description, [
      `service: src/main.ts in its own process (all roles, log level ${process.env.BENCH_LOG_LEVEL ?? 'info'}, logs discarded); load: ${CONNECTIONS} keep-alive connections from the benchmark process for ${DURATION_MS / 1000} s after a ${WARMUP_MS / 1000} s warm-up`,
      `**${formatRate(result.requestsPerSecond)} requests/s**, latency p50 ${result.latencyMs.p50.toFixed(2)} ms, p90 ${result.latencyMs.p90.toFixed(2)} ms, p99 ${result.latencyMs.p99.toFixed(2)} ms, max ${result.latencyMs.max.toFixed(1)} ms`,
      `${result.requests.toLocaleString('en-US')} requests: ${ok.toLocaleString('en-US')} answered 200, ${result.requests - ok} other statuses (${JSON.stringify(result.statuses)}), ${result.errors} connection errors`,
      `CPU per request (steadier than rates on a shared machine): service ${microsecondsPer(serviceCpuMs, result.requests)} + Postgres ${microsecondsPer(postgresCpuMs, result.requests)} (load generator ${microsecondsPer(generatorCpuMs, result.requests)}); service + Postgres alone would allow about ${formatRate(1000 / perRequestMs)} requests/s per core`,
    ]);
  } finally {
    service.kill('SIGTERM');
    await exited;
    await redis.stop();
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
