import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { API_VERSION, createApp } from '../../src/app.factory';
import { AppConfig, ProcessRole, loadConfig } from '../../src/infra/config';
import { PlatformsService } from '../../src/platforms/platforms.service';
import { PlatformConfig } from '../../src/platforms/domain/platform/platform.events';
import { addContract, checkAnswer, hasContract } from './contract-check';
import { contractFor } from './openapi-contract';
import { FreshDatabase, freshDatabase, freshRedisPrefix, testRedisUrl } from './database';

/**
 * The real application for e2e tests: the same createApp as production, on a fresh database of
 * the test Postgres and a fresh key prefix on the test Redis, listening on a loopback port.
 * Nothing is mocked; sandbox delays are short so settlement flows finish within a test.
 */
export interface TestApp {
  readonly app: INestApplication;
  readonly config: AppConfig;
  /** `http://127.0.0.1:<port>` (no version segment). */
  readonly origin: string;
  /** `http://127.0.0.1:<port>/2025-10-13`. */
  readonly baseUrl: string;
  readonly databaseUrl: string;
  /** A platform with Basic credentials (a second one via `createPlatform`). */
  readonly platform: TestPlatform;
  createPlatform(config?: Partial<PlatformConfig>): Promise<TestPlatform>;
  /** Stops the app (and keeps the database, for restart tests, when `keepDatabase`). */
  close(options?: { keepDatabase?: boolean }): Promise<void>;
}

export interface TestPlatform {
  platformId: string;
  clientId: string;
  clientSecret: string;
  /** supertest agent bound to the versioned base URL, with this platform's Basic credentials. */
  api: PlatformClient;
}

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** `api.post('/customers').send(body)`: paths are relative to the versioned base URL. */
export type PlatformClient = Record<Method, (path: string) => request.Test>;

export interface TestAppOptions {
  /** Extra environment (e.g. SANDBOX_SETTLEMENT_DELAY_MS) read by loadConfig. */
  env?: Record<string, string>;
  /** Defaults to every role in one process, like `npm start`. */
  roles?: ProcessRole[];
  /** Reuse a database (restart tests); created fresh when absent. */
  database?: FreshDatabase;
  /** Reuse a Redis prefix (restart tests). */
  queuePrefix?: string;
  /** Reuse a data dir (master key, credentials) across a restart. */
  dataDir?: string;
  /** Configuration of the first platform. */
  platformConfig?: Partial<PlatformConfig>;
}

/** Sandbox delays for tests: settlement in ~100 ms, the "long" scenarios in ~2 s. */
export const FAST_SANDBOX_ENV: Record<string, string> = {
  SANDBOX_SETTLEMENT_DELAY_MS: '100',
  SANDBOX_LONG_PAYMENT_DELAY_MS: '2000',
  SANDBOX_SLOW_FAILURE_DELAY_MS: '1000',
  SANDBOX_BENEFICIARY_CHECK_DELAY_MS: '500',
  SANDBOX_RETURN_DELAY_MS: '300',
  SANDBOX_REFUND_DELAY_MS: '200',
};

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await freshDatabase('e2e'));
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'e2e-data-'));
  const queuePrefix = options.queuePrefix ?? freshRedisPrefix('e2e');
  const env: NodeJS.ProcessEnv = {
    MASTER_KEY: randomBytes(32).toString('hex'),
    ...FAST_SANDBOX_ENV,
    ...options.env,
    QUEUE_PREFIX: queuePrefix,
    DATA_DIR: dataDir,
    SERVICE_MODE: options.env?.SERVICE_MODE ?? 'sandbox',
  };
  const config = loadConfig(env, { databaseUrl: database.url, redisUrl: testRedisUrl() });
  if (options.roles) config.roles = new Set(options.roles);
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = `${origin}/${API_VERSION}`;

  await checkAnswersAgainstOwnDocument(baseUrl);

  const platforms = app.get(PlatformsService);
  const createPlatform = async (platformConfig?: Partial<PlatformConfig>): Promise<TestPlatform> => {
    const created = await platforms.createPlatform({ config: platformConfig });
    return { ...created, api: platformClient(baseUrl, created.clientId, created.clientSecret) };
  };
  const platform = await createPlatform(options.platformConfig);

  let closed = false;
  return {
    app,
    config,
    origin,
    baseUrl,
    databaseUrl: database.url,
    platform,
    createPlatform,
    async close({ keepDatabase = false } = {}) {
      if (closed) return;
      closed = true;
      await app.close();
      if (!keepDatabase) {
        await database.drop();
        if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** A supertest client for the versioned API with the given Basic credentials. */
export function platformClient(baseUrl: string, clientId: string, clientSecret: string): PlatformClient {
  return checkedClient(baseUrl, (test) => test.auth(clientId, clientSecret));
}

/**
 * A client without credentials (refusals, `/health` on the origin): its answers are checked
 * against the contracts like a platform client's.
 */
export function anonymousClient(url: string): PlatformClient {
  return checkedClient(url, (test) => test);
}

function checkedClient(url: string, prepare: (test: request.Test) => request.Test): PlatformClient {
  const agent = request(url);
  const bind = (method: Method) => (path: string) => prepare(agent[method](path)).expect((response) => checkAnswer(method, path, response));
  return { get: bind('get'), post: bind('post'), patch: bind('patch'), put: bind('put'), delete: bind('delete') };
}

/** Polls `probe` until it returns a truthy value or the timeout passes (for asynchronous flows). */
export async function eventually<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 10_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** From the first app a test file starts on, answers are checked against the service's own document too. */
async function checkAnswersAgainstOwnDocument(baseUrl: string): Promise<void> {
  if (hasContract('own')) return;
  const response = await request(baseUrl).get('/openapi.json');
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  addContract(contractFor('own', response.body));
}
