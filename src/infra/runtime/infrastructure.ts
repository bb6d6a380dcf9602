import { resolve } from 'node:path';
import { startEmbeddedPostgres } from './embedded-postgres';
import { startLocalRedis } from './local-redis';
import { SupervisedServerHandle } from './runtime-helper-scripts';

export interface Infrastructure {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  /** Stops what this call started, all at once (they do not depend on each other); leaves external servers alone. */
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
    // Together: a shutdown has a time limit, and Postgres's shutdown need not wait for Redis's.
    const results = await Promise.allSettled(stops.splice(0).map((stop) => stop()));
    const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failure) throw failure.reason;
  };

  try {
    let databaseUrl = env.DATABASE_URL;
    if (databaseUrl) {
      log({ msg: 'using external postgres', url: redactUrl(databaseUrl) });
    } else {
      const dataDir = resolve(root, 'postgres');
      const postgres = await startEmbeddedPostgres({ dataDir });
      const supervised = keepSupervised('embedded postgres', postgres, () => startEmbeddedPostgres({ dataDir, port: postgres.port }));
      stops.push(() => supervised.stop());
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
      const dataDir = resolve(root, 'redis');
      const redis = await startLocalRedis({ dataDir });
      const supervised = keepSupervised('local redis', redis, () => startLocalRedis({ dataDir, port: redis.port }));
      stops.push(() => supervised.stop());
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

/** First wait before a supervisor that died is launched again; doubles per failure up to the max. */
const SUPERVISOR_RESTART_INITIAL_DELAY_MS = 200;
const SUPERVISOR_RESTART_MAX_DELAY_MS = 5_000;

/**
 * The supervisor restarts its server when the server dies; this restarts the supervisor when it
 * dies itself (killed, or a server it could not restart): a new one on the same data directory
 * and port, so the URL the service holds stays right. It takes over the server the dead
 * supervisor left running (shutting that orphan down and starting it anew). Stopped for good by
 * `stop()`, which also stops the server.
 */
function keepSupervised(name: string, first: SupervisedServerHandle, launch: () => Promise<SupervisedServerHandle>): { stop(): Promise<void> } {
  let current: SupervisedServerHandle | null = first;
  let stopping = false;
  let relaunching: Promise<void> | null = null;
  let wake: () => void = () => undefined;

  const watch = (handle: SupervisedServerHandle, delayMs: number) => {
    if (handle.shared) return; // Another service's supervisor runs it; nothing of ours to restart.
    void handle.exited.then(() => {
      if (stopping || current !== handle) return;
      current = null;
      relaunching = relaunch(delayMs);
    });
  };

  const relaunch = async (firstDelayMs: number) => {
    let delayMs = firstDelayMs;
    log({ level: 'error', msg: `${name} supervisor exited; launching it again`, restartInMs: delayMs });
    while (!stopping) {
      await new Promise<void>((resolveWait) => {
        const timer = setTimeout(resolveWait, delayMs);
        wake = () => {
          clearTimeout(timer);
          resolveWait();
        };
      });
      if (stopping) return;
      const nextDelayMs = Math.min(delayMs * 2, SUPERVISOR_RESTART_MAX_DELAY_MS);
      try {
        const handle = await launch();
        current = handle;
        if (stopping) return;
        log({ msg: `launched ${name} supervisor again`, supervisorPid: handle.supervisorPid });
        watch(handle, nextDelayMs);
        return;
      } catch (error) {
        log({ level: 'error', msg: `${name} supervisor did not start; retrying`, error: error instanceof Error ? error.message.split('\n')[0] : String(error), restartInMs: nextDelayMs });
        delayMs = nextDelayMs;
      }
    }
  };

  watch(first, SUPERVISOR_RESTART_INITIAL_DELAY_MS);
  return {
    async stop() {
      stopping = true;
      wake();
      await relaunching;
      await current?.stop();
    },
  };
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
