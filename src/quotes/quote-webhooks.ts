import { MappedWebhook, TransactionRow, TransactionView, refundWebhooks, transactionOnWire } from '../accounts';
import { RecordedEvent } from '../infra/event-store/event-store.port';
import { QUOTE_EVENT_TYPES } from './domain/quote/quote.events';
import { QUOTE_TRANSACTION_REDUCERS, quoteTransactionViewFromEvents } from './queries/quote-transaction.reducers';

/**
 * What the quote events mean as webhooks (DECISIONS.md sections 2 and 6): every status change of
 * the outgoing transaction behind a quote is an `OUTGOING_PAYMENT.<STATUS>`, whose `data` is the
 * transaction exactly as `GET /transactions/{id}` returned it right after the event (the stored
 * view put on the wire by transactionOnWire, as GET does). Execute
 * attempts that were refused change no status and send nothing. The refund of a failed payout
 * has webhooks of its own (REFUND_EVENT_TYPES): REFUND_PENDING after the FAILED of the failure
 * that started it, then REFUND_COMPLETED or REFUND_FAILED when it ends; the transaction stays FAILED.
 */
export const OUTGOING_PAYMENT_TYPES: Readonly<Record<string, string>> = {
  QuoteCreated: 'OUTGOING_PAYMENT.PENDING',
  QuoteFundsHeld: 'OUTGOING_PAYMENT.PROCESSING',
  QuoteFunded: 'OUTGOING_PAYMENT.PROCESSING',
  QuoteCompleted: 'OUTGOING_PAYMENT.COMPLETED',
  QuoteFailed: 'OUTGOING_PAYMENT.FAILED',
  QuoteExpired: 'OUTGOING_PAYMENT.EXPIRED',
  QuoteAuthorizationRequested: 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION',
  QuoteAuthorized: 'OUTGOING_PAYMENT.PENDING',
  QuoteAuthorizationFailed: 'OUTGOING_PAYMENT.FAILED',
};

/** The quote events that start (QuoteFailed, when it has a refund) or end a refund. */
const REFUND_EVENT_TYPES: ReadonlySet<string> = new Set(['QuoteFailed', 'QuoteRefundCompleted', 'QuoteRefundFailed']);

/** `streamUpToEvent`: the quote's stream up to and including `event`. */
export function quoteWebhooks(event: RecordedEvent, streamUpToEvent: RecordedEvent[]): MappedWebhook[] {
  return webhooksOf(event, quoteTransactionViewFromEvents(streamUpToEvent));
}

/** The webhooks of `event`, given the transaction right after it. */
function webhooksOf(event: RecordedEvent, view: TransactionView | null): MappedWebhook[] {
  const type = OUTGOING_PAYMENT_TYPES[event.type];
  const refunds = REFUND_EVENT_TYPES.has(event.type);
  if (!view || (!type && !refunds)) return [];
  const transaction = transactionOnWire(view, platformIdOf(event));
  return [...(type ? [{ type, data: transaction }] : []), ...(refunds ? refundWebhooks('OUTGOING_PAYMENT', transaction) : [])];
}

const RECENT_LIMIT = 20_000;

/**
 * The registered mapper: the same views as quoteWebhooks, without reading the stream back in the
 * common case. It sees every event of every quote stream in order (all quote event types are
 * registered), and keeps the transaction row each quote had after its latest revision: when the
 * next event is the next revision, the row after it is one reducer away. A gap (an event skipped
 * or mapped out of order) falls back to folding the stream up to the event.
 */
export class QuoteWebhookMapper {
  readonly eventTypes = [...QUOTE_EVENT_TYPES];
  private readonly recent = new Map<string, { revision: number; row: TransactionRow | null }>();

  constructor(private readonly readStreamUpTo: (event: RecordedEvent) => Promise<RecordedEvent[]>) {}

  async toWebhooks(event: RecordedEvent): Promise<MappedWebhook[]> {
    const quoteId = (event.data as { quoteId: string }).quoteId;
    const cached = this.recent.get(quoteId);
    let row: TransactionRow | null;
    if (event.revision === 0 || (cached && cached.revision === event.revision - 1)) {
      const reducer = QUOTE_TRANSACTION_REDUCERS[event.type];
      const before = event.revision === 0 ? null : cached!.row;
      row = reducer ? reducer(before, event) : before;
    } else {
      row = rowOf(await this.readStreamUpTo(event));
    }
    this.recent.delete(quoteId);
    this.recent.set(quoteId, { revision: event.revision, row });
    if (this.recent.size > RECENT_LIMIT) this.recent.delete(this.recent.keys().next().value!);
    return webhooksOf(event, row?.view ?? null);
  }
}

function platformIdOf(event: RecordedEvent): string {
  return (event.data as { platformId: string }).platformId;
}

function rowOf(stream: RecordedEvent[]): TransactionRow | null {
  const view = quoteTransactionViewFromEvents(stream);
  return view ? { view, visible: true } : null;
}
