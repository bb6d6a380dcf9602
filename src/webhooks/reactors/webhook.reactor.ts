import { WebhookDeliveryConfig } from '../../infra/config';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { logger } from '../../infra/logger';
import { Reactor } from '../../infra/projections/projection';
import { DeliveryQueues } from '../delivery/delivery-queues';
import { DeliveryStore } from '../delivery/delivery-store';
import { WebhookDeliveryService } from '../delivery/webhook-delivery.service';
import { WEBHOOK_TYPE_PATTERN, WebhookDraft, WebhookMappers } from '../webhook-mappers';
import { deliveryIdFor, webhookIdFor } from '../webhook-ids';

export const WEBHOOK_REACTOR_NAME = 'webhooks';

/**
 * Stored event -> registered mappers -> one delivery row and one job per webhook. Checkpointed
 * by the projection runner (at least once per event): the webhook id is derived from (platform,
 * event, type, key), so running an event again finds the row instead of making a second webhook,
 * and re-queues it only if it never left `PENDING` (a crash between the row and the job).
 */
export class WebhookReactor implements Reactor {
  readonly name = WEBHOOK_REACTOR_NAME;

  constructor(
    private readonly mappers: WebhookMappers,
    private readonly store: DeliveryStore,
    private readonly queues: DeliveryQueues,
    private readonly deliveries: WebhookDeliveryService,
    private readonly settings: WebhookDeliveryConfig,
  ) {}

  /** Read by the runner when it starts, after every module registered its mappers. */
  get handles(): string[] {
    return this.mappers.eventTypes();
  }

  async react(event: RecordedEvent): Promise<void> {
    // Webhooks are tried for the retry window after their event; older ones (a replay of old
    // history, a reactor that was off for longer) would only surprise the platform.
    if (Date.now() - event.createdAt.getTime() > this.settings.retryWindowMs) return;
    const drafts: WebhookDraft[] = [];
    for (const mapper of this.mappers.mappersFor(event.type)) drafts.push(...(await mapper.toWebhooks(event)));
    const rankByType = new Map<string, number>();
    for (const draft of drafts) {
      const rank = rankByType.get(draft.type) ?? 0;
      rankByType.set(draft.type, rank + 1);
      await this.createWebhook(event, draft, draft.key ?? String(rank));
    }
  }

  private async createWebhook(event: RecordedEvent, draft: WebhookDraft, key: string): Promise<void> {
    const platformId = draft.platformId ?? event.metadata.platformId;
    if (!WEBHOOK_TYPE_PATTERN.test(draft.type) || !platformId) {
      logger.error('webhook mapper returned an unusable webhook; skipped', { eventId: event.id, eventType: event.type, type: draft.type });
      return;
    }
    // Platforms without an endpoint get no webhooks (nothing piles up for 7 days).
    if (!(await this.deliveries.endpointOf(platformId))) return;
    const webhookId = webhookIdFor(platformId, event.id, draft.type, key);
    const deliveryId = deliveryIdFor(webhookId);
    const body = JSON.stringify({ id: webhookId, type: draft.type, timestamp: event.createdAt.toISOString(), data: draft.data });
    const { status } = await this.store.createPending({
      id: deliveryId,
      webhookId,
      platformId,
      type: draft.type,
      sourceEventId: event.id,
      body,
      retryWindowMs: this.settings.retryWindowMs,
    });
    if (status === 'PENDING') await this.queues.enqueue(platformId, deliveryId);
  }
}
