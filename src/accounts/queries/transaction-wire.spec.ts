import { incomingFailureReason, outgoingFailureReason, refundReason, transactionOnWire } from './transaction-wire';
import { TransactionView } from './transaction.view';

const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const AT = '2026-01-01T00:00:00.000Z';

function view(changes: Partial<TransactionView> = {}): TransactionView {
  return {
    id: 'Transaction:0190a5a0-0000-7000-8000-000000000001',
    status: 'FAILED',
    type: 'OUTGOING',
    direction: 'DEBIT',
    source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:a', currency: 'USD' },
    destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:b', currency: 'USD', paymentRail: 'ACH' },
    customerId: 'Customer:c',
    platformCustomerId: 'ext-c',
    sentAmount: { amount: 100, currency: USD },
    receivedAmount: { amount: 100, currency: USD },
    exchangeRate: 1,
    fees: 0,
    quoteId: null,
    description: null,
    failureReason: 'BANK_REJECTED',
    refund: { reference: 'r', initiatedAt: AT, settledAt: AT, status: 'COMPLETED', reason: 'BANK_REJECTED' },
    createdAt: AT,
    updatedAt: AT,
    settledAt: null,
    ...changes,
  };
}

describe('transactionOnWire', () => {
  it('maps our failure and refund reasons onto the reference enums, keeping its own values', () => {
    expect(outgoingFailureReason('ACCOUNT_CLOSED')).toBe('ACCOUNT_CANNOT_RECEIVE');
    expect(outgoingFailureReason('BANK_REJECTED')).toBe('ACCOUNT_CANNOT_RECEIVE');
    expect(outgoingFailureReason('INSUFFICIENT_FUNDS')).toBe('QUOTE_EXECUTION_FAILED');
    expect(outgoingFailureReason('SETTLEMENT_TIMEOUT')).toBe('QUOTE_EXECUTION_FAILED');
    expect(outgoingFailureReason('PAYOUT_RETURNED')).toBe('PAYOUT_RETURNED');
    expect(outgoingFailureReason('SOMETHING_NEW')).toBe('QUOTE_EXECUTION_FAILED');
    expect(incomingFailureReason('INSUFFICIENT_FUNDS')).toBe('COLLECTION_FAILED');
    expect(incomingFailureReason('COMPLIANCE_REJECTED')).toBe('COMPLIANCE_REJECTED');
    expect(refundReason('SETTLEMENT_TIMEOUT')).toBe('TIMEOUT');
    expect(refundReason('USER_CANCELLATION')).toBe('USER_CANCELLATION');
    expect(refundReason('ACCOUNT_CLOSED')).toBe('TRANSACTION_FAILED');
  });

  it('shows an outgoing bank rail at the top level and keeps everything else', () => {
    const wire = transactionOnWire(view(), 'Platform:p');
    expect(wire).toEqual({
      ...view(),
      failureReason: 'ACCOUNT_CANNOT_RECEIVE',
      refund: { reference: 'r', initiatedAt: AT, settledAt: AT, status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
      paymentRail: 'ACH',
    });
    expect(transactionOnWire(view({ destination: { destinationType: 'ACCOUNT', accountId: 'x', currency: 'BTC', paymentRail: 'LIGHTNING' } }), 'Platform:p')).not.toHaveProperty('paymentRail');
  });

  it('names the platform as customer of its own transactions, and our id when no platformCustomerId was given', () => {
    expect(transactionOnWire(view({ customerId: null, platformCustomerId: null }), 'Platform:p')).toMatchObject({ customerId: 'Platform:p', platformCustomerId: 'Platform:p' });
    expect(transactionOnWire(view({ platformCustomerId: null }), 'Platform:p')).toMatchObject({ customerId: 'Customer:c', platformCustomerId: 'Customer:c' });
  });

  it('an incoming failure is a failed collection; no refund stays none', () => {
    const wire = transactionOnWire(view({ type: 'INCOMING', direction: 'CREDIT', failureReason: 'SETTLEMENT_TIMEOUT', refund: null }), 'Platform:p');
    expect(wire).toMatchObject({ failureReason: 'COLLECTION_FAILED', refund: null });
    expect(wire).not.toHaveProperty('paymentRail');
  });
});
