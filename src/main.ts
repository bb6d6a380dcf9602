import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INestApplication } from '@nestjs/common';
import { createApp } from './app.factory';
import { ProcessRole, loadConfig } from './infra/config';
import { logger } from './infra/logger';
import { ProjectorThread } from './infra/projections/projector-thread';
import { resolveInfrastructure } from './infra/runtime/infrastructure';
import { PlatformsService } from './platforms/platforms.service';

/** Past this, a stuck shutdown gives up and exits with code 1. */
const SHUTDOWN_TIMEOUT_MS = 15_000;

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
  // projector still runs, so their reads still see their writes), then the projector, workers,
  // queues and pool (Nest's shutdown hooks), then the embedded Postgres and Redis.
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
        await projectorThread?.stop();
        await app.close();
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

  startup = createApp(config, { projectorThread: projectorThread ?? undefined }).then(async (app) => {
    await projectorThread?.start();
    return app;
  });
  const app = await startup;
  if (stopping) return;
  if (config.roles.has('api')) {
    if (config.mode === 'sandbox') await app.get(PlatformsService).bootstrapSandboxPlatform();
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

/** Stops accepting connections and waits for the requests in flight (idle keep-alive sockets close at once). */
function closeHttpServer(app: INestApplication): Promise<void> {
  const server = app.getHttpServer() as Server;
  if (!server?.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

main().catch((error) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
