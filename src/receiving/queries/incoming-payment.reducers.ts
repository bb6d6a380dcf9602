import { TransactionRow, TransactionView, TransactionViewReducer } from '../../accounts';
import { currency } from '../../shared/currencies';
import { IncomingPaymentEvent } from '../domain/incoming-payment.events';

type Data<T extends IncomingPaymentEvent['type']> = Extract<IncomingPaymentEvent, { type: T }>['data'];

function update(current: TransactionRow | null, changes: Partial<TransactionView>): TransactionRow | null {
  return current ? { view: { ...current.view, ...changes }, visible: true } : null;
}

/**
 * The incoming payment events' contribution to the `transactions` view (see the accounts
 * context's transaction.view.ts): PENDING until approved and credited (COMPLETED), REJECTED by
 * the platform, or FAILED (with the payer's refund when its funds had arrived).
 */
export const INCOMING_PAYMENT_TRANSACTION_REDUCERS: Record<string, TransactionViewReducer> = {
  IncomingPaymentReceived: (_current, event) => {
    const data = event.data as Data<'IncomingPaymentReceived'>;
    return {
      view: {
        id: data.transactionId,
        status: 'PENDING',
        type: 'INCOMING',
        direction: 'CREDIT',
        source: { sourceType: 'UMA_ADDRESS', umaAddress: data.senderUmaAddress, currency: data.sentAmount.currency },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: data.receiverUmaAddress, accountId: data.accountId, currency: data.receivedAmount.currency },
        customerId: data.customerId,
        platformCustomerId: data.platformCustomerId,
        sentAmount: { amount: data.sentAmount.amount, currency: currency(data.sentAmount.currency) },
        receivedAmount: { amount: data.receivedAmount.amount, currency: currency(data.receivedAmount.currency) },
        exchangeRate: Number(data.exchangeRate),
        fees: data.fees,
        quoteId: null,
        description: null,
        failureReason: null,
        refund: null,
        createdAt: data.receivedAt,
        updatedAt: data.receivedAt,
        settledAt: null,
        counterpartyInformation: data.counterpartyInformation,
        reconciliationInstructions: { reference: data.reference },
        senderUmaAddress: data.senderUmaAddress,
        receiverUmaAddress: data.receiverUmaAddress,
      },
      visible: true,
    };
  },
  IncomingPaymentApprovalDeferred: (current, event) => update(current, { updatedAt: (event.data as Data<'IncomingPaymentApprovalDeferred'>).deferredAt }),
  IncomingPaymentCounterpartyInformationProvided: (current, event) => {
    const data = event.data as Data<'IncomingPaymentCounterpartyInformationProvided'>;
    return update(current, { counterpartyInformation: data.counterpartyInformation, updatedAt: data.providedAt });
  },
  IncomingPaymentApproved: (current, event) => update(current, { updatedAt: (event.data as Data<'IncomingPaymentApproved'>).approvedAt }),
  IncomingPaymentRejected: (current, event) => update(current, { status: 'REJECTED', updatedAt: (event.data as Data<'IncomingPaymentRejected'>).rejectedAt }),
  IncomingPaymentCompleted: (current, event) => {
    const { completedAt } = event.data as Data<'IncomingPaymentCompleted'>;
    return update(current, { status: 'COMPLETED', settledAt: completedAt, updatedAt: completedAt });
  },
  IncomingPaymentFailed: (current, event) => {
    const data = event.data as Data<'IncomingPaymentFailed'>;
    return update(current, { status: 'FAILED', failureReason: data.failureReason, refund: data.refund, updatedAt: data.failedAt });
  },
  IncomingPaymentRefundCompleted: (current, event) => {
    const { settledAt } = event.data as Data<'IncomingPaymentRefundCompleted'>;
    const refund = current?.view.refund;
    return update(current, { refund: refund ? { ...refund, status: 'COMPLETED', settledAt } : refund, updatedAt: settledAt });
  },
};

/** The incoming payment's transaction view as of the last of `events` (a prefix of its stream). */
export function incomingPaymentViewFromEvents(events: Array<{ type: string; data: unknown }>): TransactionView | null {
  let row: TransactionRow | null = null;
  for (const event of events) {
    const reducer = INCOMING_PAYMENT_TRANSACTION_REDUCERS[event.type];
    if (reducer) row = reducer(row, event as { type: string; data: Record<string, unknown> });
  }
  return row?.view ?? null;
}
