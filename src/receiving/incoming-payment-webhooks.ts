import { refundWebhooks, transactionOnWire } from '../accounts';
import { RecordedEvent } from '../infra/event-store/event-store.port';
import { WebhookDraft, WebhookMapper } from '../webhooks';
import { incomingPaymentViewFromEvents } from './queries/incoming-payment.reducers';

/**
 * What an incoming payment's outcome events mean as webhooks; `data` is the transaction as GET
 * showed it right after the event. The approval requests (INCOMING_PAYMENT.PENDING) are not
 * here: they are answered webhooks, sent by the AskPaymentApproval task. The reference has no
 * REJECTED webhook: a rejection is announced as INCOMING_PAYMENT.FAILED whose data says REJECTED.
 */
const TYPES: Record<string, string | null> = {
  IncomingPaymentCompleted: 'INCOMING_PAYMENT.COMPLETED',
  IncomingPaymentRejected: 'INCOMING_PAYMENT.FAILED',
  IncomingPaymentFailed: 'INCOMING_PAYMENT.FAILED',
  // Only the refund's own webhook (below).
  IncomingPaymentRefundCompleted: null,
};

/** The events that start (a failure after the payer's funds arrived) or end the payer's refund. */
const REFUND_EVENT_TYPES = ['IncomingPaymentFailed', 'IncomingPaymentRefundCompleted'];

export class IncomingPaymentWebhookMapper implements WebhookMapper {
  readonly eventTypes = Object.keys(TYPES);

  constructor(private readonly readStreamUpTo: (event: RecordedEvent) => Promise<RecordedEvent[]>) {}

  async toWebhooks(event: RecordedEvent): Promise<WebhookDraft[]> {
    const view = incomingPaymentViewFromEvents(await this.readStreamUpTo(event));
    if (!view) return [];
    const data = transactionOnWire(view, (event.data as { platformId: string }).platformId);
    const type = TYPES[event.type];
    const drafts: WebhookDraft[] = type ? [{ type, data }] : [];
    // REFUND_PENDING beside the failure that started the payer's refund, REFUND_COMPLETED at its end.
    if (REFUND_EVENT_TYPES.includes(event.type)) drafts.push(...refundWebhooks('INCOMING_PAYMENT', data));
    return drafts;
  }
}
