import { Pool } from 'pg';
import { Page, toPage } from '../../infra/http/pagination';
import { AttemptTrigger } from '../delivery/delivery-store';
import { DeliveryStatus } from '../delivery/retry-policy';

export interface DeliveryAttemptView {
  attemptNumber: number;
  trigger: AttemptTrigger;
  attemptedAt: string;
  endpoint: string | null;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/**
 * A webhook's delivery as `GET /webhooks/deliveries` lists it.
 * @example
 * {
 *   "id": "WebhookDelivery:019a4a19-1a02-7e3c-b7d1-58c4f0e2a913",
 *   "webhookId": "Webhook:019a4a19-19f8-7a6b-9e05-c3d18b7f2e40",
 *   "type": "OUTGOING_PAYMENT.COMPLETED",
 *   "status": "DELIVERED",
 *   "attemptCount": 2,
 *   "lastStatusCode": 200,
 *   "endpoint": "https://api.example.com/webhooks/payments",
 *   "retryUntil": "2025-11-10T14:22:30.010Z",
 *   "createdAt": "2025-11-03T14:22:30.010Z",
 *   "updatedAt": "2025-11-03T14:23:31.457Z",
 *   "deliveredAt": "2025-11-03T14:23:31.457Z",
 *   "payload": {
 *     "id": "Webhook:019a4a19-19f8-7a6b-9e05-c3d18b7f2e40",
 *     "type": "OUTGOING_PAYMENT.COMPLETED",
 *     "timestamp": "2025-11-03T14:22:30.004Z",
 *     "data": { "id": "Transaction:019a4a17-d638-7b02-a4c7-51e9f3b08d62", "status": "COMPLETED", "type": "OUTGOING" }
 *   },
 *   "attempts": [
 *     { "attemptNumber": 1, "trigger": "AUTOMATIC", "attemptedAt": "2025-11-03T14:22:30.214Z", "endpoint": "https://api.example.com/webhooks/payments", "statusCode": 503, "latencyMs": 184, "error": "HTTP 503" },
 *     { "attemptNumber": 2, "trigger": "AUTOMATIC", "attemptedAt": "2025-11-03T14:23:31.402Z", "endpoint": "https://api.example.com/webhooks/payments", "statusCode": 200, "latencyMs": 55 }
 *   ]
 * }
 */
export interface DeliveryView {
  id: string;
  webhookId: string;
  type: string;
  status: DeliveryStatus;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  /** Endpoint of the latest try (the endpoint is read at each try). */
  endpoint: string | null;
  nextAttemptAt: string | null;
  retryUntil: string;
  createdAt: string;
  updatedAt: string;
  deliveredAt: string | null;
  /** The webhook exactly as sent: `{id, type, timestamp, data}`. */
  payload: unknown;
  /** The latest tries, oldest first (at most MAX_ATTEMPTS_SHOWN; `attemptCount` has the total). */
  attempts: DeliveryAttemptView[];
}

export interface DeliveryFilter {
  webhookId?: string;
  type?: string;
  status?: DeliveryStatus;
}

/** A week of retries every 30 minutes is about 340 tries; the latest 100 tell the story. */
export const MAX_ATTEMPTS_SHOWN = 100;

export class WebhookDeliveriesQuery {
  constructor(private readonly pool: Pool) {}

  /** Newest first, keyset-paginated on the insertion sequence. */
  async list(platformId: string, filter: DeliveryFilter, limit: number, cursor: Record<string, unknown> | null): Promise<Page<DeliveryView>> {
    const conditions = ['platform_id = $1'];
    const params: unknown[] = [platformId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      conditions.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.webhookId) add('webhook_id = ?', filter.webhookId);
    if (filter.type) add('type = ?', filter.type);
    if (filter.status) add('status = ?', filter.status);
    const countParams = [...params];
    const countConditions = [...conditions];
    if (cursor && typeof cursor.seq === 'string' && /^\d+$/.test(cursor.seq)) add('seq < ?::bigint', cursor.seq);
    params.push(limit + 1);
    const rows = (
      await this.pool.query(
        `SELECT seq::text AS cursor_seq, * FROM webhook_deliveries WHERE ${conditions.join(' AND ')} ORDER BY seq DESC LIMIT $${params.length}`,
        params,
      )
    ).rows;
    const total = await this.pool.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE ${countConditions.join(' AND ')}`, countParams);
    const attempts = await this.attemptsOf(
      platformId,
      rows.slice(0, limit).map((row) => row.id),
    );
    return toPage(rows, limit, (row) => toView(row, attempts.get(row.id) ?? []), (row) => ({ seq: row.cursor_seq }), total.rows[0].n);
  }

  async findById(platformId: string, deliveryId: string): Promise<DeliveryView | null> {
    const result = await this.pool.query(`SELECT * FROM webhook_deliveries WHERE platform_id = $1 AND id = $2`, [platformId, deliveryId]);
    const row = result.rows[0];
    if (!row) return null;
    const attempts = await this.attemptsOf(platformId, [deliveryId]);
    return toView(row, attempts.get(deliveryId) ?? []);
  }

  private async attemptsOf(platformId: string, deliveryIds: string[]): Promise<Map<string, DeliveryAttemptView[]>> {
    const byDelivery = new Map<string, DeliveryAttemptView[]>();
    if (deliveryIds.length === 0) return byDelivery;
    const result = await this.pool.query(
      `SELECT * FROM (
         SELECT attempt.*, row_number() OVER (PARTITION BY delivery_id ORDER BY id DESC) AS recency
           FROM webhook_delivery_attempts attempt
          WHERE platform_id = $1 AND delivery_id = ANY($2)
       ) ranked WHERE recency <= $3 ORDER BY delivery_id, id`,
      [platformId, deliveryIds, MAX_ATTEMPTS_SHOWN],
    );
    for (const row of result.rows) {
      const list = byDelivery.get(row.delivery_id) ?? [];
      list.push({
        attemptNumber: row.attempt_number,
        trigger: row.trigger,
        attemptedAt: iso(row.attempted_at)!,
        endpoint: row.endpoint,
        statusCode: row.status_code,
        latencyMs: row.latency_ms,
        error: row.error,
      });
      byDelivery.set(row.delivery_id, list);
    }
    return byDelivery;
  }
}

function toView(row: Record<string, any>, attempts: DeliveryAttemptView[]): DeliveryView {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    type: row.type,
    status: row.status,
    attemptCount: row.attempt_count,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    endpoint: row.last_endpoint,
    nextAttemptAt: iso(row.next_attempt_at),
    retryUntil: iso(row.retry_until)!,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    deliveredAt: iso(row.delivered_at),
    payload: JSON.parse(row.body),
    attempts,
  };
}

function iso(value: Date | null): string | null {
  return value ? new Date(value).toISOString() : null;
}
