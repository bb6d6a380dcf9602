import { deciderSpec } from '../../../../test/support/decider-spec';
import { TransactionCommand, transactionDecider } from './transaction.decider';
import { TransactionEvent, TransferParties } from './transaction.events';

const NOW = '2025-10-13T12:00:00.000Z';
const LATER = '2025-10-13T12:00:01.000Z';
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

const spec = deciderSpec(transactionDecider);

describe('transfer transaction decider', () => {
  it('requests a transfer-out once', () => {
    spec.given([]).when({ type: 'RequestTransferOut', parties, now: NOW }).then([requested]);
    spec.given([requested]).when({ type: 'RequestTransferOut', parties, now: NOW }).then([]);
  });

  it('goes REQUESTED -> PENDING when the funds are held, idempotently', () => {
    spec.given([requested]).when({ type: 'RecordFundsHeld', holdId: 'Transaction:t', now: NOW }).then([held]);
    expect(spec.state([requested, held]).status).toBe('PENDING');
    spec.given([requested, held]).when({ type: 'RecordFundsHeld', holdId: 'Transaction:t', now: NOW }).then([]);
  });

  it('goes REQUESTED -> REJECTED when the hold is refused, and cannot be held afterwards', () => {
    const rejection = spec.given([requested]).when({ type: 'RejectTransferOut', reason: 'INSUFFICIENT_FUNDS', now: NOW });
    rejection.then([{ type: 'TransferOutRejected', data: { ...ref, reason: 'INSUFFICIENT_FUNDS', rejectedAt: NOW } }]);
    const rejected = spec.given([requested, ...rejection.events]);
    expect(rejected.state.status).toBe('REJECTED');
    rejected.when({ type: 'RecordFundsHeld', holdId: 'h', now: NOW }).thenError('INVALID_STATE_TRANSITION');
    spec.given([requested, held]).when({ type: 'RejectTransferOut', reason: 'X', now: NOW }).thenError('INVALID_STATE_TRANSITION');
  });

  it('completes or fails a PENDING transfer-out once; a failure starts its refund PENDING', () => {
    const pending = spec.given([requested, held]);
    pending.when({ type: 'CompleteTransfer', now: NOW }).then([{ type: 'TransferOutCompleted', data: { ...ref, completedAt: NOW } }]);
    const refund = { reference: 'Transaction:t:refund', initiatedAt: NOW, settledAt: null, status: 'PENDING' as const, reason: 'BANK_REJECTED' };
    const failure = pending.when({ type: 'FailTransfer', failureReason: 'BANK_REJECTED', now: NOW });
    failure.then([{ type: 'TransferOutFailed', data: { ...ref, failureReason: 'BANK_REJECTED', refund, failedAt: NOW } }]);
    const done = spec.given([requested, held, ...failure.events]);
    expect(done.state).toMatchObject({ status: 'FAILED', refundStatus: 'PENDING' });
    done.when({ type: 'FailTransfer', failureReason: 'BANK_REJECTED', now: NOW }).then([]);
    done.when({ type: 'CompleteTransfer', now: NOW }).thenError('INVALID_STATE_TRANSITION');
    pending.when({ type: 'CompleteRefund', now: NOW }).thenError('INVALID_STATE_TRANSITION');
  });

  it('completes the refund a failure started once (the hold is back); the transfer stays FAILED', () => {
    const failed: TransactionEvent = {
      type: 'TransferOutFailed',
      data: { ...ref, failureReason: 'BANK_REJECTED', failedAt: NOW, refund: { reference: 'Transaction:t:refund', initiatedAt: NOW, settledAt: null, status: 'PENDING', reason: 'BANK_REJECTED' } },
    };
    const refunded: TransactionEvent = { type: 'TransferOutRefundCompleted', data: { ...ref, settledAt: LATER } };
    spec.given([requested, held, failed]).when({ type: 'CompleteRefund', now: LATER }).then([refunded]);
    const done = spec.given([requested, held, failed, refunded]);
    expect(done.state).toMatchObject({ status: 'FAILED', refundStatus: 'COMPLETED' });
    done.when({ type: 'CompleteRefund', now: LATER }).then([]);
    // A failure recorded before refunds had their own step carries it COMPLETED already.
    const legacy: TransactionEvent = { ...failed, data: { ...failed.data, refund: { ...failed.data.refund, settledAt: NOW, status: 'COMPLETED' } } } as TransactionEvent;
    spec.given([requested, held, legacy]).when({ type: 'CompleteRefund', now: LATER }).then([]);
  });

  it('cannot settle a transfer-out whose funds were never held', () => {
    spec.given([requested]).when({ type: 'CompleteTransfer', now: NOW }).thenError('INVALID_STATE_TRANSITION');
  });

  it('a transfer-in is PENDING from its request and completes or fails without a refund', () => {
    const inRequested: TransactionEvent = { type: 'TransferInRequested', data: { ...parties, requestedAt: NOW } };
    const pending = spec.given([inRequested]);
    expect(pending.state.status).toBe('PENDING');
    pending.when({ type: 'CompleteTransfer', now: NOW }).then([{ type: 'TransferInCompleted', data: { ...ref, completedAt: NOW } }]);
    pending.when({ type: 'FailTransfer', failureReason: 'ACCOUNT_CLOSED', now: NOW }).then([
      { type: 'TransferInFailed', data: { ...ref, failureReason: 'ACCOUNT_CLOSED', failedAt: NOW } },
    ]);
  });

  it('cancels a PENDING transfer-out on a cancellable bank rail once, its refund (USER_CANCELLATION) started and completed at once', () => {
    const refund = { reference: 'Transaction:t:refund', initiatedAt: NOW, settledAt: null, status: 'PENDING' as const, reason: 'USER_CANCELLATION' };
    const cancelled: TransactionEvent = { type: 'TransferOutCancelled', data: { ...ref, reason: 'REQUESTED_AFTER_HOURS', refund, cancelledAt: NOW } };
    const refunded: TransactionEvent = { type: 'TransferOutRefundCompleted', data: { ...ref, settledAt: NOW } };
    spec.given([requested, held]).when({ type: 'CancelTransfer', reason: 'REQUESTED_AFTER_HOURS', now: NOW }).then([cancelled, refunded]);
    const done = spec.given([requested, held, cancelled, refunded]);
    expect(done.state).toMatchObject({ status: 'CANCELLED', refundStatus: 'COMPLETED' });
    done.when({ type: 'CancelTransfer', reason: null, now: NOW }).then([]);
    done.when({ type: 'CompleteRefund', now: NOW }).then([]);
    // The settlement finds nothing to settle; a late hold record changes nothing.
    done.when({ type: 'CompleteTransfer', now: NOW }).thenError('INVALID_STATE_TRANSITION');
    done.when({ type: 'RecordFundsHeld', holdId: 'Transaction:t', now: NOW }).then([]);
  });

  it('cancels a PENDING transfer-in (a pull) on a cancellable bank rail: nothing credited, so nothing refunded; not once COMPLETED', () => {
    const pull: TransactionEvent = { type: 'TransferInRequested', data: { ...parties, requestedAt: NOW } };
    const cancelled: TransactionEvent = { type: 'TransferInCancelled', data: { ...ref, reason: null, cancelledAt: NOW } };
    spec.given([pull]).when({ type: 'CancelTransfer', reason: null, now: NOW }).then([cancelled]);
    const done = spec.given([pull, cancelled]);
    expect(done.state).toMatchObject({ status: 'CANCELLED' });
    done.when({ type: 'CancelTransfer', reason: null, now: NOW }).then([]);
    // The settlement records COMPLETED before it credits: after a cancel it cannot.
    done.when({ type: 'CompleteTransfer', now: NOW }).thenError('INVALID_STATE_TRANSITION');
    const completed: TransactionEvent = { type: 'TransferInCompleted', data: { ...ref, completedAt: NOW } };
    spec.given([pull, completed]).when({ type: 'CancelTransfer', reason: null, now: NOW }).thenError('TRANSACTION_NOT_CANCELLABLE');
    const instant: TransactionEvent = { type: 'TransferInRequested', data: { ...parties, paymentRail: 'RTP', requestedAt: NOW } };
    spec.given([instant]).when({ type: 'CancelTransfer', reason: null, now: NOW }).thenError('TRANSACTION_NOT_CANCELLABLE');
  });

  it('refuses to cancel a settled transfer, one not yet held and an instant rail: TRANSACTION_NOT_CANCELLABLE', () => {
    const completed: TransactionEvent = { type: 'TransferOutCompleted', data: { ...ref, completedAt: NOW } };
    const cancel = { type: 'CancelTransfer' as const, reason: null, now: NOW };
    spec.given([requested, held, completed]).when(cancel).thenError('TRANSACTION_NOT_CANCELLABLE');
    spec.given([requested]).when(cancel).thenError('TRANSACTION_NOT_CANCELLABLE');
    const rtp: TransactionEvent = { type: 'TransferOutRequested', data: { ...parties, paymentRail: 'RTP', requestedAt: NOW } };
    spec.given([rtp, held]).when(cancel).thenError('TRANSACTION_NOT_CANCELLABLE');
    spec.given([]).when(cancel).thenError('INVALID_STATE_TRANSITION');
  });

  it('confirms the receipt in any status, again with the new time', () => {
    const confirm = (at: string) => ({ type: 'ConfirmReceipt' as const, receiptDeliveryConfirmedAt: at, now: NOW });
    const confirmed = (at: string): TransactionEvent => ({ type: 'TransferReceiptConfirmed', data: { ...ref, receiptDeliveryConfirmedAt: at, confirmedAt: NOW } });
    spec.given([requested, held]).when(confirm('2025-10-13T11:00:00.000Z')).then([confirmed('2025-10-13T11:00:00.000Z')]);
    const again = spec.given([requested, held, confirmed('2025-10-13T11:00:00.000Z')]);
    again.when(confirm('2025-10-13T11:30:00.000Z')).then([confirmed('2025-10-13T11:30:00.000Z')]);
    expect(again.state.status).toBe('PENDING');
    spec.given([]).when(confirm(NOW)).thenError('INVALID_STATE_TRANSITION');
  });

  it('records sandbox funding once, completed', () => {
    const command: TransactionCommand = {
      type: 'RecordSandboxFunding', transactionId: 'Transaction:t', platformId: 'Platform:p', customerId: null, platformCustomerId: null,
      accountId: 'InternalAccount:a', currency: 'USD', amount: 5, now: NOW,
    };
    const { events } = spec.given([]).when(command);
    expect(events).toHaveLength(1);
    expect(spec.state(events).status).toBe('COMPLETED');
    spec.given(events).when(command).then([]);
  });
});
