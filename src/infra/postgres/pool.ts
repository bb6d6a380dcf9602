import { createHash } from 'node:crypto';
import { Client, ClientBase, DatabaseError, Pool, PoolClient, QueryResult, QueryResultRow, types } from 'pg';

// int8 and numeric come back as strings by default; money columns are read explicitly as needed.
types.setTypeParser(types.builtins.INT8, (value) => value);

export const PG_POOL = Symbol('PG_POOL');

/**
 * Named (prepared) statements are parsed and planned once per connection; an unnamed one is
 * parsed, analysed and planned on every call, which costs Postgres about twice the CPU of a
 * primary-key lookup itself. Every parameterized statement therefore gets a name derived from
 * its text, up to a bound per connection (SQL built with literal values would otherwise grow
 * each backend's statement cache without limit; past the bound, new texts run unnamed).
 */
const MAX_PREPARED_STATEMENTS_PER_CONNECTION = 500;
const preparedNames = new WeakMap<ClientBase, Set<string>>();
/** Statement name by text, shared by every connection (bounded like the per-connection sets). */
const nameByText = new Map<string, string>();

function statementName(sql: string): string {
  let name = nameByText.get(sql);
  if (name === undefined) {
    name = `p_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    if (nameByText.size >= 4 * MAX_PREPARED_STATEMENTS_PER_CONNECTION) nameByText.clear();
    nameByText.set(sql, name);
  }
  return name;
}

/** The query config that runs `sql` as a named statement on `client` (unnamed past the bound). */
export function statementConfig(client: ClientBase, sql: string, params: unknown[] | undefined): { name?: string; text: string; values: unknown[] } {
  let names = preparedNames.get(client);
  if (!names) {
    names = new Set();
    preparedNames.set(client, names);
  }
  const name = statementName(sql);
  if (names.has(name) || names.size < MAX_PREPARED_STATEMENTS_PER_CONNECTION) {
    names.add(name);
    return { name, text: sql, values: params ?? [] };
  }
  return { text: sql, values: params ?? [] };
}

/** The socket under a pg client, as far as corking goes. */
interface CorkableStream {
  cork?: () => void;
  uncork?: () => void;
  writableCorked?: number;
}

/**
 * Holds back the socket writes of the statements issued until the current run of promise
 * callbacks drains, then sends them together: one system call for a whole burst (a projection
 * batch's `execute`s, a turn's lookups) instead of one per statement. The flush is a nextTick,
 * which runs once the microtask queue is empty, that is as soon as the caller waits for an
 * answer, so nothing waits on a held write.
 */
export function corkUntilIdle(client: ClientBase): void {
  const stream = (client as unknown as { connection?: { stream?: CorkableStream } }).connection?.stream;
  if (!stream?.cork || !stream.uncork || stream.writableCorked) return;
  stream.cork();
  process.nextTick(() => stream.uncork!());
}

/**
 * The pool's client: `query(text, values)` and `query({text, values})` with at least one value
 * run as named statements (see statementConfig). Statements without values keep the simple
 * protocol (which allows several statements in one text); explicit names, streams and cursors
 * pass through unchanged.
 */
export class PreparingClient extends Client {
  // pg's overloads are many; the override only rewrites the two plain forms and forwards the rest.
  query(...args: unknown[]): any {
    // pool.query forwards (config, values, callback), values undefined for the object form.
    const [config, values] = args;
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
      args[0] = statementConfig(this, config, values);
      args[1] = undefined;
    } else if (isPlainConfig(config) && (values === undefined || typeof values === 'function')) {
      args[0] = { ...statementConfig(this, config.text, config.values), ...(config.rowMode ? { rowMode: config.rowMode } : {}) };
    }
    return (super.query as (...forwarded: unknown[]) => unknown).apply(this, args);
  }
}

interface PlainConfig {
  text: string;
  values: unknown[];
  rowMode?: string;
}

function isPlainConfig(config: unknown): config is PlainConfig {
  if (typeof config !== 'object' || config === null) return false;
  const candidate = config as Record<string, unknown>;
  if (typeof candidate.text !== 'string' || candidate.name !== undefined || typeof candidate.submit === 'function') return false;
  if (!Array.isArray(candidate.values) || candidate.values.length === 0) return false;
  // Only the plain keys: anything else (types, binary, query timeouts) is left as given.
  return Object.keys(candidate).every((key) => key === 'text' || key === 'values' || key === 'rowMode');
}

/**
 * pg-pool's `query` releases its client with the query's error, and a client released with an
 * error is closed. A statement the server refused (a unique violation, an expected-revision
 * conflict, a check) leaves the connection as good as before, so closing it only makes the next
 * checkout pay for a new backend: a fork, a cold catalog cache and every prepared statement and
 * plpgsql function parsed again, several milliseconds of Postgres CPU each. Under write races
 * (the api and worker processes appending to one account) that was most of Postgres's CPU.
 * This pool keeps the client after a server-reported ERROR of a parameterized statement (the
 * extended protocol: one statement, in autocommit, so no transaction is left open); a FATAL one,
 * a broken socket, a text without values (the simple protocol, which may hold several statements,
 * a BEGIN among them) or any other failure still closes it, as before.
 */
export class ConnectionKeepingPool extends Pool {
  /** The pipelined connection `lookup` sends through (see there); null until first used, or after it broke. */
  private lane: Promise<Client> | null = null;
  private laneClosed = false;

  /**
   * A read of a few rows by key, in autocommit (never in a transaction), sent on one shared
   * connection in pipeline mode instead of a client of its own. Lookups of concurrent requests
   * then travel together: a request's three or four lookups take one round trip and wake one
   * backend, with its caches warm, instead of checking out three or four connections and waking
   * as many backends. Each statement still has its own Sync, so a refused one fails alone. Only
   * for quick reads: a slow statement would hold up every lookup queued behind it. A broken lane
   * fails the lookups in flight (as a broken pooled connection fails its query) and the next
   * lookup opens a new one.
   */
  lookup<T extends QueryResultRow = any>(text: string, values: unknown[]): Promise<QueryResult<T>> {
    if (this.laneClosed) return this.query(text, values) as Promise<QueryResult<T>>;
    this.lane ??= this.openLane();
    return this.lane.then((client) => {
      // The lookups a request issues together (and those of requests served in the same turn)
      // leave in one socket write.
      corkUntilIdle(client);
      return client.query<T>(text, values);
    });
  }

  private openLane(): Promise<Client> {
    const options = (this as unknown as { options: Record<string, unknown> }).options;
    const client = new PreparingClient({ ...options, pipeline: true } as ConstructorParameters<typeof Client>[0]);
    const opened = client.connect().then(() => client);
    const drop = () => {
      if (this.lane === opened) this.lane = null;
      void client.end().catch(() => undefined);
    };
    client.on('error', drop);
    client.on('end', drop);
    opened.catch(drop);
    return opened;
  }

  /**
   * Closes the lane and the pool, each within POOL_END_TIMEOUT_MS: a connection to a server that
   * is down may never answer its Terminate, and a shutdown must not wait on it.
   */
  async end(): Promise<void> {
    this.laneClosed = true;
    const lane = this.lane;
    this.lane = null;
    await withinMs(lane?.then((client) => client.end()).catch(() => undefined) ?? Promise.resolve(), POOL_END_TIMEOUT_MS);
    await withinMs(super.end().catch(() => undefined), POOL_END_TIMEOUT_MS);
  }

  query(...args: unknown[]): any {
    const [config] = args;
    const callback = typeof args[args.length - 1] === 'function' ? (args.pop() as (error: Error | undefined, result?: unknown) => void) : undefined;
    if (typeof config === 'object' && config !== null && typeof (config as { submit?: unknown }).submit === 'function') {
      return (super.query as (...forwarded: unknown[]) => unknown).apply(this, callback ? [...args, callback] : args);
    }
    const result = this.connect().then((client) => runOnce(client, args));
    if (!callback) return result;
    result.then(
      (value) => callback(undefined, value),
      (error: Error) => callback(error),
    );
    return undefined;
  }
}

/** Longest wait for each step of ConnectionKeepingPool.end. */
const POOL_END_TIMEOUT_MS = 2_000;

/** Waits for `promise` at most `ms` (it goes on unobserved after that). */
function withinMs(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise.then(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
}

async function runOnce(client: PoolClient, args: unknown[]): Promise<unknown> {
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.release(error);
  };
  // A connection-level failure while the statement runs (the socket closing): drop the client.
  const onError = (error: Error) => release(error);
  client.once('error', onError);
  try {
    const value = await (client.query as (...forwarded: unknown[]) => Promise<unknown>).apply(client, args);
    release();
    return value;
  } catch (error) {
    release(isStatementRefusal(error) && hasValues(args) ? undefined : (error as Error));
    throw error;
  } finally {
    client.removeListener('error', onError);
  }
}

/** `query(text, values)` or `query({ text, values })` with at least one value: the extended protocol. */
function hasValues(args: unknown[]): boolean {
  const [config, values] = args;
  if (Array.isArray(values)) return values.length > 0;
  const configValues = typeof config === 'object' && config !== null ? (config as { values?: unknown }).values : undefined;
  return Array.isArray(configValues) && configValues.length > 0;
}

/** An ERROR the server reported for one statement: the session itself is intact. */
export function isStatementRefusal(error: unknown): boolean {
  return error instanceof DatabaseError && error.severity !== 'FATAL' && error.severity !== 'PANIC';
}

/**
 * Longest wait for a pooled connection (a free one, or a new one to open). Postgres down answers
 * a connect at once (refused, or 57P03 while it recovers); this bounds the rest (a server that
 * accepts but does not answer, every client busy), and the error answers 503 like the others
 * (src/infra/http/dependency-errors.ts) instead of holding the request.
 */
export const POOL_CONNECTION_TIMEOUT_MS = 5_000;

/**
 * The service's pool. Nothing to do for a restart of Postgres: clients that break are dropped
 * (pg-pool discards a client released with its error, and idle ones that error), and the next
 * checkout opens a new connection; statements sent while the server is down fail at once.
 */
export function createPool(connectionString: string, max = 20): Pool {
  const pool = new ConnectionKeepingPool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: POOL_CONNECTION_TIMEOUT_MS,
    Client: PreparingClient,
  } as ConstructorParameters<typeof Pool>[0]);
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** `pool.lookup` where the pool has a lane (see ConnectionKeepingPool.lookup), else an ordinary query. */
export function lookup<T extends QueryResultRow = any>(pool: Pool, text: string, values: unknown[]): Promise<QueryResult<T>> {
  return pool instanceof ConnectionKeepingPool ? pool.lookup<T>(text, values) : pool.query<T>(text, values);
}
