import { RecordedEvent } from '../infra/event-store/event-store.port';
import { quoteTransactionViewFromEvents } from './queries/quote-transaction.reducers';

/**
 * What the quote events mean as webhooks (DECISIONS.md sections 2 and 6): every status change of
 * the outgoing transaction behind a quote is an `OUTGOING_PAYMENT.<STATUS>`, whose `data` is the
 * transaction exactly as `GET /transactions/{id}` returned it right after the event. Execute
 * attempts that were refused change no status and send nothing.
 */
export const OUTGOING_PAYMENT_TYPES: Readonly<Record<string, string>> = {
  QuoteCreated: 'OUTGOING_PAYMENT.PENDING',
  QuoteFundsHeld: 'OUTGOING_PAYMENT.PROCESSING',
  QuoteFunded: 'OUTGOING_PAYMENT.PROCESSING',
  QuoteCompleted: 'OUTGOING_PAYMENT.COMPLETED',
  QuoteFailed: 'OUTGOING_PAYMENT.FAILED',
  QuoteExpired: 'OUTGOING_PAYMENT.EXPIRED',
};

export const QUOTE_WEBHOOK_EVENT_TYPES = Object.keys(OUTGOING_PAYMENT_TYPES);

/** `streamUpToEvent`: the quote's stream up to and including `event`. */
export function quoteWebhooks(event: RecordedEvent, streamUpToEvent: RecordedEvent[]): Array<{ type: string; data: unknown }> {
  const type = OUTGOING_PAYMENT_TYPES[event.type];
  if (!type) return [];
  const data = quoteTransactionViewFromEvents(streamUpToEvent);
  return data ? [{ type, data }] : [];
}
