import { CardTransaction } from './card-transaction-wire';
import { TransactionRefund, TransactionView } from './transaction.view';

/**
 * A transaction as the API shows it (GET, the 201 of a transfer, payment webhooks): the stored
 * view mapped onto the reference's OutgoingTransaction / IncomingTransaction. Stored events and
 * rows keep our own, more precise reasons (the sandbox scenario that failed a transfer, say);
 * only what leaves the service is narrowed to the reference's enums, so the mapping can change
 * without touching history.
 * @example
 * {
 *   "id": "Transaction:019a4a17-d638-7b02-a4c7-51e9f3b08d62",
 *   "status": "COMPLETED",
 *   "type": "OUTGOING",
 *   "direction": "DEBIT",
 *   "source": { "sourceType": "ACCOUNT", "accountId": "InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57", "currency": "USD" },
 *   "destination": { "destinationType": "ACCOUNT", "accountId": "ExternalAccount:019a2a1c-0f3b-7e44-9a61-d27c5b80e3f9", "currency": "EUR", "paymentRail": "SEPA_INSTANT" },
 *   "customerId": "Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21",
 *   "platformCustomerId": "user-48213",
 *   "sentAmount": { "amount": 100000, "currency": { "code": "USD", "name": "United States Dollar", "symbol": "$", "decimals": 2 } },
 *   "receivedAmount": { "amount": 85982, "currency": { "code": "EUR", "name": "Euro", "symbol": "€", "decimals": 2 } },
 *   "exchangeRate": 1.16,
 *   "fees": 260,
 *   "quoteId": "Quote:019a4a17-d638-7a41-9c5e-3f0b2d8e6a17",
 *   "description": "November rent",
 *   "createdAt": "2025-11-03T14:21:07.512Z",
 *   "updatedAt": "2025-11-03T14:22:30.004Z",
 *   "settledAt": "2025-11-03T14:22:30.004Z",
 *   "platformFees": 150,
 *   "railSelectionMode": "MANUAL",
 *   "paymentRail": "SEPA_INSTANT"
 * }
 */
export type WireTransaction = Omit<TransactionView, 'customerId' | 'platformCustomerId'> & {
  customerId: string;
  platformCustomerId: string;
  paymentRail?: string;
};

/** What `GET /transactions` lists: a payment, or a card transaction (the reference's TransactionOneOf, on `type`). */
export type TransactionOneOf = WireTransaction | CardTransaction;

/** A stored view of the `transactions` read model: a payment's, or a card transaction's (stored as the wire shows it). */
export type StoredTransactionView = TransactionView | CardTransaction;

/** A stored view as the API shows it: a card transaction is answered exactly as stored. */
export function storedTransactionOnWire(view: StoredTransactionView, platformId: string): TransactionOneOf {
  return view.type === 'CARD' ? view : transactionOnWire(view, platformId);
}

/** OutgoingTransactionFailureReason. */
const OUTGOING_FAILURE_REASONS = new Set([
  'QUOTE_EXPIRED', 'QUOTE_RATE_UNAVAILABLE', 'QUOTE_EXECUTION_FAILED', 'FUNDING_AMOUNT_MISMATCH', 'SCA_NOT_COMPLETED',
  'PAYOUT_RETURNED', 'LIMIT_EXCEEDED', 'ACCOUNT_CANNOT_RECEIVE', 'ACCOUNT_INVALID', 'COMPLIANCE_REJECTED',
  'LIGHTNING_PAYMENT_FAILED', 'COUNTERPARTY_POST_TX_FAILED',
]);

/** IncomingTransactionFailureReason. */
const INCOMING_FAILURE_REASONS = new Set([
  'LNURLP_FAILED', 'PAY_REQUEST_FAILED', 'PAYMENT_APPROVAL_WEBHOOK_ERROR', 'PAYMENT_APPROVAL_TIMED_OUT', 'OFFRAMP_FAILED',
  'MISSING_MANDATORY_PAYEE_DATA', 'QUOTE_EXPIRED', 'QUOTE_EXECUTION_FAILED', 'COMPLIANCE_REJECTED', 'COLLECTION_FAILED',
]);

