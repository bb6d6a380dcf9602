import { resolve } from 'node:path';
import { startEmbeddedPostgres } from './embedded-postgres';
import { startLocalRedis } from './local-redis';

export interface Infrastructure {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  /** Stops what this call started, in reverse order; leaves external servers alone. */
  stop(): Promise<void>;
}

export interface InfrastructureOptions {
  /** Where embedded servers keep their data: `<dataRoot>/postgres`, `<dataRoot>/redis`. */
  dataRoot?: string;
}

/**
 * Gives the service its Postgres and Redis: the ones named by DATABASE_URL and REDIS_URL, or,
 * when a variable is unset, a server started locally with data under dataRoot, so that
 * `npm start` on a fresh machine needs nothing else.
 */
export async function resolveInfrastructure(
  env: NodeJS.ProcessEnv = process.env,
  { dataRoot = '.data' }: InfrastructureOptions = {},
): Promise<Infrastructure> {
  const root = resolve(dataRoot);
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };

  try {
    let databaseUrl = env.DATABASE_URL;
    if (databaseUrl) {
      log({ msg: 'using external postgres', url: redactUrl(databaseUrl) });
    } else {
      const postgres = await startEmbeddedPostgres({ dataDir: resolve(root, 'postgres') });
      stops.push(() => postgres.stop());
      databaseUrl = postgres.url;
      log({
        msg: postgres.shared ? 'sharing embedded postgres' : 'started embedded postgres',
        url: redactUrl(postgres.url),
        dataDir: postgres.dataDir,
        pid: postgres.postmasterPid,
      });
    }

    let redisUrl = env.REDIS_URL;
    if (redisUrl) {
      log({ msg: 'using external redis', url: redactUrl(redisUrl) });
    } else {
      const redis = await startLocalRedis({ dataDir: resolve(root, 'redis') });
      stops.push(() => redis.stop());
      redisUrl = redis.url;
      log({
        msg: redis.shared ? 'sharing local redis' : 'started local redis',
        url: redis.url,
        dataDir: redis.dataDir,
        pid: redis.redisPid,
      });
    }

    return { databaseUrl, redisUrl, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

function log(fields: Record<string, unknown>): void {
  console.log(JSON.stringify({ level: 'info', context: 'infrastructure', ...fields }));
}

/** Connection URLs carry passwords; logs must not. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparseable url>';
  }
}
