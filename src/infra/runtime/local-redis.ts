import { locateHelperScript, SupervisedServerHandle } from './runtime-helper-scripts';

export interface LocalRedisOptions {
  /** Directory for the append-only file; kept across restarts unless `persistent` is false. */
  dataDir: string;
  /** Loopback port; by default the last one used for this dataDir if free, else any free one. */
  port?: number;
  /** False turns the append-only file off and deletes dataDir on stop (tests). Default true. */
  persistent?: boolean;
  /** The redis-server executable. Default `redis-server` from PATH (scripts/ensure-redis.sh). */
  binary?: string;
  /**
   * Default true: a server that dies on its own is started again by its supervisor, on the same
   * port. False: the supervisor exits instead (`exited` resolves), for tests of a crash itself.
   */
  restart?: boolean;
}

export interface LocalRedis extends SupervisedServerHandle {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly redisPid: number;
}

interface LocalRedisHelper {
  startLocalRedis(options: LocalRedisOptions): Promise<LocalRedis>;
}

/**
 * Starts redis-server on 127.0.0.1 (noeviction, as BullMQ requires; append-only file for durable
 * jobs) under a supervisor child process (scripts/lib/local-redis.js) that stops it when this
 * process dies, even by SIGKILL. Resolves once the server answers PING.
 */
export function startLocalRedis(options: LocalRedisOptions): Promise<LocalRedis> {
  const helper = require(locateHelperScript('local-redis.js')) as LocalRedisHelper;
  return helper.startLocalRedis(options);
}