/**
 * Our reasons for a failed payout (transfer-out sandbox scenarios, quote settlement) that the
 * reference names differently. A closed or rejecting beneficiary bank cannot receive; a payer
 * short of funds or a settlement that timed out is an execution that failed.
 */
const OUTGOING_REASON_MAP: Record<string, string> = {
  ACCOUNT_CLOSED: 'ACCOUNT_CANNOT_RECEIVE',
  BANK_REJECTED: 'ACCOUNT_CANNOT_RECEIVE',
  INVALID_BANK_ACCOUNT: 'ACCOUNT_INVALID',
  INSUFFICIENT_FUNDS: 'QUOTE_EXECUTION_FAILED',
  SETTLEMENT_TIMEOUT: 'QUOTE_EXECUTION_FAILED',
  AMOUNT_OUT_OF_RANGE: 'LIMIT_EXCEEDED',
};

/** PaymentRail. */
const BANK_RAILS = new Set([
  'ACH', 'ACH_COLOMBIA', 'BANK_TRANSFER', 'BRE_B', 'CIPS', 'FAST', 'FASTER_PAYMENTS', 'FEDNOW', 'INSTAPAY', 'MOBILE_MONEY',
  'NEFT', 'PAYNOW', 'PESONET', 'PIX', 'RTGS', 'RTP', 'SEPA', 'SEPA_INSTANT', 'SPEI', 'SWIFT', 'UNIONPAY', 'UPI', 'WIRE',
]);

/** Refund.reason: TRANSACTION_FAILED, USER_CANCELLATION, TIMEOUT. */
const REFUND_REASONS = new Set(['TRANSACTION_FAILED', 'USER_CANCELLATION', 'TIMEOUT']);
const REFUND_REASON_MAP: Record<string, string> = { SETTLEMENT_TIMEOUT: 'TIMEOUT', SCA_NOT_COMPLETED: 'TIMEOUT' };

export function outgoingFailureReason(reason: string): string {
  if (OUTGOING_FAILURE_REASONS.has(reason)) return reason;
  return OUTGOING_REASON_MAP[reason] ?? 'QUOTE_EXECUTION_FAILED';
}

/**
 * An incoming payment that failed: a transfer-in is a pull from the customer's external account,
 * so every way it fails (short of funds, closed, rejected, timed out) is a failed collection.
 */
export function incomingFailureReason(reason: string): string {
  return INCOMING_FAILURE_REASONS.has(reason) ? reason : 'COLLECTION_FAILED';
}

export function refundReason(reason: string): string {
  if (REFUND_REASONS.has(reason)) return reason;
  return REFUND_REASON_MAP[reason] ?? 'TRANSACTION_FAILED';
}

/**
 * `platformId` answers for `customerId` and `platformCustomerId` on the platform's own
 * transactions (its own accounts, no customer): the reference requires both, and names the
 * platform id as the `customerId` that lists them.
 */
export function transactionOnWire(view: TransactionView, platformId: string): WireTransaction {
  const { customerId, platformCustomerId, failureReason, refund } = view;
  // Spread first: the overrides keep the view's key order.
  const wire: WireTransaction = {
    ...view,
    customerId: customerId ?? platformId,
    // A customer created without a platformCustomerId is known by our id.
    platformCustomerId: platformCustomerId ?? customerId ?? platformId,
    failureReason: failureReason === null ? null : view.type === 'OUTGOING' ? outgoingFailureReason(failureReason) : incomingFailureReason(failureReason),
    refund: refund === null ? null : wireRefund(refund),
  };
  // The bank rail that carries an outgoing payment is also shown at the top level, where the
  // reference reads it; crypto and Lightning destinations use no external bank rail and omit it.
  const rail = view.destination.paymentRail;
  if (view.type === 'OUTGOING' && typeof rail === 'string' && BANK_RAILS.has(rail)) wire.paymentRail = rail;
  return wire;
}

function wireRefund(refund: TransactionRefund): TransactionRefund {
  return { ...refund, ...(refund.reason !== undefined ? { reason: refundReason(refund.reason) } : {}) };
}
