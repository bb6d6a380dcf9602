'use strict';
/**
 * A local redis-server (Debian's binary, made available by scripts/ensure-redis.sh) for running
 * the service and its tests with no Redis installed as a service.
 *
 * `startLocalRedis(options)` launches this file as a supervisor child process (see
 * supervised-process.js) which spawns redis-server on 127.0.0.1, waits for PING, and resolves to
 * { url, port, dataDir, shared, stop() }.
 *
 * BullMQ needs `maxmemory-policy noeviction`; `appendonly yes` keeps queued jobs across restarts.
 * The port is remembered in `<dataDir>.json` so restarts keep the same URL when it is free.
 * After a crash, a redis-server orphaned by a killed supervisor is shut down (found through the
 * pid file in dataDir); one run by another live supervisor for the same dataDir is shared.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const supervised = require('./supervised-process.js');

const SUPERVISOR_SCRIPT = __filename;
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const LOG_TAIL_LINES = 40;

/**
 * @param {{ dataDir: string, port?: number, persistent?: boolean, binary?: string }} options
 */
async function startLocalRedis(options) {
  const dataDir = path.resolve(options.dataDir);
  const handle = await supervised.launchSupervised({
    script: SUPERVISOR_SCRIPT,
    name: 'local redis',
    options: { ...options, dataDir },
  });
  return { ...handle.info, supervisorPid: handle.pid, exited: handle.exited, stop: handle.stop };
}

function stateFileFor(dataDir) {
  return `${dataDir}.json`;
}

function buildUrl(port) {
  return `redis://127.0.0.1:${port}`;
}

/** redis-server changes into its --dir, so its working directory tells which dataDir it serves. */
function isRedisOf(pid, dataDir) {
  const commandLine = supervised.readCommandLine(pid);
  if (!commandLine || !commandLine.some((argument) => argument.includes('redis-server'))) return false;
  try {
    return fs.realpathSync(`/proc/${pid}/cwd`) === fs.realpathSync(dataDir);
  } catch {
    return false;
  }
}

async function answersPing(port) {
  const Redis = require('ioredis');
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectTimeout: 1_000,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false; // Not listening yet, or still loading the append-only file.
  } finally {
    client.disconnect();
  }
}

/** Runs in the supervisor process. */
async function runRedis(options) {
  const dataDir = path.resolve(options.dataDir);
  const persistent = options.persistent ?? true;
  const stateFile = stateFileFor(dataDir);
  const pidFile = path.join(dataDir, 'redis.pid');
  fs.mkdirSync(dataDir, { recursive: true });
  const state = supervised.readJsonFile(stateFile) ?? {};

  const previousPid = Number((fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim()) || 0);
  if (previousPid > 0 && supervised.isProcessAlive(previousPid) && isRedisOf(previousPid, dataDir)) {
    if (supervised.isSupervisedBy(previousPid, SUPERVISOR_SCRIPT) && state.port && (await answersPing(state.port))) {
      return {
        info: { url: buildUrl(state.port), port: state.port, dataDir, shared: true, redisPid: previousPid },
        stop: async () => undefined,
      };
    }
    process.stderr.write(`local redis: shutting down orphaned redis-server (pid ${previousPid}) of ${dataDir}\n`);
    await supervised.terminateProcess(previousPid, 'SIGTERM', STOP_TIMEOUT_MS);
  }
  fs.rmSync(pidFile, { force: true });

  const port =
    options.port ??
    (state.port && (await supervised.isPortFree(state.port)) ? state.port : await supervised.findFreePort());
  if (persistent) supervised.writeJsonFile(stateFile, { port });

  const logTail = [];
  const remember = (chunk) => {
    for (const line of String(chunk).split('\n')) {
      if (!line.trim()) continue;
      logTail.push(line);
      if (logTail.length > LOG_TAIL_LINES) logTail.shift();
    }
  };
  const binary = options.binary ?? 'redis-server';
  const server = spawn(
    binary,
    [
      '--bind', '127.0.0.1',
      '--port', String(port),
      '--dir', dataDir,
      '--pidfile', pidFile,
      '--daemonize', 'no',
      '--appendonly', persistent ? 'yes' : 'no',
      '--save', '',
      '--maxmemory-policy', 'noeviction',
      '--protected-mode', 'yes',
      '--logfile', '',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  server.stdout.on('data', remember);
  server.stderr.on('data', remember);
  let spawnError;
  const exited = new Promise((resolve) => {
    server.once('error', (error) => {
      spawnError = error;
      resolve(undefined);
    });
    server.once('exit', () => resolve(undefined));
  });
  const isRunning = () => !spawnError && server.exitCode === null && server.signalCode === null;

  const stop = async () => {
    if (isRunning()) {
      server.kill('SIGTERM'); // redis-server shuts down cleanly on SIGTERM, flushing its AOF.
      const killTimer = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(killTimer);
    }
    if (!persistent) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(stateFile, { force: true });
    }
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answersPing(port))) {
    if (!isRunning()) {
      const reason =
        spawnError?.code === 'ENOENT'
          ? `${binary} is not installed (run: bash scripts/ensure-redis.sh)`
          : `redis-server exited (code ${server.exitCode}, signal ${server.signalCode})`;
      throw new Error(`${reason}\n${logTail.join('\n')}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not answer PING within ${READY_TIMEOUT_MS} ms\n${logTail.join('\n')}`);
    }
    await supervised.sleep(50);
  }

  return {
    info: { url: buildUrl(port), port, dataDir, shared: false, redisPid: server.pid },
    stop,
    exited,
  };
}

if (require.main === module) {
  supervised.runAsSupervisor(runRedis, 'local redis');
}

module.exports = { startLocalRedis, stateFileFor };
