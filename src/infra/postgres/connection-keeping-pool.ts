import { DatabaseError, Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { LookupLane } from './lookup-lane';

/** Longest wait for each step of ConnectionKeepingPool.end. */
const POOL_END_TIMEOUT_MS = 2_000;

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
 *
 * It also carries the process's lookup lane (lookup-lane.ts), which shares its settings.
 */
export class ConnectionKeepingPool extends Pool {
  /** Where `lookup` sends; null once the pool is ending (lookups then run as ordinary queries). */
  private lane: LookupLane | null = new LookupLane((this as unknown as { options: Record<string, unknown> }).options);

  /** A quick read by key, sent through the lookup lane (see LookupLane). */
  lookup<T extends QueryResultRow = any>(text: string, values: unknown[]): Promise<QueryResult<T>> {
    if (!this.lane) return this.query(text, values) as Promise<QueryResult<T>>;
    return this.lane.lookup<T>(text, values);
  }

  /**
   * Closes the lane and the pool, each within POOL_END_TIMEOUT_MS: a connection to a server that
   * is down may never answer its Terminate, and a shutdown must not wait on it.
   */
  async end(): Promise<void> {
    const lane = this.lane;
    this.lane = null;
    await withinMs(lane?.close() ?? Promise.resolve(), POOL_END_TIMEOUT_MS);
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
function isStatementRefusal(error: unknown): boolean {
  return error instanceof DatabaseError && error.severity !== 'FATAL' && error.severity !== 'PANIC';
}
