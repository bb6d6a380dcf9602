import { TransactionRow, TransactionView, TransactionViewReducer, foldTransactionRow } from '../../accounts';
import { LEGACY_FAILURE_REASONS, refundReasonOf } from '../../sandbox';
import { QuoteEvent, QuoteTerms } from '../domain/quote/quote.events';
import { pricedCurrency } from '../pricing/payout-currencies';
import { wirePaymentRail } from '../pricing/rails';

/**
 * The quote events' contribution to the `transactions` view (DECISIONS.md section 2): each quote
 * is an OUTGOING, DEBIT transaction from its creation (PENDING) to PROCESSING, COMPLETED, FAILED
 * (with its refund) or EXPIRED, in the same shape as the transfers' transactions. The refund's
 * end changes only the refund: the transaction stays FAILED (as the reference's refund webhooks
 * show it), never REFUNDED.
 */
type Data<T extends QuoteEvent['type']> = Extract<QuoteEvent, { type: T }>['data'];

function created(terms: QuoteTerms): TransactionView {
  const source: TransactionView['source'] = terms.source.sourceType === 'ACCOUNT'
    ? { sourceType: 'ACCOUNT', accountId: terms.source.accountId, currency: terms.sendingCurrency }
    : {
        sourceType: 'REALTIME_FUNDING',
        currency: terms.sendingCurrency,
        ...(terms.source.cryptoNetwork ? { cryptoNetwork: terms.source.cryptoNetwork } : {}),
      };
  // The rail under the contract's name; none for wallets, UMA and book transfers.
  const paymentRail = wirePaymentRail(terms.paymentRail);
  const rail = paymentRail ? { paymentRail } : {};
  const destination: TransactionView['destination'] = terms.destination.destinationType === 'ACCOUNT'
    ? { destinationType: 'ACCOUNT', accountId: terms.destination.accountId, currency: terms.receivingCurrency, ...rail }
    : { destinationType: 'UMA_ADDRESS', umaAddress: terms.destination.umaAddress, currency: terms.receivingCurrency, ...rail };
  return {
    id: terms.transactionId,
    status: 'PENDING',
    type: 'OUTGOING',
    direction: 'DEBIT',
    source,
    destination,
    customerId: terms.customerId,
    platformCustomerId: terms.platformCustomerId,
    sentAmount: { amount: terms.totalSendingAmount, currency: pricedCurrency(terms.sendingCurrency) },
    receivedAmount: { amount: terms.totalReceivingAmount, currency: pricedCurrency(terms.receivingCurrency) },
    exchangeRate: Number(terms.exchangeRate),
    fees: terms.feesIncluded,
    quoteId: terms.quoteId,
    description: terms.description,
    failureReason: null,
    refund: null,
    createdAt: terms.createdAt,
    updatedAt: terms.createdAt,
    settledAt: null,
    // The quote's terms OutgoingTransaction shows too, fixed at creation (the same fields the
    // transactions projection adds, so webhooks and the sandbox send answer carry them as GET does).
    platformFees: terms.platformFeesIncluded,
    rateDetails: { ...terms.rateDetails },
    // An account source's instructions only (an embedded wallet's payload to sign): a real-time
    // funded quote may withhold its deposit instructions until SCA is done; the payer reads them on the quote.
    ...(terms.source.sourceType === 'ACCOUNT' && terms.paymentInstructions && terms.paymentInstructions.length > 0
      ? { paymentInstructions: terms.paymentInstructions as unknown as Array<Record<string, unknown>> }
      : {}),
    ...(terms.counterpartyInformation && Object.keys(terms.counterpartyInformation).length > 0
      ? { counterpartyInformation: terms.counterpartyInformation }
      : {}),
  };
}

function update(current: TransactionRow | null, changes: Partial<TransactionView>): TransactionRow | null {
  return current ? { view: { ...current.view, ...changes }, visible: true } : null;
}

/** Every event type of a quote stream has a reducer (the read model then sees the whole stream). */
const unchanged: TransactionViewReducer = (current) => current;

