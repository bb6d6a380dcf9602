import { Pool, PoolClient } from 'pg';
import { DeliveryStatus } from './retry-policy';

/**
 * Webhook deliveries and their attempts. Operational records, not a read model: the webhook
 * row is created by the reactor from a stored event (deterministic id, so a replay finds it),
 * attempts are facts about HTTP calls and exist nowhere else. Every query filters on platform.
 */
export const WEBHOOK_DELIVERIES_DDL = [
  `CREATE TABLE IF NOT EXISTS webhook_deliveries (
     seq bigserial UNIQUE,
     id text PRIMARY KEY,
     webhook_id text NOT NULL UNIQUE,
     platform_id text NOT NULL,
     type text NOT NULL,
     source_event_id text,
     body text NOT NULL,
     status text NOT NULL,
     attempt_count integer NOT NULL DEFAULT 0,
     last_status_code integer,
     last_error text,
     last_endpoint text,
     next_attempt_at timestamptz,
     retry_until timestamptz NOT NULL,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL,
     delivered_at timestamptz
   )`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_by_platform ON webhook_deliveries (platform_id, seq DESC)`,
  `CREATE INDEX IF NOT EXISTS webhook_deliveries_open ON webhook_deliveries (next_attempt_at)
     WHERE status IN ('PENDING', 'RETRYING')`,
  `CREATE TABLE IF NOT EXISTS webhook_delivery_attempts (
     id bigserial PRIMARY KEY,
     delivery_id text NOT NULL,
     platform_id text NOT NULL,
     attempt_number integer NOT NULL,
     trigger text NOT NULL,
     attempted_at timestamptz NOT NULL,
     endpoint text,
     status_code integer,
     latency_ms integer NOT NULL,
     error text
   )`,
  `CREATE INDEX IF NOT EXISTS webhook_delivery_attempts_by_delivery ON webhook_delivery_attempts (delivery_id, id)`,
];

/** Why a try happened: the worker's schedule, `POST .../retry`, or `POST /sandbox/webhooks/test`. */
export type AttemptTrigger = 'AUTOMATIC' | 'MANUAL' | 'TEST';

export interface NewDelivery {
  id: string;
  webhookId: string;
  platformId: string;
  type: string;
  sourceEventId: string | null;
  body: string;
  /** Automatic tries stop this long after creation (`retry_until`); 0 for a one-off try. */
  retryWindowMs: number;
}

/** What the worker needs to make a try. */
export interface DeliveryForAttempt {
  id: string;
  platformId: string;
  body: string;
  status: DeliveryStatus;
  attemptCount: number;
  retryUntil: Date;
}

export interface AttemptRecord {
  deliveryId: string;
  platformId: string;
  trigger: AttemptTrigger;
  attemptedAt: Date;
  endpoint: string | null;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** Status after this try; null keeps the current one. `DELIVERED` is never undone. */
  newStatus: DeliveryStatus | null;
  nextAttemptAt: Date | null;
}

export class DeliveryStore {
  constructor(private readonly pool: Pool) {}

  /** Creates the tables once per database, serialised so processes starting together agree. */
  async ensureSchema(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('webhooks:schema'))`);
      for (const statement of WEBHOOK_DELIVERIES_DDL) await client.query(statement);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Inserts `PENDING` deliveries, skipping webhook ids that exist, in one statement. Answers each
   * one's status after it (in order), so the reactor re-enqueues only deliveries it created
   * before a crash but never queued (still `PENDING`), not those a worker already settled.
   */
  async createPending(deliveries: NewDelivery[]): Promise<DeliveryStatus[]> {
    if (deliveries.length === 0) return [];
    const result = await this.pool.query({
      name: 'webhooks.create-pending',
      text: `WITH input AS (
               SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[])
                 AS i(id, webhook_id, platform_id, type, source_event_id, body, retry_window_ms)
             ), inserted AS (
               INSERT INTO webhook_deliveries
                 (id, webhook_id, platform_id, type, source_event_id, body, status, retry_until, created_at, updated_at)
               SELECT id, webhook_id, platform_id, type, source_event_id, body, 'PENDING',
                      now() + make_interval(secs => retry_window_ms / 1000), now(), now()
                 FROM input
               ON CONFLICT (webhook_id) DO NOTHING
               RETURNING webhook_id, status
             )
             SELECT input.webhook_id, COALESCE(inserted.status, existing.status) AS status
               FROM input
               LEFT JOIN inserted ON inserted.webhook_id = input.webhook_id
               LEFT JOIN webhook_deliveries existing
                      ON existing.webhook_id = input.webhook_id AND existing.platform_id = input.platform_id`,
      values: [
        deliveries.map((delivery) => delivery.id),
        deliveries.map((delivery) => delivery.webhookId),
        deliveries.map((delivery) => delivery.platformId),
        deliveries.map((delivery) => delivery.type),
        deliveries.map((delivery) => delivery.sourceEventId),
        deliveries.map((delivery) => delivery.body),
        deliveries.map((delivery) => delivery.retryWindowMs),
      ],
    });
    const statusByWebhook = new Map<string, DeliveryStatus>(result.rows.map((row) => [row.webhook_id, row.status]));
    // A webhook id held by another platform cannot happen (ids include the platform); treat it as settled.
    return deliveries.map((delivery) => statusByWebhook.get(delivery.webhookId) ?? 'DELIVERED');
  }

  /**
   * A delivery made and tried on the spot (the sandbox test, an approval request): its row, once,
   * and the attempt (a repeated try of the same webhook adds an attempt to the same row).
   */
  async createTried(delivery: NewDelivery, attempt: Omit<AttemptRecord, 'deliveryId' | 'platformId'>): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO webhook_deliveries
           (id, webhook_id, platform_id, type, source_event_id, body, status, retry_until, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $8, $5, 'PENDING', $6::timestamptz + make_interval(secs => $7::double precision / 1000), $6, $6)
         ON CONFLICT (webhook_id) DO NOTHING`,
        [delivery.id, delivery.webhookId, delivery.platformId, delivery.type, delivery.body, attempt.attemptedAt, delivery.retryWindowMs, delivery.sourceEventId],
      );
      await this.recordAttempt({ ...attempt, deliveryId: delivery.id, platformId: delivery.platformId }, client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async findForAttempt(platformId: string, deliveryId: string): Promise<DeliveryForAttempt | null> {
    return (await this.findManyForAttempt([{ platformId, deliveryId }]))[0];
  }

  /** Several deliveries in one query (the worker batches its concurrent jobs); null when absent. */
  async findManyForAttempt(keys: Array<{ platformId: string; deliveryId: string }>): Promise<Array<DeliveryForAttempt | null>> {
    const result = await this.pool.query({
      name: 'webhooks.find-for-attempt',
      text: `SELECT id, platform_id, body, status, attempt_count, retry_until FROM webhook_deliveries
              WHERE (id, platform_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      values: [keys.map((key) => key.deliveryId), keys.map((key) => key.platformId)],
    });
    const byId = new Map<string, DeliveryForAttempt>();
    for (const row of result.rows) {
      byId.set(row.id, {
        id: row.id,
        platformId: row.platform_id,
        body: row.body,
        status: row.status,
        attemptCount: row.attempt_count,
        retryUntil: row.retry_until,
      });
    }
    return keys.map((key) => byId.get(key.deliveryId) ?? null);
  }

  /**
   * Records a try and moves the delivery in one statement (numbering attempts atomically).
   * Returns the status after it, or null when the delivery does not exist.
   */
  async recordAttempt(attempt: AttemptRecord, db: Pool | PoolClient = this.pool): Promise<DeliveryStatus | null> {
    return (await this.recordAttempts([attempt], db))[0];
  }

  /**
   * Several tries in one statement (the worker batches its concurrent jobs). Two tries of one
   * delivery never share a statement: each must see the other's attempt number.
   */
  async recordAttempts(attempts: AttemptRecord[], db: Pool | PoolClient = this.pool): Promise<Array<DeliveryStatus | null>> {
    const results: Array<DeliveryStatus | null> = new Array(attempts.length).fill(null);
    let remaining = attempts.map((attempt, index) => ({ attempt, index }));
    while (remaining.length > 0) {
      const seen = new Set<string>();
      const now: typeof remaining = [];
      const later: typeof remaining = [];
      for (const entry of remaining) {
        (seen.has(entry.attempt.deliveryId) ? later : now).push(entry);
        seen.add(entry.attempt.deliveryId);
      }
      const statuses = await this.recordDistinctAttempts(now.map((entry) => entry.attempt), db);
      now.forEach((entry, position) => (results[entry.index] = statuses[position]));
      remaining = later;
    }
    return results;
  }

  private async recordDistinctAttempts(attempts: AttemptRecord[], db: Pool | PoolClient): Promise<Array<DeliveryStatus | null>> {
    const result = await db.query({
      name: 'webhooks.record-attempts',
      text: `WITH input AS (
               SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[],
                                    $7::int[], $8::int[], $9::text[], $10::timestamptz[])
                 AS i(delivery_id, platform_id, trigger, new_status, attempted_at, endpoint, status_code, latency_ms, error, next_attempt_at)
             ), moved AS (
               UPDATE webhook_deliveries d SET
                 attempt_count = d.attempt_count + 1,
                 status = CASE WHEN d.status = 'DELIVERED' THEN 'DELIVERED' ELSE COALESCE(i.new_status, d.status) END,
                 next_attempt_at = CASE WHEN d.status = 'DELIVERED' OR i.new_status IN ('DELIVERED', 'FAILED') THEN NULL
                                        WHEN i.new_status = 'RETRYING' THEN i.next_attempt_at ELSE d.next_attempt_at END,
                 delivered_at = CASE WHEN i.new_status = 'DELIVERED' THEN COALESCE(d.delivered_at, i.attempted_at) ELSE d.delivered_at END,
                 last_status_code = i.status_code, last_error = i.error, last_endpoint = i.endpoint, updated_at = i.attempted_at
               FROM input i
               WHERE d.id = i.delivery_id AND d.platform_id = i.platform_id
               RETURNING d.id, d.attempt_count, d.status
             ), attempt AS (
               INSERT INTO webhook_delivery_attempts
                 (delivery_id, platform_id, attempt_number, trigger, attempted_at, endpoint, status_code, latency_ms, error)
               SELECT i.delivery_id, i.platform_id, moved.attempt_count, i.trigger, i.attempted_at, i.endpoint, i.status_code, i.latency_ms, i.error
                 FROM input i JOIN moved ON moved.id = i.delivery_id
             )
             SELECT id, status FROM moved`,
      values: [
        attempts.map((attempt) => attempt.deliveryId),
        attempts.map((attempt) => attempt.platformId),
        attempts.map((attempt) => attempt.trigger),
        attempts.map((attempt) => attempt.newStatus),
        attempts.map((attempt) => attempt.attemptedAt),
        attempts.map((attempt) => attempt.endpoint),
        attempts.map((attempt) => attempt.statusCode),
        attempts.map((attempt) => attempt.latencyMs),
        attempts.map((attempt) => attempt.error),
        attempts.map((attempt) => attempt.nextAttemptAt),
      ],
    });
    const statusById = new Map<string, DeliveryStatus>(result.rows.map((row) => [row.id, row.status]));
    return attempts.map((attempt) => statusById.get(attempt.deliveryId) ?? null);
  }

  /**
   * Open deliveries whose try is overdue by `overdueMs`: after a Redis loss their jobs may be
   * gone; the sweeper re-enqueues them (the job id makes that a no-op when the job exists).
   */
  async overdue(overdueMs: number, limit: number): Promise<Array<{ id: string; platformId: string }>> {
    const result = await this.pool.query(
      `SELECT id, platform_id FROM webhook_deliveries
        WHERE status IN ('PENDING', 'RETRYING')
          AND COALESCE(next_attempt_at, created_at) < now() - make_interval(secs => $1::double precision / 1000)
        ORDER BY COALESCE(next_attempt_at, created_at) LIMIT $2`,
      [overdueMs, limit],
    );
    return result.rows.map((row) => ({ id: row.id, platformId: row.platform_id }));
  }

  /**
   * Retention: deletes the deliveries settled (`DELIVERED`, `FAILED`) whose last change is older
   * than `before`, with their attempts, `batchRows` per statement (short transactions, no long
   * table lock). Walks the log oldest first by `seq` (its own index, which follows creation
   * order) and stops at the first delivery created after `before`: a run reads the expired
   * part of the log and a batch more, not the whole table. Answers how many deliveries went.
   */
  async purgeSettledBefore(before: Date, batchRows = 1000): Promise<number> {
    let purged = 0;
    let afterSeq = '0';
    for (;;) {
      const result = await this.pool.query(
        `WITH batch AS (
           SELECT seq, id, created_at < $2 AS created_before,
                  updated_at < $2 AND status IN ('DELIVERED', 'FAILED') AS expired
             FROM webhook_deliveries WHERE seq > $1::bigint ORDER BY seq LIMIT $3
         ), doomed AS (
           SELECT id FROM batch WHERE expired
         ), gone_attempts AS (
           DELETE FROM webhook_delivery_attempts a USING doomed WHERE a.delivery_id = doomed.id
         ), gone AS (
           DELETE FROM webhook_deliveries d USING doomed WHERE d.id = doomed.id RETURNING d.id
         )
         SELECT (SELECT max(seq) FROM batch)::text AS last_seq,
                (SELECT count(*) FROM batch)::int AS scanned,
                COALESCE((SELECT bool_and(created_before) FROM batch), false) AS all_created_before,
                (SELECT count(*) FROM gone)::int AS deleted`,
        [afterSeq, before, batchRows],
      );
      const row = result.rows[0];
      purged += row.deleted;
      if (row.scanned < batchRows || !row.all_created_before) return purged;
      afterSeq = row.last_seq;
    }
  }

  /** Deliveries by status, for operators (CLI). */
  async statusCounts(): Promise<Record<string, number>> {
    const result = await this.pool.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status`);
    return Object.fromEntries(result.rows.map((row) => [row.status, row.n]));
  }
}
