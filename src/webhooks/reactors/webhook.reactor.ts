import { toWireJson } from '../../infra/http/wire-json';
import { WebhookDeliveryConfig } from '../../infra/config';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { logger } from '../../infra/logger';
import { Reactor } from '../../infra/projections/projection';
import { DeliveryQueues } from '../delivery/delivery-queues';
import { DeliveryStore, NewDelivery } from '../delivery/delivery-store';
import { WebhookDeliveryService } from '../delivery/webhook-delivery.service';
import { WEBHOOK_TYPE_PATTERN, WebhookDraft, WebhookMappers } from '../webhook-mappers';
import { deliveryIdFor, webhookIdFor } from '../webhook-ids';
import { isDeclaredWebhookType } from '../webhook-types';

export const WEBHOOK_REACTOR_NAME = 'webhooks';

/** Mappers read streams: a few at once keep Postgres busy without flooding the pool. */
const MAPPER_CONCURRENCY = 8;

/**
 * Stored events -> registered mappers -> one delivery row and one job per webhook. Checkpointed
 * by the projection runner (at least once per event), a read batch at a time: one statement
 * inserts the batch's deliveries and one bulk per platform queues them. The webhook id is
 * derived from (platform, event, type, key), so running an event again finds the row instead of
 * making a second webhook, and re-queues it only if it never left `PENDING` (a crash between
 * the row and the job, or a Redis that lost the job).
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

  react(event: RecordedEvent): Promise<void> {
    return this.reactBatch([event]);
  }

  async reactBatch(events: RecordedEvent[]): Promise<void> {
    // Webhooks are tried for the retry window after their event; older ones (a replay of old
    // history, a reactor that was off for longer) would only surprise the platform.
    const inWindow = events.filter((event) => Date.now() - event.createdAt.getTime() <= this.settings.retryWindowMs);
    // Platforms without an endpoint get no webhooks (nothing piles up for 7 days): events whose
    // platforms are known to have none are not even mapped (mapping reads streams and rows).
    const endpointKnown = new Map<string, boolean>();
    const learnEndpoints = async (platformIds: string[]) => {
      const unknown = platformIds.filter((platformId) => !endpointKnown.has(platformId));
      const endpoints = await Promise.all(unknown.map((platformId) => this.deliveries.endpointOf(platformId)));
      unknown.forEach((platformId, index) => endpointKnown.set(platformId, Boolean(endpoints[index])));
    };
    const declared = inWindow.map((event) => this.mappers.platformsOf(event));
    await learnEndpoints([...new Set(declared.flatMap((platforms) => platforms ?? []))]);
    const recent = inWindow.filter((_, index) => declared[index] === null || declared[index]!.some((platformId) => endpointKnown.get(platformId)));
    const draftsPerEvent = await mapConcurrently(recent, MAPPER_CONCURRENCY, (event) => this.draftsOf(event));
    const candidates: Array<{ event: RecordedEvent; draft: WebhookDraft; platformId: string; key: string }> = [];
    recent.forEach((event, index) => {
      const rankByType = new Map<string, number>();
      for (const draft of draftsPerEvent[index]) {
        const rank = rankByType.get(draft.type) ?? 0;
        rankByType.set(draft.type, rank + 1);
        const platformId = draft.platformId ?? event.metadata.platformId;
        if (!WEBHOOK_TYPE_PATTERN.test(draft.type) || !platformId) {
          logger.error('webhook mapper returned an unusable webhook; skipped', { eventId: event.id, eventType: event.type, type: draft.type });
          continue;
        }
        // Only the contract's types go out (e.g. no CUSTOMER.KYC_UNVERIFIED): see webhook-types.ts.
        if (!isDeclaredWebhookType(draft.type)) continue;
        candidates.push({ event, draft, platformId, key: draft.key ?? String(rank) });
      }
    });
    if (candidates.length === 0) return;

    await learnEndpoints([...new Set(candidates.map((candidate) => candidate.platformId))]);
    const deliveries: NewDelivery[] = candidates
      .filter((candidate) => endpointKnown.get(candidate.platformId))
      .map(({ event, draft, platformId, key }) => {
        const webhookId = webhookIdFor(platformId, event.id, draft.type, key, event.createdAt.getTime());
        return {
          id: deliveryIdFor(webhookId),
          webhookId,
          platformId,
          type: draft.type,
          sourceEventId: event.id,
          body: toWireJson({ id: webhookId, type: draft.type, timestamp: event.createdAt.toISOString(), data: draft.data }),
          retryWindowMs: this.settings.retryWindowMs,
        };
      });
    const statuses = await this.store.createPending(deliveries);
    const pendingByPlatform = new Map<string, string[]>();
    deliveries.forEach((delivery, index) => {
      if (statuses[index] !== 'PENDING') return;
      pendingByPlatform.set(delivery.platformId, [...(pendingByPlatform.get(delivery.platformId) ?? []), delivery.id]);
    });
    await Promise.all([...pendingByPlatform].map(([platformId, ids]) => this.queues.enqueueMany(platformId, ids)));
  }

  private async draftsOf(event: RecordedEvent): Promise<WebhookDraft[]> {
    const drafts: WebhookDraft[] = [];
    for (const mapper of this.mappers.mappersFor(event.type)) drafts.push(...(await mapper.toWebhooks(event)));
    return drafts;
  }
}

async function mapConcurrently<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return results;
}
