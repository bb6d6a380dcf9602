import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { AuditEntry, AuditService } from '../../audit';
import { DeliveryView, WebhookDeliveriesQuery } from '../../webhooks';
import { PG_POOL } from '../../infra/postgres/pool';
import { streamNameFor } from '../../infra/ids';

/** The history of every resource is shown whole; a page of `GET /audit/events` is at most 100. */
const WHOLE_HISTORY = 1_000_000;

/**
 * A resource of one platform as the console finds it: its events (the audit history, oldest
 * first), or for a webhook and its delivery (kept in the delivery log, not in events) the
 * delivery as `GET /webhooks/deliveries` lists it.
 */
export interface ResourceHistory {
  id: string;
  type: string;
  events: AuditEntry[];
  /** The events are the whole stream named by the id (not events naming it in another's stream). */
  ownStream: boolean;
  delivery: DeliveryView | null;
}

export function typeOf(id: string): string {
  return id.slice(0, id.indexOf(':'));
}

/**
 * Finds a resource's history with the audit context's own rules (its locators, its tenancy: a
 * platform sees only streams whose events carry its platform id). A quote's transaction has no
 * stream of its own: its history is its quote's stream, named by the `transactions` read model.
 */
@Injectable()
export class ResourceHistories {
  constructor(
    private readonly audit: AuditService,
    @Inject(WebhookDeliveriesQuery) private readonly deliveries: WebhookDeliveriesQuery,
    @Inject(PG_POOL) private readonly pool: Pool,
  ) {}

  async find(id: string, platformId: string): Promise<ResourceHistory | null> {
    if (!AuditService.isResourceId(id)) return null;
    const type = typeOf(id);
    if (type === 'WebhookDelivery' || type === 'Webhook') return this.delivery(id, type, platformId);
    const events = (await this.eventsOf(id, platformId)) ?? (type === 'Transaction' ? await this.quoteEventsOf(id, platformId) : null);
    if (!events) return null;
    return { id, type, events, ownStream: events[0].streamName === streamNameFor(id), delivery: null };
  }

  /** The whole history of `id`, or null when it has none this platform may see. */
  async eventsOf(id: string, platformId: string): Promise<AuditEntry[] | null> {
    const page = await this.audit.history(id, platformId, 0, WHOLE_HISTORY);
    return page ? page.data : null;
  }

  private async quoteEventsOf(transactionId: string, platformId: string): Promise<AuditEntry[] | null> {
    const row = await this.pool.query<{ quote_id: string | null }>(`SELECT quote_id FROM transactions WHERE platform_id = $1 AND transaction_id = $2`, [
      platformId,
      transactionId,
    ]);
    const quoteId = row.rows[0]?.quote_id;
    return quoteId ? this.eventsOf(quoteId, platformId) : null;
  }

  private async delivery(id: string, type: string, platformId: string): Promise<ResourceHistory | null> {
    let deliveryId: string | undefined = id;
    if (type === 'Webhook') {
      const row = await this.pool.query<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE platform_id = $1 AND webhook_id = $2`, [platformId, id]);
      deliveryId = row.rows[0]?.id;
    }
    const delivery = deliveryId ? await this.deliveries.findById(platformId, deliveryId) : null;
    return delivery && { id, type, events: [], ownStream: false, delivery };
  }
}
