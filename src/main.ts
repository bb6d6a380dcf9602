import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { createApp } from './app.factory';
import { ProcessRole, loadConfig } from './infra/config';
import { logger } from './infra/logger';
import { resolveInfrastructure } from './infra/runtime/infrastructure';
import { PlatformsService } from './platforms/platforms.service';

/**
 * `node dist/src/main.js [api|projector|worker ...]`: with no role, one process runs all three
 * (the sandbox default). Without DATABASE_URL / REDIS_URL an embedded Postgres and a local
 * redis-server are started under DATA_DIR (default .data).
 */
async function main(): Promise<void> {
  const requested = process.argv.slice(2).filter((arg) => ['api', 'projector', 'worker'].includes(arg)) as ProcessRole[];
  const infrastructure = await resolveInfrastructure(process.env, { dataRoot: process.env.DATA_DIR || '.data' });
  const config = loadConfig(process.env, infrastructure);
  if (requested.length > 0) config.roles = new Set(requested);

  let app: INestApplication | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      if (app) await app.close();
    } finally {
      await infrastructure.stop();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  app = await createApp(config);
  if (config.roles.has('api')) {
    if (config.mode === 'sandbox') await app.get(PlatformsService).bootstrapSandboxPlatform();
    await app.listen(config.port, process.env.HOST || '0.0.0.0');
    const address = `http://localhost:${config.port}/2025-10-13`;
    process.stdout.write(`Service listening on ${address} (roles: ${[...config.roles].join(', ')}, mode: ${config.mode})\n`);
  } else {
    process.stdout.write(`Running roles: ${[...config.roles].join(', ')}\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
