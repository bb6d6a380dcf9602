import { PoolClient, QueryResult, QueryResultRow } from 'pg';
import { RecordedEvent } from '../event-store/event-store.port';

/**
 * A read model built from the log. Rules for authors:
 * - `apply` derives every column from the event (use `event.createdAt` or event data for times,
 *   never now()), so a rebuild reproduces the live rows exactly (`projections:verify`).
 * - Tables are written through `tx.table('logical_name')`: a rebuild writes into fresh tables
 *   and swaps them in. In `schema`, never name indexes or constraints yourself (use
 *   `CREATE INDEX ON ${t('x')} (...)`): Postgres picks unique names, which survives swaps.
 * - Every table has a `platform_id` column and every query filters on it (tenant isolation).
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
  query<R extends QueryResultRow = QueryResultRow>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
  /** Physical name of a logical table (differs during a rebuild). */
  table(logical: string): string;
}

export function projectionTransaction(client: PoolClient, suffix: string): ProjectionTransaction {
  return {
    query: (sql, params) => client.query(sql, params as unknown[]),
    table: (logical) => (suffix ? `${logical}${suffix}` : logical),
  };
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
