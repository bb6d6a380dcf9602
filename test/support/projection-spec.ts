import { randomUUID } from 'node:crypto';
import { Client, QueryResultRow } from 'pg';
import { EventMetadata, RecordedEvent } from '../../src/infra/event-store/event-store.port';
import { LIVE_TABLES, Projection, projectionTransaction } from '../../src/infra/projections/projection';
import { FreshDatabase, freshDatabase } from './database';

/**
 * The one way to specify a projection (src/infra/projections/projection.ts): given events, then
 * rows. The projection's own schema and `apply` run on a fresh database of the test server, each
 * event in its own transaction as the runner applies it; the test reads the rows back with SQL.
 *
 * ```ts
 * const spec = await projectionSpec(cardsProjection);
 * await spec.given([{ stream: 'card-1', type: 'CardIssuanceRequested', data: {...} }]);
 * expect(await spec.rows('SELECT state FROM cards')).toEqual([{ state: 'PROCESSING' }]);
 * await spec.close();
 * ```
 */
export interface ProjectionSpec {
  /** Applies the events in order, positions and revisions counting on from earlier ones. */
  given(events: readonly GivenEvent[]): Promise<void>;
  /** The rows a query answers, e.g. `spec.rows('SELECT * FROM cards ORDER BY card_id')`. */
  rows<R extends QueryResultRow = QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

export interface GivenEvent {
  type: string;
  data: object;
  /** Stream the event belongs to; defaults to one stream for the whole spec. */
  stream?: string;
  /** When it was recorded; defaults to a fixed instant plus one second per event. */
  createdAt?: string;
  metadata?: Partial<EventMetadata>;
}

const FIRST_RECORDED_AT_MS = Date.parse('2025-10-13T12:00:00.000Z');

export async function projectionSpec(projection: Projection): Promise<ProjectionSpec> {
  const database: FreshDatabase = await freshDatabase(`projection_${projection.name}`);
  const client = new Client({ connectionString: database.url });
  await client.connect();
  for (const statement of projection.schema(LIVE_TABLES)) await client.query(statement);
  const revisions = new Map<string, number>();
  let position = 0n;
  return {
    async given(events) {
      for (const given of events) {
        const streamName = given.stream ?? `${projection.name}-spec`;
        const revision = (revisions.get(streamName) ?? -1) + 1;
        revisions.set(streamName, revision);
        position += 1n;
        const recorded: RecordedEvent = {
          id: randomUUID(),
          type: given.type,
          data: given.data as Record<string, unknown>,
          metadata: { correlationId: 'spec', causationId: 'spec', platformId: null, actor: 'spec', ...given.metadata },
          streamName,
          revision,
          position: { commit: position, prepare: position },
          createdAt: new Date(given.createdAt ?? FIRST_RECORDED_AT_MS + Number(position) * 1000),
        };
        if (!projection.handles.includes(recorded.type)) continue;
        await client.query('BEGIN');
        try {
          const tx = projectionTransaction(client, LIVE_TABLES);
          await projection.apply(recorded, tx);
          const failed = await tx.settle();
          if (failed) throw failed.error;
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    },
    async rows<R extends QueryResultRow>(sql: string, params: unknown[] = []) {
      return (await client.query<R>(sql, params)).rows;
    },
    async close() {
      await client.end();
      await database.drop();
    },
  };
}
