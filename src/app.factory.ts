import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SwaggerModule } from '@nestjs/swagger';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { CONSOLE_STATIC_PATHS } from './console';
import { AppConfig, splitDeployment } from './infra/config';
import { KEY_VAULT_DDL } from './infra/crypto/key-vault';
import { EsdbEventStore } from './infra/event-store/esdb-event-store';
import { EventStore } from './infra/event-store/event-store.port';
import { PostgresEventStore } from './infra/event-store/postgres-event-store';
import { PrototypeStableExpressAdapter } from './infra/http/express-adapter';
import { IDEMPOTENCY_DDL } from './infra/http/idempotency.service';
import { installScopedInterceptorsConsumer } from './infra/http/interceptors-consumer';
import { requestContextMiddleware } from './infra/http/request-context.middleware';
import { RequestObservers } from './infra/http/request-observers';
import { installRequestBodyReading } from './infra/http/request-body';
import { logger } from './infra/logger';
import { createPool } from './infra/postgres/pool';
import { CHECKPOINT_DDL } from './infra/projections/checkpoints';
import { ProjectorThread } from './infra/projections/projector-thread';
import { omitNulls } from './infra/http/wire-json';
import { buildApiDocument } from './infra/openapi/api-document';

export const API_VERSION = '2025-10-13';

/**
 * Builds the Nest application for the given configuration: pool, event store (Postgres by
 * default, EventStoreDB when EVENTSTORE_CONNECTION_STRING is set), shared tables, middleware.
 * Used by main.ts and by the e2e tests, so tests run exactly what production runs.
 */
export async function createApp(config: AppConfig, options: { projectorThread?: ProjectorThread } = {}): Promise<INestApplication> {
  const pool = createPool(config.databaseUrl);
  await PostgresEventStore.ensureSchema(pool);
  for (const ddl of [IDEMPOTENCY_DDL, KEY_VAULT_DDL, CHECKPOINT_DDL]) await pool.query(ddl);
  const eventStore: EventStore = config.eventStoreConnectionString
    ? new EsdbEventStore(config.eventStoreConnectionString)
    : new PostgresEventStore(pool, { notify: splitDeployment(config) });
  const masterKey = resolveMasterKey(config);
  if (!installScopedInterceptorsConsumer()) {
    logger.warn('@nestjs/core changed InterceptorsConsumer.intercept; running Nest\'s own (see src/infra/http/interceptors-consumer.ts)');
  }

  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ config, pool, eventStore, masterKey, projectorThread: options.projectorThread }),
    new PrototypeStableExpressAdapter(),
    { logger: process.env.JEST_WORKER_ID ? false : ['error', 'warn'], bodyParser: false },
  );
  // Body first: the request context must be entered after the body stream is read, or async
  // context is lost in the parser's stream callbacks. POST /documents reads multipart itself.
  installRequestBodyReading(app, { multipartPaths: [`/${API_VERSION}/documents`] });
  app.use(requestContextMiddleware(app.get(RequestObservers)));
  app.setGlobalPrefix(API_VERSION, { exclude: ['health', 'health/live', 'metrics', ...CONSOLE_STATIC_PATHS] });
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  app.getHttpAdapter().getInstance().set('etag', false);
  app.getHttpAdapter().getInstance().set('json replacer', omitNulls);
  // The service's own OpenAPI document, built on first request (src/infra/openapi/api-document.ts).
  SwaggerModule.setup('docs', app, () => buildApiDocument(app, API_VERSION), {
    useGlobalPrefix: true,
    jsonDocumentUrl: 'openapi.json',
    raw: ['json'],
    customSiteTitle: 'Payments Service API',
  });
  await app.init();
  keepConnectionsOpenLongerThanClients(app.getHttpServer() as Server);
  return app;
}

/**
 * How long an idle keep-alive connection stays open. Node's default (5 s) closes connections
 * clients and load balancers still count as reusable (theirs idle out after 60 s or so): a
 * request sent just as the server closes its connection fails with ECONNRESET, and the client
 * cannot know whether it was received. Longer than those idle timeouts, the client closes first.
 */
export const HTTP_KEEP_ALIVE_TIMEOUT_MS = 65_000;

function keepConnectionsOpenLongerThanClients(server: Server): void {
  server.keepAliveTimeout = HTTP_KEEP_ALIVE_TIMEOUT_MS;
  // Node requires the headers timeout to exceed the keep-alive timeout.
  server.headersTimeout = HTTP_KEEP_ALIVE_TIMEOUT_MS + 1000;
}

/** MASTER_KEY from the environment, else one generated once under DATA_DIR (sandbox only). */
function resolveMasterKey(config: AppConfig): Buffer {
  if (config.masterKeyHex) return Buffer.from(config.masterKeyHex, 'hex');
  const file = path.join(config.dataDir, 'master.key');
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  const key = randomBytes(32);
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600 });
  return key;
}
