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
   * Inserts a `PENDING` delivery unless its webhook id exists. Returns the row's status either
   * way, so the reactor re-enqueues a delivery it created before a crash but never queued.
   */
  async createPending(delivery: NewDelivery): Promise<{ status: DeliveryStatus; inserted: boolean }> {
    const inserted = await this.pool.query(
      `INSERT INTO webhook_deliveries
         (id, webhook_id, platform_id, type, source_event_id, body, status, retry_until, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', now() + make_interval(secs => $7::double precision / 1000), now(), now())
       ON CONFLICT (webhook_id) DO NOTHING
       RETURNING status`,
      [delivery.id, delivery.webhookId, delivery.platformId, delivery.type, delivery.sourceEventId, delivery.body, delivery.retryWindowMs],
    );
    if (inserted.rows[0]) return { status: inserted.rows[0].status, inserted: true };
    const existing = await this.pool.query(`SELECT status FROM webhook_deliveries WHERE webhook_id = $1 AND platform_id = $2`, [
      delivery.webhookId,
      delivery.platformId,
    ]);
    return { status: existing.rows[0]?.status ?? 'DELIVERED', inserted: false };
  }

  /** A delivery made and tried on the spot (the sandbox test): its row and its one attempt. */
  async createTried(delivery: NewDelivery, attempt: Omit<AttemptRecord, 'deliveryId' | 'platformId'>): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO webhook_deliveries
           (id, webhook_id, platform_id, type, source_event_id, body, status, retry_until, created_at, updated_at)
         VALUES ($1, $2, $3, $4, NULL, $5, 'PENDING', $6::timestamptz + make_interval(secs => $7::double precision / 1000), $6, $6)`,
        [delivery.id, delivery.webhookId, delivery.platformId, delivery.type, delivery.body, attempt.attemptedAt, delivery.retryWindowMs],
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
    const result = await this.pool.query(
      `SELECT id, platform_id, body, status, attempt_count, retry_until FROM webhook_deliveries WHERE id = $1 AND platform_id = $2`,
      [deliveryId, platformId],
    );
    const row = result.rows[0];
    if (!row) return null;
    return {
      id: row.id,
      platformId: row.platform_id,
      body: row.body,
      status: row.status,
      attemptCount: row.attempt_count,
      retryUntil: row.retry_until,
    };
  }

  /**
   * Records a try and moves the delivery in one statement (numbering attempts atomically).
   * Returns the status after it, or null when the delivery does not exist.
   */
  async recordAttempt(attempt: AttemptRecord, db: Pool | PoolClient = this.pool): Promise<DeliveryStatus | null> {
    const result = await db.query(
      `WITH moved AS (
         UPDATE webhook_deliveries SET
           attempt_count = attempt_count + 1,
           status = CASE WHEN status = 'DELIVERED' THEN 'DELIVERED' ELSE COALESCE($4, status) END,
           next_attempt_at = CASE WHEN status = 'DELIVERED' OR $4 IN ('DELIVERED', 'FAILED') THEN NULL
                                  WHEN $4 = 'RETRYING' THEN $10::timestamptz ELSE next_attempt_at END,
           delivered_at = CASE WHEN $4 = 'DELIVERED' THEN COALESCE(delivered_at, $5) ELSE delivered_at END,
           last_status_code = $7, last_error = $9, last_endpoint = $6, updated_at = $5
         WHERE id = $1 AND platform_id = $2
         RETURNING attempt_count, status
       ), attempt AS (
         INSERT INTO webhook_delivery_attempts
           (delivery_id, platform_id, attempt_number, trigger, attempted_at, endpoint, status_code, latency_ms, error)
         SELECT $1, $2, moved.attempt_count, $3, $5, $6, $7, $8, $9 FROM moved
       )
       SELECT status FROM moved`,
      [
        attempt.deliveryId,
        attempt.platformId,
        attempt.trigger,
        attempt.newStatus,
        attempt.attemptedAt,
        attempt.endpoint,
        attempt.statusCode,
        attempt.latencyMs,
        attempt.error,
        attempt.nextAttemptAt,
      ],
    );
    return result.rows[0]?.status ?? null;
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

  /** Deliveries by status, for operators (CLI). */
  async statusCounts(): Promise<Record<string, number>> {
    const result = await this.pool.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status`);
    return Object.fromEntries(result.rows.map((row) => [row.status, row.n]));
  }
}
