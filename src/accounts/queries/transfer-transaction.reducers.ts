import { currency } from '../../shared/currencies';
import { Refund, USER_CANCELLATION, completedRefund } from '../domain/transaction/refund';
import { TransactionEvent, TransferParties } from '../domain/transaction/transaction.events';
import { TransactionRow, TransactionView, TransactionViewReducer } from './transaction.view';

/** The transfer events' contribution to the `transactions` view (see transaction.view.ts). */
function base(parties: TransferParties, kind: 'OUT' | 'IN', at: string): TransactionView {
  const amount = { amount: parties.amount, currency: currency(parties.currency) };
  return {
    id: parties.transactionId,
    status: 'PENDING',
    type: kind === 'OUT' ? 'OUTGOING' : 'INCOMING',
    direction: kind === 'OUT' ? 'DEBIT' : 'CREDIT',
    source: { sourceType: 'ACCOUNT', accountId: parties.sourceAccountId, currency: parties.currency },
    destination: { destinationType: 'ACCOUNT', accountId: parties.destinationAccountId, currency: parties.currency, paymentRail: parties.paymentRail },
    customerId: parties.customerId,
    platformCustomerId: parties.platformCustomerId,
    sentAmount: amount,
    receivedAmount: amount,
    exchangeRate: 1,
    fees: 0,
    quoteId: null,
    description: null,
    failureReason: null,
    refund: null,
    createdAt: at,
    updatedAt: at,
    settledAt: null,
    ...(parties.railSelectionMode ? { railSelectionMode: parties.railSelectionMode } : {}),
    ...(parties.remittanceInformation !== undefined ? { reconciliationInstructions: { reference: parties.remittanceInformation } } : {}),
    ...(parties.purposeOfPayment !== undefined ? { purposeOfPayment: parties.purposeOfPayment } : {}),
  };
}

function update(current: TransactionRow | null, changes: Partial<TransactionView>, visible?: boolean): TransactionRow | null {
  if (!current) return null;
  return { view: { ...current.view, ...changes }, visible: visible ?? current.visible };
}

type Data<T extends TransactionEvent['type']> = Extract<TransactionEvent, { type: T }>['data'];

export const TRANSFER_TRANSACTION_REDUCERS: Record<string, TransactionViewReducer> = {
  TransferOutRequested: (_current, event) => {
    const data = event.data as Data<'TransferOutRequested'>;
    return { view: base(data, 'OUT', data.requestedAt), visible: false };
  },
  TransferOutFundsHeld: (current, event) => update(current, { updatedAt: (event.data as Data<'TransferOutFundsHeld'>).heldAt }, true),
  TransferOutRejected: (current, event) => {
    const data = event.data as Data<'TransferOutRejected'>;
    return update(current, { status: 'FAILED', failureReason: data.reason, updatedAt: data.rejectedAt }, false);
  },
  TransferOutCompleted: (current, event) => {
    const data = event.data as Data<'TransferOutCompleted'>;
    return update(current, { status: 'COMPLETED', settledAt: data.completedAt, updatedAt: data.completedAt });
  },
  TransferOutFailed: (current, event) => {
    const data = event.data as Data<'TransferOutFailed'>;
    return update(current, { status: 'FAILED', failureReason: data.failureReason, refund: data.refund, updatedAt: data.failedAt });
  },
  // A cancellation is a failure the platform asked for: the refund says so (USER_CANCELLATION).
  TransferOutCancelled: (current, event) => {
    const data = event.data as Data<'TransferOutCancelled'>;
    return update(current, { status: 'FAILED', failureReason: data.refund.reason, refund: data.refund, updatedAt: data.cancelledAt });
  },
  // The refund's end moves only the refund: the transfer stays FAILED (never REFUNDED).
  TransferOutRefundCompleted: (current, event) => {
    const { settledAt } = event.data as Data<'TransferOutRefundCompleted'>;
    const refund = current?.view.refund;
    return refund ? update(current, { refund: completedRefund(refund as Refund, settledAt), updatedAt: settledAt }) : current;
  },
  TransferReceiptConfirmed: (current, event) => {
    const data = event.data as Data<'TransferReceiptConfirmed'>;
    return update(current, { receiptDeliveryConfirmedAt: data.receiptDeliveryConfirmedAt, updatedAt: data.confirmedAt });
  },
  TransferInRequested: (_current, event) => {
    const data = event.data as Data<'TransferInRequested'>;
    return { view: base(data, 'IN', data.requestedAt), visible: true };
  },
  TransferInCompleted: (current, event) => {
    const data = event.data as Data<'TransferInCompleted'>;
    return update(current, { status: 'COMPLETED', settledAt: data.completedAt, updatedAt: data.completedAt });
  },
  // A pull cancelled before it settled: nothing was credited (the wire shows COLLECTION_FAILED).
  TransferInCancelled: (current, event) => {
    const data = event.data as Data<'TransferInCancelled'>;
    return update(current, { status: 'FAILED', failureReason: USER_CANCELLATION, updatedAt: data.cancelledAt });
  },
  TransferInFailed: (current, event) => {
    const data = event.data as Data<'TransferInFailed'>;
    return update(current, { status: 'FAILED', failureReason: data.failureReason, updatedAt: data.failedAt });
  },
  SandboxFundingCompleted: (_current, event) => {
    const data = event.data as Data<'SandboxFundingCompleted'>;
    const amount = { amount: data.amount, currency: currency(data.currency) };
    return {
      view: {
        id: data.transactionId,
        status: 'COMPLETED',
        type: 'INCOMING',
        direction: 'CREDIT',
        source: null,
        destination: { destinationType: 'ACCOUNT', accountId: data.accountId, currency: data.currency, paymentRail: null },
        customerId: data.customerId,
        platformCustomerId: data.platformCustomerId,
        sentAmount: amount,
        receivedAmount: amount,
        exchangeRate: 1,
        fees: 0,
        quoteId: null,
        description: 'Sandbox funding',
        failureReason: null,
        refund: null,
        createdAt: data.completedAt,
        updatedAt: data.completedAt,
        settledAt: data.completedAt,
      },
      visible: true,
    };
  },
};

/** A transfer's transaction view as of the last of `events` (a prefix of its stream). */
export function transferTransactionViewFromEvents(events: Array<{ type: string; data: Record<string, unknown> }>): TransactionView | null {
  let row: TransactionRow | null = null;
  for (const event of events) {
    const reducer = TRANSFER_TRANSACTION_REDUCERS[event.type];
    if (reducer) row = reducer(row, event);
  }
  return row?.view ?? null;
}
