import { RecordedEvent } from '../infra/event-store/event-store.port';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { readStreamUpTo } from '../webhooks';
import { WebhookDraft, WebhookMapper } from '../webhooks';
import { CARD_TRANSACTION_EVENT_TYPES } from './domain/card-transaction/card-transaction.events';
import { CARD_STATE_CHANGE_EVENT_TYPES } from './domain/card/card.events';
import { cardTransactionViewFromEvents } from './queries/card-transaction.view';
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

/**
 * `CARD.FUNDING_SOURCE_CHANGE`: a PATCH that changed the card's funding sources, whose `data` is
 * the card as GET showed it right after (the new `fundingSources`). Kept apart from
 * `cardWebhooks`, which maps state changes only.
 */
export function cardFundingSourceWebhooks(event: RecordedEvent, streamUpToEvent: RecordedEvent[]): Array<{ type: string; data: unknown }> {
  if (event.type !== 'CardFundingSourcesChanged') return [];
  const data = cardViewFromEvents(streamUpToEvent);
  return data ? [{ type: 'CARD.FUNDING_SOURCE_CHANGE', data: cardWire(data) }] : [];
}

/**
 * `CARD_TRANSACTION.<status>`: every event of a card transaction's stream that changes its
 * `status` (the approved authorization included: AUTHORIZED) is one webhook whose `data` is the
 * CardTransaction as GET showed it right after the event. Events that leave the status as it was
 * (a pull confirmed, an advice, a partial return) send none; declines and balance inquiries show
 * no transaction and send none. A single-message authorization appends its approval and its
 * clearing together: AUTHORIZED, then SETTLED.
 */
export function cardTransactionWebhooks(streamUpToEvent: RecordedEvent[]): Array<{ type: string; data: unknown }> {
  const after = cardTransactionViewFromEvents(streamUpToEvent);
  if (!after) return [];
  const before = cardTransactionViewFromEvents(streamUpToEvent.slice(0, -1));
  return before?.status === after.status ? [] : [{ type: `CARD_TRANSACTION.${after.status}`, data: after }];
}

/** Events of a card transaction's stream that never show a CardTransaction (nor send a webhook). */
const SHOW_NO_TRANSACTION: string[] = ['CardAuthorizationDeclined', 'CardBalanceInquiryAnswered'];

/** The mapper of `CARD.FUNDING_SOURCE_CHANGE` and `CARD_TRANSACTION.*`; the platform comes from the event (tasks append some). */
export function cardTransactionWebhookMapper(events: EventStoreService): WebhookMapper {
  return {
    eventTypes: ['CardFundingSourcesChanged', ...CARD_TRANSACTION_EVENT_TYPES.filter((type) => !SHOW_NO_TRANSACTION.includes(type))],
    platformOf: (event) => (event.data as { platformId: string }).platformId,
    async toWebhooks(event: RecordedEvent): Promise<WebhookDraft[]> {
      const platformId = (event.data as { platformId: string }).platformId;
      const stream = await readStreamUpTo(events, event);
      const drafts = event.type === 'CardFundingSourcesChanged' ? cardFundingSourceWebhooks(event, stream) : cardTransactionWebhooks(stream);
      return drafts.map((draft) => ({ ...draft, platformId }));
    },
  };
}
