import { RecordedEvent } from '../infra/event-store/event-store.port';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { readStreamUpTo } from '../webhooks';
import { WebhookDraft, WebhookMapper } from '../webhooks';
import { CARD_STATE_CHANGE_EVENT_TYPES } from './domain/card/card.events';
import { cardViewFromEvents, cardWire } from './queries/card.view';

/**
 * What card events mean as webhooks (DECISIONS.md section 6): every lifecycle move (issued,
 * rejected by the issuer, frozen, unfrozen, closed) is one `CARD.STATE_CHANGE` whose `data` is the
 * card exactly as `GET /cards/{id}` returned it right after the event. Creation (PROCESSING) is
 * not a change of state: the `POST /cards` answer carries it. Funding-source and spend-limit
 * changes are not state changes either. `streamUpToEvent` is the card's stream up to and
 * including `event`.
 */
export const CARD_WEBHOOK_EVENT_TYPES: string[] = [...CARD_STATE_CHANGE_EVENT_TYPES];

export function cardWebhooks(event: RecordedEvent, streamUpToEvent: RecordedEvent[]): Array<{ type: string; data: unknown }> {
  if (!CARD_WEBHOOK_EVENT_TYPES.includes(event.type)) return [];
  const data = cardViewFromEvents(streamUpToEvent);
  return data ? [{ type: 'CARD.STATE_CHANGE', data: cardWire(data) }] : [];
}

/**
 * The mapper the cards module registers in the webhooks registry. The platform comes from the
 * event itself, so the issuer's answer (appended by a task) reaches the card's platform too.
 */
export function cardWebhookMapper(events: EventStoreService): WebhookMapper {
  return {
    eventTypes: CARD_WEBHOOK_EVENT_TYPES,
    platformOf: (event) => (event.data as { platformId: string }).platformId,
    async toWebhooks(event: RecordedEvent): Promise<WebhookDraft[]> {
      const platformId = (event.data as { platformId: string }).platformId;
      const drafts = cardWebhooks(event, await readStreamUpTo(events, event));
      return drafts.map((draft) => ({ ...draft, platformId }));
    },
  };
}
