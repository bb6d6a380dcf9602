import { RecordedEvent } from '../infra/event-store/event-store.port';
import { BALANCE_EVENT_TYPES } from './domain/internal-account/internal-account.events';
import { internalAccountViewFromEvents } from './queries/internal-account.view';
import { WireTransaction, transactionOnWire } from './queries/transaction-wire';
import { transferTransactionViewFromEvents } from './queries/transfer-transaction.reducers';

/**
 * What the accounts context's events mean as webhooks (DECISIONS.md section 6), for the webhooks
 * context to register. `streamUpToEvent` is the event's own stream up to and including it; `data`
 * is the resource exactly as its GET returned it right after the event.
 * - ledger movements: `INTERNAL_ACCOUNT.BALANCE_UPDATED` (the internal account);
 * - transfers and sandbox funding: `INCOMING_PAYMENT.*` / `OUTGOING_PAYMENT.*` (the transaction).
 *   A transfer-out is announced PENDING once its funds are held (a refused hold is a 400, never
 *   a payment). Its failure (or cancellation) is FAILED and REFUND_PENDING, its refund's end
 *   REFUND_COMPLETED (refundWebhooks).
 */
const PAYMENT_WEBHOOK_TYPES: Record<string, string> = {
  SandboxFundingCompleted: 'INCOMING_PAYMENT.COMPLETED',
  TransferInRequested: 'INCOMING_PAYMENT.PENDING',
  TransferInCompleted: 'INCOMING_PAYMENT.COMPLETED',
  TransferInFailed: 'INCOMING_PAYMENT.FAILED',
  TransferInCancelled: 'INCOMING_PAYMENT.FAILED',
  TransferOutFundsHeld: 'OUTGOING_PAYMENT.PENDING',
  TransferOutCompleted: 'OUTGOING_PAYMENT.COMPLETED',
  TransferOutFailed: 'OUTGOING_PAYMENT.FAILED',
  // The reference has no cancelled status: a cancelled transfer is FAILED, refunded (USER_CANCELLATION).
  TransferOutCancelled: 'OUTGOING_PAYMENT.FAILED',
};

/** A webhook draft (the webhooks context's WebhookDraft): `key` tells apart drafts of one event. */
export type MappedWebhook = { type: string; data: unknown; key?: string };

/** The transfer events that start or end a refund. */
const REFUND_EVENT_TYPES = ['TransferOutFailed', 'TransferOutCancelled', 'TransferOutRefundCompleted'];

export const ACCOUNT_WEBHOOK_EVENT_TYPES = [...BALANCE_EVENT_TYPES, ...Object.keys(PAYMENT_WEBHOOK_TYPES), 'TransferOutRefundCompleted'];

/**
 * The refund webhook of an event that started or ended a payment's refund: `<KIND>.REFUND_<status>`
 * with the refund's status right after the event (PENDING where a failure started it, beside the
 * FAILED webhook; COMPLETED or FAILED where it ended), and the transaction as GET shows it then.
 * Keyed by the refund's reference. None when the transaction has no refund. Quotes (and any
 * other payment with a refund) map their events through it too.
 */
export function refundWebhooks(kind: 'OUTGOING_PAYMENT' | 'INCOMING_PAYMENT', transaction: WireTransaction): MappedWebhook[] {
  const { refund } = transaction;
  return refund ? [{ type: `${kind}.REFUND_${refund.status}`, data: transaction, key: refund.reference }] : [];
}

export function accountWebhooks(
  event: RecordedEvent,
  streamUpToEvent: RecordedEvent[],
  privateEnabled?: boolean | null,
): MappedWebhook[] {
  if (BALANCE_EVENT_TYPES.includes(event.type)) {
    return [{ type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', data: internalAccountViewFromEvents(streamUpToEvent, privateEnabled) }];
  }
  const type = PAYMENT_WEBHOOK_TYPES[event.type];
  const refunds = REFUND_EVENT_TYPES.includes(event.type);
  const view = type || refunds ? transferTransactionViewFromEvents(streamUpToEvent) : null;
  if (!view) return [];
  const transaction = transactionOnWire(view, (event.data as { platformId: string }).platformId);
  return [...(type ? [{ type, data: transaction }] : []), ...(refunds ? refundWebhooks('OUTGOING_PAYMENT', transaction) : [])];
}

const OPENINGS_LIMIT = 20_000;

/**
 * The registered mapper: the same views as accountWebhooks, without reading a ledger stream back
 * for each balance webhook (an account's stream grows with every movement). A balance event
 * carries the account's absolute `available` and `held`, and everything else in the view comes
 * from the account's opening event, which never changes: so the view right after a balance event
 * is the opening plus that event. Openings are read once (revision 0 only) and kept. Payment
 * events fold their own (short) transaction stream as before.
 */
export class AccountWebhookMapper {
  readonly eventTypes = ACCOUNT_WEBHOOK_EVENT_TYPES;
  private readonly openings = new Map<string, RecordedEvent>();

  constructor(
    private readonly readStreamUpTo: (event: RecordedEvent) => Promise<RecordedEvent[]>,
    private readonly readOpening: (streamName: string) => Promise<RecordedEvent | undefined>,
    /**
     * An embedded wallet's privacy setting as the account read model holds it (the ledger does
     * not carry it; the wallet context records it). Read for wallets only.
     */
    private readonly privacyOf: (platformId: string, accountId: string) => Promise<boolean | null | undefined> = async () => undefined,
  ) {}

  async toWebhooks(event: RecordedEvent): Promise<MappedWebhook[]> {
    if (!BALANCE_EVENT_TYPES.includes(event.type)) return accountWebhooks(event, await this.readStreamUpTo(event));
    let opening = this.openings.get(event.streamName);
    if (!opening) {
      opening = await this.readOpening(event.streamName);
      if (!opening || opening.type !== 'InternalAccountOpened') return accountWebhooks(event, await this.readStreamUpTo(event));
      this.openings.set(event.streamName, opening);
      if (this.openings.size > OPENINGS_LIMIT) this.openings.delete(this.openings.keys().next().value!);
    }
    const opened = opening.data as { platformId: string; accountId: string; accountType: string };
    const privateEnabled = opened.accountType === 'EMBEDDED_WALLET' ? ((await this.privacyOf(opened.platformId, opened.accountId)) ?? false) : undefined;
    return accountWebhooks(event, [opening, event], privateEnabled);
  }
}
