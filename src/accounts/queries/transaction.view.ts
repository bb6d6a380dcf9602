import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { CurrencyAmount } from './internal-account.view';

/**
 * A transaction exactly as `GET /transactions/{id}` returns it (DECISIONS.md section 2). Transfers
 * (this context) and quotes (the quotes context) both produce these; each context contributes
 * reducers from its events to this view (projections/transactions/reducers.ts).
 */
export type TransactionStatus = 'PENDING' | 'PENDING_AUTHORIZATION' | 'PROCESSING' | 'COMPLETED' | 'REJECTED' | 'FAILED' | 'EXPIRED';

export interface TransactionSource {
  sourceType: string;
  accountId?: string;
  currency: string;
  [extra: string]: unknown;
}

export interface TransactionDestination {
  destinationType: string;
  accountId?: string;
  currency: string;
  paymentRail?: string | null;
  [extra: string]: unknown;
}

export interface TransactionRefund {
  reference: string;
  initiatedAt: string;
  settledAt: string | null;
  status: string;
  reason?: string;
}

export interface TransactionView {
  id: string;
  status: TransactionStatus;
  type: 'OUTGOING' | 'INCOMING';
  direction: 'DEBIT' | 'CREDIT';
  source: TransactionSource | null;
  destination: TransactionDestination;
  customerId: string | null;
  platformCustomerId: string | null;
  sentAmount: CurrencyAmount;
  receivedAmount: CurrencyAmount;
  /** Sending units per one receiving unit (1 for same-currency transfers). */
  exchangeRate: number;
  /** Minor units of the sending currency. */
  fees: number;
  quoteId: string | null;
  description: string | null;
  failureReason: string | null;
  refund: TransactionRefund | null;
  createdAt: string;
  updatedAt: string;
  settledAt: string | null;
  /**
   * Optional details, present when the transaction's events know them (older events do not):
   * from the quote behind an outgoing payment (projections/transactions/reducers.ts) or from the
   * transfer request. They are shown as they are.
   */
  platformFees?: number;
  rateDetails?: Record<string, number>;
  paymentInstructions?: Array<Record<string, unknown>>;
  counterpartyInformation?: Record<string, unknown>;
  /** MANUAL when the request named the rail, AUTO when the service chose it. */
  railSelectionMode?: 'AUTO' | 'MANUAL';
  /** The code that travels with the payment (a transfer-out's `remittanceInformation`). */
  reconciliationInstructions?: { reference: string };
  purposeOfPayment?: string;
  /** When the platform delivered the receipt (`POST /transactions/{id}/confirm`), the latest confirmation. */
  receiptDeliveryConfirmedAt?: string;
  /** An incoming UMA payment's two addresses (the reference's incoming-payment webhook shows them). */
  senderUmaAddress?: string;
  receiverUmaAddress?: string;
}

/**
 * The read model's row: the view, and whether GET shows it (a transfer-out is hidden until its
 * funds are held, and stays hidden when the hold was refused and the request answered 400).
 */
export interface TransactionRow {
  view: TransactionView;
  visible: boolean;
}

export type TransactionEventLike = Pick<RecordedEvent, 'type' | 'data'>;

/** Turns the row before an event into the row after it (null: no row yet / unchanged absence). */
export type TransactionViewReducer = (current: TransactionRow | null, event: TransactionEventLike) => TransactionRow | null;

export function foldTransactionRow(
  reducers: Record<string, TransactionViewReducer>,
  events: TransactionEventLike[],
): TransactionRow | null {
  let row: TransactionRow | null = null;
  for (const event of events) {
    const reducer = reducers[event.type];
    if (reducer) row = reducer(row, event);
  }
  return row;
}
