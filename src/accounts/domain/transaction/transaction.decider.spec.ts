import { DomainError } from '../../../infra/domain/domain-error';
import { TransactionCommand, TransactionState, transactionDecider } from './transaction.decider';
import { TransactionEvent, TransferParties } from './transaction.events';

const NOW = '2025-10-13T12:00:00.000Z';
const parties: TransferParties = {
  transactionId: 'Transaction:t',
  platformId: 'Platform:p',
  customerId: 'Customer:c',
  platformCustomerId: 'c-1',
  sourceAccountId: 'InternalAccount:a',
  destinationAccountId: 'ExternalAccount:e',
  paymentRail: 'ACH',
  currency: 'USD',
  amount: 1000,
  counterpartySuffix: '789',
};
const ref = { transactionId: 'Transaction:t', platformId: 'Platform:p' };
const requested: TransactionEvent = { type: 'TransferOutRequested', data: { ...parties, requestedAt: NOW } };
const held: TransactionEvent = { type: 'TransferOutFundsHeld', data: { ...ref, holdId: 'Transaction:t', heldAt: NOW } };

const given = (events: TransactionEvent[]): TransactionState => events.reduce(transactionDecider.evolve, transactionDecider.initialState());
const when = (state: TransactionState, command: TransactionCommand) => transactionDecider.decide(command, state);
function errorCode(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    return (error as DomainError).code;
  }
  return undefined;
}

describe('transfer transaction decider', () => {
  it('requests a transfer-out once', () => {
    expect(when(given([]), { type: 'RequestTransferOut', parties, now: NOW })).toEqual([requested]);
    expect(when(given([requested]), { type: 'RequestTransferOut', parties, now: NOW })).toEqual([]);
  });

  it('goes REQUESTED -> PENDING when the funds are held, idempotently', () => {
    expect(when(given([requested]), { type: 'RecordFundsHeld', holdId: 'Transaction:t', now: NOW })).toEqual([held]);
    expect(given([requested, held]).status).toBe('PENDING');
    expect(when(given([requested, held]), { type: 'RecordFundsHeld', holdId: 'Transaction:t', now: NOW })).toEqual([]);
  });

  it('goes REQUESTED -> REJECTED when the hold is refused, and cannot be held afterwards', () => {
    const rejected = when(given([requested]), { type: 'RejectTransferOut', reason: 'INSUFFICIENT_FUNDS', now: NOW });
    expect(rejected).toEqual([{ type: 'TransferOutRejected', data: { ...ref, reason: 'INSUFFICIENT_FUNDS', rejectedAt: NOW } }]);
    const state = given([requested, ...rejected]);
    expect(state.status).toBe('REJECTED');
    expect(errorCode(() => when(state, { type: 'RecordFundsHeld', holdId: 'h', now: NOW }))).toBe('INVALID_STATE_TRANSITION');
    expect(errorCode(() => when(given([requested, held]), { type: 'RejectTransferOut', reason: 'X', now: NOW }))).toBe('INVALID_STATE_TRANSITION');
  });

  it('completes or fails a PENDING transfer-out once; a failure records its refund', () => {
    const pending = given([requested, held]);
    expect(when(pending, { type: 'CompleteTransfer', now: NOW })).toEqual([{ type: 'TransferOutCompleted', data: { ...ref, completedAt: NOW } }]);
    const refund = { reference: 'Transaction:t:refund', initiatedAt: NOW, settledAt: NOW, status: 'COMPLETED' as const, reason: 'BANK_REJECTED' };
    const failed = when(pending, { type: 'FailTransfer', failureReason: 'BANK_REJECTED', refund, now: NOW });
    expect(failed).toEqual([{ type: 'TransferOutFailed', data: { ...ref, failureReason: 'BANK_REJECTED', refund, failedAt: NOW } }]);
    const done = given([requested, held, ...failed]);
    expect(when(done, { type: 'FailTransfer', failureReason: 'BANK_REJECTED', refund, now: NOW })).toEqual([]);
    expect(errorCode(() => when(done, { type: 'CompleteTransfer', now: NOW }))).toBe('INVALID_STATE_TRANSITION');
    expect(errorCode(() => when(pending, { type: 'FailTransfer', failureReason: 'X', refund: null, now: NOW }))).toBe('INTERNAL_ERROR');
  });

  it('cannot settle a transfer-out whose funds were never held', () => {
    expect(errorCode(() => when(given([requested]), { type: 'CompleteTransfer', now: NOW }))).toBe('INVALID_STATE_TRANSITION');
  });

  it('a transfer-in is PENDING from its request and completes or fails without a refund', () => {
    const inRequested: TransactionEvent = { type: 'TransferInRequested', data: { ...parties, requestedAt: NOW } };
    const pending = given([inRequested]);
    expect(pending.status).toBe('PENDING');
    expect(when(pending, { type: 'CompleteTransfer', now: NOW })).toEqual([{ type: 'TransferInCompleted', data: { ...ref, completedAt: NOW } }]);
    expect(when(pending, { type: 'FailTransfer', failureReason: 'ACCOUNT_CLOSED', refund: null, now: NOW })).toEqual([
      { type: 'TransferInFailed', data: { ...ref, failureReason: 'ACCOUNT_CLOSED', failedAt: NOW } },
    ]);
  });

  it('records sandbox funding once, completed', () => {
    const command: TransactionCommand = {
      type: 'RecordSandboxFunding', transactionId: 'Transaction:t', platformId: 'Platform:p', customerId: null, platformCustomerId: null,
      accountId: 'InternalAccount:a', currency: 'USD', amount: 5, now: NOW,
    };
    const events = when(given([]), command);
    expect(events).toHaveLength(1);
    expect(given(events).status).toBe('COMPLETED');
    expect(when(given(events), command)).toEqual([]);
  });
});
