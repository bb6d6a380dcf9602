import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INestApplication } from '@nestjs/common';
import { createApp } from './app.factory';
import { ProcessRole, loadConfig } from './infra/config';
import { logger } from './infra/logger';
import { ProjectorThread } from './infra/projections/projector-thread';
import { resolveInfrastructure } from './infra/runtime/infrastructure';
import { PlatformsService } from './platforms';
import { OperatorKey } from './console';

/** Past this, a stuck shutdown gives up and exits with code 1. */
const SHUTDOWN_TIMEOUT_MS = 15_000;
/**
 * How long requests in flight get to finish once the server stops accepting; their connections
 * are cut after that (a request waiting on a dead dependency must not hold the shutdown).
 */
const HTTP_DRAIN_TIMEOUT_MS = 4_000;
/**
 * How long Nest's shutdown hooks (workers, queues, pool) get. Past it the shutdown goes on: what
 * is still waiting waits on a store that is down (a close that is never answered); jobs cut short
 * run again and the projections resume from their checkpoints, so nothing is lost.
 */
const APP_CLOSE_TIMEOUT_MS = 5_000;

/**
 * `node dist/src/main.js [api|projector|worker ...]`: with no role, one process runs all three
 * (the sandbox default), the projector in a worker thread of its own (PROJECTOR_THREAD=off: all on
 * the main thread). Without DATABASE_URL / REDIS_URL an embedded Postgres and a local
 * redis-server are started under DATA_DIR (default .data).
 */
async function main(): Promise<void> {
  const requested = process.argv.slice(2).filter((arg) => ['api', 'projector', 'worker'].includes(arg)) as ProcessRole[];
  const infrastructure = await resolveInfrastructure(process.env, { dataRoot: process.env.DATA_DIR || '.data' });
  const config = loadConfig(process.env, infrastructure);
  if (requested.length > 0) config.roles = new Set(requested);
  // All roles (none named): the projector gets a worker thread, so it has a core of its own
  // (PROJECTOR_THREAD=off keeps it on the main thread: a few milliseconds less per request when
  // the service is quiet, a fifth fewer flows per second at full load).
  let projectorThread: ProjectorThread | null = null;
  if (requested.length === 0 && process.env.PROJECTOR_THREAD !== 'off') {
    projectorThread = ProjectorThread.forProcess(config);
  }

  let startup: Promise<INestApplication> | null = null;
  let stopping = false;
  // Stops in dependency order: HTTP first (no new requests; those in flight finish while the
  // projector still runs, so their reads still see their writes), then the projector thread and,
  // beside it (each has its own connections), the workers, queues and pool (Nest's shutdown
  // hooks), then the embedded Postgres and Redis. Each step is bounded, so that with Postgres or
  // Redis down (their connections never answering a close) it still ends in time, with code 0.
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => {
      process.stderr.write(`Shutdown did not finish within ${SHUTDOWN_TIMEOUT_MS} ms; exiting anyway\n`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    let exitCode = 0;
    try {
      const app = await startup?.catch(() => null);
      if (app) {
        await closeHttpServer(app);
        await Promise.all([projectorThread?.stop(), closeApp(app)]);
      }
    } catch (error) {
      exitCode = 1;
      logger.error('shutdown failed', { error: error instanceof Error ? error.message : String(error) });
    }
    try {
      await infrastructure.stop();
    } catch (error) {
      exitCode = 1;
      logger.error('stopping the embedded servers failed', { error: error instanceof Error ? error.message : String(error) });
    }
    logger.info('stopped', { signal, exitCode });
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // A promise nobody awaited failed (a connection dropping under a background task while Postgres
  // or Redis restarts): logged, and the service goes on; crashing here would turn a dependency's
  // outage into the service's, which nothing restarts.
  process.on('unhandledRejection', (reason) => {
    logger.error('unhandled rejection', { error: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason) });
  });

  startup = createApp(config, { projectorThread: projectorThread ?? undefined }).then(async (app) => {
    await projectorThread?.start();
    return app;
  });
  const app = await startup;
  if (stopping) return;
  if (config.roles.has('api')) {
    if (config.mode === 'sandbox') {
      await app.get(PlatformsService).bootstrapSandboxPlatform();
      app.get(OperatorKey).printSandboxKey();
    }
    await app.listen(config.port, config.host);
    const address = `http://${boundAddress(app)}/2025-10-13`;
    const roles = [...config.roles, ...(projectorThread ? ['projector (worker thread)'] : [])].join(', ');
    process.stdout.write(`Service listening on ${address} (roles: ${roles}, mode: ${config.mode})\n`);
  } else {
    process.stdout.write(`Running roles: ${[...config.roles].join(', ')}\n`);
  }
}

/** The address and port the server really bound, as a URL authority (IPv6 in brackets). */
function boundAddress(app: INestApplication): string {
  const bound = (app.getHttpServer() as Server).address() as AddressInfo;
  return `${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
}

/** `app.close()`, at most APP_CLOSE_TIMEOUT_MS (see there); a failure of it still throws. */
async function closeApp(app: INestApplication): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed-out'>((resolve) => (timer = setTimeout(() => resolve('timed-out'), APP_CLOSE_TIMEOUT_MS)));
  try {
    if ((await Promise.race([app.close(), timedOut])) === 'timed-out') {
      logger.warn('shutdown hooks still waiting (a store is down?); going on without them', { afterMs: APP_CLOSE_TIMEOUT_MS });
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Stops accepting connections and waits for the requests in flight (idle keep-alive sockets close
 * at once), at most HTTP_DRAIN_TIMEOUT_MS: then the connections still open are cut.
 */
function closeHttpServer(app: INestApplication): Promise<void> {
  const server = app.getHttpServer() as Server;
  if (!server?.listening) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      logger.warn('requests still in flight at shutdown; closing their connections', { afterMs: HTTP_DRAIN_TIMEOUT_MS });
      server.closeAllConnections();
    }, HTTP_DRAIN_TIMEOUT_MS);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

main().catch((error) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
