import { deciderSpec } from '../../../../test/support/decider-spec';
import { QuoteCommand, quoteDecider } from './quote.decider';
import { QuoteEvent, QuoteTerms } from './quote.events';

const AT = '2025-10-13T12:05:00.000Z';
const ref = { quoteId: 'Quote:q', transactionId: 'Transaction:t', platformId: 'Platform:p' };
const terms = {
  ...ref,
  customerId: 'Customer:c',
  platformCustomerId: 'c-1',
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:a' },
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:e', paymentRail: 'ACH' },
  paymentRail: 'ACH',
  funding: { sourceAccountId: 'InternalAccount:a', sourceAccountType: 'INTERNAL_FIAT', destinationInternalAccountId: null, scenario: 'SUCCESS', scenarioSuffix: null },
  createdAt: '2025-10-13T12:00:00.000Z',
  expiresAt: '2025-10-13T12:15:00.000Z',
} as unknown as QuoteTerms;

const created: QuoteEvent = { type: 'QuoteCreated', data: terms };
const requested: QuoteEvent = {
  type: 'QuoteExecutionRequested',
  data: { ...ref, attempt: 1, holdId: 'hold-1', sourceAccountId: 'InternalAccount:a', amount: 10_000, scaFactor: null, requestedAt: AT },
};
const held: QuoteEvent = { type: 'QuoteFundsHeld', data: { ...ref, attempt: 1, holdId: 'hold-1', heldAt: AT } };
const funded: QuoteEvent = { type: 'QuoteFunded', data: { ...ref, currencyCode: 'USD', amount: 10_000, fundedAt: AT } };
const cancel = (cancellableRail = true): QuoteCommand => ({ type: 'Cancel', cancellableRail, reason: 'REQUESTED_AFTER_HOURS', now: AT });
const cancelled: QuoteEvent = {
  type: 'QuoteFailed',
  data: {
    ...ref, step: 0, failureReason: 'QUOTE_EXECUTION_FAILED', failedAt: AT, cancellation: { reason: 'REQUESTED_AFTER_HOURS' },
    refund: { reference: 'Transaction:t:refund', initiatedAt: AT, settledAt: null, status: 'PENDING', reason: 'USER_CANCELLATION' },
  },
};
const refunded: QuoteEvent = { type: 'QuoteRefundCompleted', data: { ...ref, settledAt: AT } };

const spec = deciderSpec(quoteDecider);

describe('quote decider: cancellation and receipt confirmation', () => {
  it('cancels a PROCESSING bank payout before its first settlement step: FAILED at step 0, its refund started and completed at once; once', () => {
    spec.given([created, requested, held]).when(cancel()).then([cancelled, refunded]);
    const done = spec.given([created, requested, held, cancelled, refunded]);
    expect(done.state).toMatchObject({ status: 'FAILED', stepsApplied: 1, refund: { status: 'COMPLETED', settledAt: AT, reason: 'USER_CANCELLATION' } });
    done.when(cancel()).then([]);
    done.when({ type: 'SettleRefund', outcome: 'COMPLETED', now: AT }).then([]);
    // The settlement task that follows finds its step applied.
    done.when({ type: 'ApplySettlementStep', step: 0, outcome: { status: 'COMPLETED', failureReason: null, refund: null }, now: AT }).then([]);
  });

  it('TRANSACTION_NOT_CANCELLABLE: another rail, not yet processing, settled, or funded by a real-time payment', () => {
    spec.given([created, requested, held]).when(cancel(false)).thenError('TRANSACTION_NOT_CANCELLABLE');
    spec.given([created]).when(cancel()).thenError('TRANSACTION_NOT_CANCELLABLE');
    spec.given([created, requested]).when(cancel()).thenError('TRANSACTION_NOT_CANCELLABLE');
    const completed: QuoteEvent = { type: 'QuoteCompleted', data: { ...ref, step: 0, completedAt: AT } };
    spec.given([created, requested, held, completed]).when(cancel()).thenError('TRANSACTION_NOT_CANCELLABLE');
    spec.given([created, funded]).when(cancel()).thenError('TRANSACTION_NOT_CANCELLABLE');
  });

  it('confirms the receipt in any status, again with the new time, changing nothing of the quote', () => {
    const confirm: QuoteCommand = { type: 'ConfirmReceipt', receiptDeliveryConfirmedAt: '2025-10-13T12:06:00.000Z', now: AT };
    const confirmed: QuoteEvent = { type: 'QuoteReceiptConfirmed', data: { ...ref, receiptDeliveryConfirmedAt: '2025-10-13T12:06:00.000Z', confirmedAt: AT } };
    spec.given([created]).when(confirm).then([confirmed]);
    spec.given([created, requested, held, confirmed]).when(confirm).then([confirmed]);
    expect(spec.state([created, requested, held, confirmed])).toEqual(spec.state([created, requested, held]));
  });
});
