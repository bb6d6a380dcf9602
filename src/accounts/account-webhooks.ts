import { RecordedEvent } from '../infra/event-store/event-store.port';
import { BALANCE_EVENT_TYPES } from './domain/internal-account/internal-account.events';
import { internalAccountViewFromEvents } from './queries/internal-account.view';
import { transactionOnWire } from './queries/transaction-wire';
import { transferTransactionViewFromEvents } from './queries/transfer-transaction.reducers';

/**
 * What the accounts context's events mean as webhooks (DECISIONS.md section 6), for the webhooks
 * context to register. `streamUpToEvent` is the event's own stream up to and including it; `data`
 * is the resource exactly as its GET returned it right after the event.
 * - ledger movements: `INTERNAL_ACCOUNT.BALANCE_UPDATED` (the internal account);
 * - transfers and sandbox funding: `INCOMING_PAYMENT.*` / `OUTGOING_PAYMENT.*` (the transaction).
 *   A transfer-out is announced PENDING once its funds are held (a refused hold is a 400, never
 *   a payment).
 */
const PAYMENT_WEBHOOK_TYPES: Record<string, string> = {
  SandboxFundingCompleted: 'INCOMING_PAYMENT.COMPLETED',
  TransferInRequested: 'INCOMING_PAYMENT.PENDING',
  TransferInCompleted: 'INCOMING_PAYMENT.COMPLETED',
  TransferInFailed: 'INCOMING_PAYMENT.FAILED',
  TransferOutFundsHeld: 'OUTGOING_PAYMENT.PENDING',
  TransferOutCompleted: 'OUTGOING_PAYMENT.COMPLETED',
  TransferOutFailed: 'OUTGOING_PAYMENT.FAILED',
  // The reference has no cancelled status: a cancelled transfer is FAILED, refunded (USER_CANCELLATION).
  TransferOutCancelled: 'OUTGOING_PAYMENT.FAILED',
};

export const ACCOUNT_WEBHOOK_EVENT_TYPES = [...BALANCE_EVENT_TYPES, ...Object.keys(PAYMENT_WEBHOOK_TYPES)];

export function accountWebhooks(
  event: RecordedEvent,
  streamUpToEvent: RecordedEvent[],
  privateEnabled?: boolean | null,
): Array<{ type: string; data: unknown }> {
  if (BALANCE_EVENT_TYPES.includes(event.type)) {
    return [{ type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', data: internalAccountViewFromEvents(streamUpToEvent, privateEnabled) }];
  }
  const type = PAYMENT_WEBHOOK_TYPES[event.type];
  const view = type ? transferTransactionViewFromEvents(streamUpToEvent) : null;
  return type && view ? [{ type, data: transactionOnWire(view, (event.data as { platformId: string }).platformId) }] : [];
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

  async toWebhooks(event: RecordedEvent): Promise<Array<{ type: string; data: unknown }>> {
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
