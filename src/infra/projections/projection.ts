import { Client, ClientBase, Pool, QueryResult, QueryResultRow } from 'pg';
import { RecordedEvent } from '../event-store/event-store.port';
import { corkUntilIdle } from '../postgres/cork';
import { PreparingClient, statementConfig } from '../postgres/prepared-statements';

/**
 * A read model built from the log. Rules for authors:
 * - `apply` derives every column from the event (use `event.createdAt` or event data for times,
 *   never now()), so a rebuild reproduces the live rows exactly (`projections:verify`).
 * - Tables are written through `tx.table('logical_name')`: a rebuild writes into fresh tables
 *   and swaps them in. In `schema`, never name indexes or constraints yourself (use
 *   `CREATE INDEX ON ${t('x')} (...)`): Postgres picks unique names, which survives swaps.
 * - Every table has a `platform_id` column and every query filters on it (tenant isolation).
 * - Prefer `tx.execute` for writes whose result `apply` does not read: they are pipelined (sent
 *   without waiting for the previous answer), which makes catch-up and rebuilds several times
 *   faster than one round trip per statement. Use `await tx.query` when you need rows back.
 */
export interface Projection {
  name: string;
  /** Bump when `schema` or `apply` change: the runner rebuilds the projection at start. */
  version: number;
  /** Logical table names this projection owns. */
  tables: string[];
  /** DDL statements for the tables, written against the physical names `t(logical)`. */
  schema(t: (logical: string) => string): string[];
  /** Event types this projection reads; others are skipped without a call. */
  handles: string[];
  apply(event: RecordedEvent, tx: ProjectionTransaction): Promise<void>;
}

export interface ProjectionTransaction {
  /** Runs a statement and answers its rows (waits for the round trip). */
  query<R extends QueryResultRow = QueryResultRow>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
  /**
   * Sends a write without waiting for its answer. Statements run in the order they were issued
   * (a later `query` sees the effect of an earlier `execute`); a failure fails the event that
   * issued it, like a throw from `apply`, once the runner collects the answers.
   */
  execute(sql: string, params?: unknown[]): void;
  /** Physical name of a logical table (differs during a rebuild or a verification). */
  table(logical: string): string;
}

/** Maps a projection's logical table names to the physical tables one run writes. */
export type TableNaming = (logical: string) => string;

export const LIVE_TABLES: TableNaming = (logical) => logical;

/** A write sent by `execute` that failed, with the index of the event that issued it. */
export interface FailedWrite {
  eventIndex: number;
  error: unknown;
}

/**
 * The transaction a projection writes through. On a client opened with `pipeline: true`
 * (`connectPipelined`), `execute` puts writes on the wire back to back; on an ordinary client it
 * still works, one round trip each. `eventIndex` tags writes with the event being applied, and
 * `settle()` collects their answers.
 */
export class PipelinedProjectionTransaction implements ProjectionTransaction {
  eventIndex = 0;
  private pending: Array<Promise<FailedWrite | null>> = [];

  constructor(
    private readonly client: ClientBase,
    private readonly naming: TableNaming,
  ) {}

  query<R extends QueryResultRow = QueryResultRow>(sql: string, params?: unknown[]): Promise<QueryResult<R>> {
    return this.client.query<R>(statementConfig(this.client, sql, params));
  }

  execute(sql: string, params?: unknown[]): void {
    const eventIndex = this.eventIndex;
    corkUntilIdle(this.client);
    this.pending.push(
      this.client.query(statementConfig(this.client, sql, params)).then(
        () => null,
        (error: unknown) => ({ eventIndex, error }),
      ),
    );
  }

  table(logical: string): string {
    return this.naming(logical);
  }

  /** Waits for every write sent so far; answers the failure of the earliest event, if any. */
  async settle(): Promise<FailedWrite | null> {
    const outcomes = await Promise.all(this.pending);
    this.pending = [];
    let first: FailedWrite | null = null;
    for (const outcome of outcomes) {
      if (outcome && (first === null || outcome.eventIndex < first.eventIndex)) first = outcome;
    }
    return first;
  }
}

/** The transaction a projection writes through on `client`; `naming` is a table suffix or a naming function. */
export function projectionTransaction(client: ClientBase, naming: string | TableNaming): PipelinedProjectionTransaction {
  const tableNaming: TableNaming = typeof naming === 'function' ? naming : (logical) => (naming ? `${logical}${naming}` : logical);
  return new PipelinedProjectionTransaction(client, tableNaming);
}

/**
 * A connection of its own, in pipeline mode, with the pool's settings: projection batches,
 * rebuilds and verifications write through it. Errors after connect (the server restarting) are
 * reported through `onError` rather than crashing the process.
 */
export async function connectPipelined(pool: Pool, onError: (error: Error) => void = () => undefined): Promise<Client> {
  const options = (pool as unknown as { options: Record<string, unknown> }).options;
  const client = new PreparingClient({ ...options, pipeline: true } as ConstructorParameters<typeof Client>[0]);
  client.on('error', onError);
  await client.connect();
  return client;
}

/**
 * A reactor turns stored events into side effects (BullMQ jobs, appends to other streams). It is
 * checkpointed like a projection, so it runs at least once per event: effects must be idempotent
 * (deterministic job ids, deterministic event ids).
 */
export interface Reactor {
  name: string;
  handles: string[];
  react(event: RecordedEvent): Promise<void>;
  /**
   * Optional: the handled events of one read batch at once, in log order, instead of `react`
   * per event (so a reactor can write one statement and queue one bulk of jobs per batch). The
   * checkpoint moves past the batch only when it resolves; on failure the whole batch runs
   * again. Runs in the context of the batch's last event.
   */
  reactBatch?(events: RecordedEvent[]): Promise<void>;
}

/** Injection token of the process's read models (`Projection[]`, handed to InfraModule by the app module). */
export const PROJECTIONS = Symbol('PROJECTIONS');