export const QUOTE_TRANSACTION_REDUCERS: Record<string, TransactionViewReducer> = {
  QuoteCreated: (_current, event) => ({ view: created(event.data as Data<'QuoteCreated'>), visible: true }),
  QuoteAuthorizationRequested: (current, event) =>
    update(current, { status: 'PENDING_AUTHORIZATION', updatedAt: (event.data as Data<'QuoteAuthorizationRequested'>).requestedAt }),
  QuoteScaChallengeIssued: unchanged,
  QuoteAuthorized: (current, event) => update(current, { status: 'PENDING', updatedAt: (event.data as Data<'QuoteAuthorized'>).authorizedAt }),
  QuoteAuthorizationFailed: (current, event) => {
    const data = event.data as Data<'QuoteAuthorizationFailed'>;
    return update(current, { status: 'FAILED', failureReason: failureReasonOf(data.failureReason), refund: null, updatedAt: data.failedAt });
  },
  QuoteExecutionRequested: unchanged,
  QuoteExecutionRejected: unchanged,
  QuoteFundsHeld: (current, event) => update(current, { status: 'PROCESSING', updatedAt: (event.data as Data<'QuoteFundsHeld'>).heldAt }),
  QuoteFunded: (current, event) => update(current, { status: 'PROCESSING', updatedAt: (event.data as Data<'QuoteFunded'>).fundedAt }),
  QuoteExpired: (current, event) => update(current, { status: 'EXPIRED', updatedAt: (event.data as Data<'QuoteExpired'>).expiredAt }),
  QuoteCompleted: (current, event) => {
    const data = event.data as Data<'QuoteCompleted'>;
    return update(current, { status: 'COMPLETED', settledAt: data.completedAt, updatedAt: data.completedAt });
  },
  QuoteFailed: (current, event) => {
    const data = event.data as Data<'QuoteFailed'>;
    // Rebuilt in one key order (the event store keeps its own order for nested objects).
    const refund = data.refund
      ? {
          reference: data.refund.reference,
          initiatedAt: data.refund.initiatedAt,
          settledAt: data.refund.settledAt,
          status: data.refund.status,
          reason: refundReasonOf(data.refund.reason),
        }
      : null;
    return update(current, { status: 'FAILED', failureReason: failureReasonOf(data.failureReason), refund, updatedAt: data.failedAt });
  },
  QuoteRefundCompleted: (current, event) => {
    const { settledAt } = event.data as Data<'QuoteRefundCompleted'>;
    return endRefund(current, { status: 'COMPLETED', settledAt }, settledAt);
  },
  QuoteRefundFailed: (current, event) => {
    const { failedAt } = event.data as Data<'QuoteRefundFailed'>;
    return endRefund(current, { status: 'FAILED' }, failedAt);
  },
  QuoteReceiptConfirmed: (current, event) => {
    const data = event.data as Data<'QuoteReceiptConfirmed'>;
    return update(current, { receiptDeliveryConfirmedAt: data.receiptDeliveryConfirmedAt, updatedAt: data.confirmedAt });
  },
};

/** The refund's end: its status (and `settledAt` when the money came back), keeping its key order. */
function endRefund(current: TransactionRow | null, changes: { status: string; settledAt?: string }, at: string): TransactionRow | null {
  const refund = current?.view.refund;
  return refund ? update(current, { refund: { ...refund, ...changes }, updatedAt: at }) : current;
}

/** A stored failure reason under the contract's name (older quotes stored two of their own). */
function failureReasonOf(stored: string): string {
  return LEGACY_FAILURE_REASONS[stored] ?? stored;
}

/** The quote's transaction as of the last of `events` (a prefix of the quote's stream). */
export function quoteTransactionViewFromEvents(events: Array<{ type: string; data: Record<string, unknown> }>): TransactionView | null {
  return foldTransactionRow(QUOTE_TRANSACTION_REDUCERS, events)?.view ?? null;
}
