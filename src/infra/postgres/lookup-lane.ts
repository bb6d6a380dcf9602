import { Client, QueryResult, QueryResultRow } from 'pg';
import { corkUntilIdle } from './cork';
import { PreparingClient } from './prepared-statements';

/**
 * One shared connection in pipeline mode for reads of a few rows by key, in autocommit (never in
 * a transaction), instead of a pooled client each. Lookups of concurrent requests then travel
 * together: a request's three or four lookups take one round trip and wake one backend, with its
 * caches warm, instead of checking out three or four connections and waking as many backends.
 * Each statement still has its own Sync, so a refused one fails alone. Only for quick reads: a
 * slow statement would hold up every lookup queued behind it. A broken lane fails the lookups in
 * flight (as a broken pooled connection fails its query) and the next lookup opens a new one.
 */
export class LookupLane {
  /** The lane's connection; null until first used, or after it broke. */
  private connection: Promise<Client> | null = null;

  /** @param options the pool's connection settings. */
  constructor(private readonly options: Record<string, unknown>) {}

  lookup<T extends QueryResultRow = any>(text: string, values: unknown[]): Promise<QueryResult<T>> {
    this.connection ??= this.open();
    return this.connection.then((client) => {
      // The lookups a request issues together (and those of requests served in the same turn)
      // leave in one socket write.
      corkUntilIdle(client);
      return client.query<T>(text, values);
    });
  }

  /** Ends the connection, if open; a later lookup would open another. */
  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    await connection?.then((client) => client.end()).catch(() => undefined);
  }

  private open(): Promise<Client> {
    const client = new PreparingClient({ ...this.options, pipeline: true } as ConstructorParameters<typeof Client>[0]);
    const opened = client.connect().then(() => client);
    const drop = () => {
      if (this.connection === opened) this.connection = null;
      void client.end().catch(() => undefined);
    };
    client.on('error', drop);
    client.on('end', drop);
    opened.catch(drop);
    return opened;
  }
}
