import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { isCancellableRail } from './cancellable-rails';
import { RefundStatus, USER_CANCELLATION, pendingRefund } from './refund';
import { TransactionEvent, TransferParties } from './transaction.events';

export type TransferKind = 'TRANSFER_OUT' | 'TRANSFER_IN' | 'SANDBOX_FUNDING';
export type TransferStatus = 'REQUESTED' | 'PENDING' | 'REJECTED' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

export type TransactionState =
  | { status: 'none' }
  | (TransferParties & { status: TransferStatus; kind: TransferKind; holdId: string | null; refundStatus: RefundStatus | null });

export type TransactionCommand =
  | { type: 'RequestTransferOut'; parties: TransferParties; now: string }
  | { type: 'RecordFundsHeld'; holdId: string; now: string }
  | { type: 'RejectTransferOut'; reason: string; now: string }
  | { type: 'RequestTransferIn'; parties: TransferParties; now: string }
  | { type: 'CompleteTransfer'; now: string }
  | { type: 'FailTransfer'; failureReason: string; now: string }
  | { type: 'CancelTransfer'; reason: string | null; now: string }
  /** The hold went back to the account: the refund a failure started is COMPLETED. */
  | { type: 'CompleteRefund'; now: string }
  | { type: 'ConfirmReceipt'; receiptDeliveryConfirmedAt: string; now: string }
  | {
      type: 'RecordSandboxFunding';
      transactionId: string;
      platformId: string;
      customerId: string | null;
      platformCustomerId: string | null;
      accountId: string;
      currency: string;
      amount: number;
      now: string;
    };

function invalid(state: TransactionState, action: string): DomainError {
  return new DomainError('INVALID_STATE_TRANSITION', `Cannot ${action} a transaction in state ${state.status}`);
}

/**
 * Only a transfer-out on a cancellable bank rail (cancellable-rails.ts) whose funds are held and
 * that has not settled can be cancelled; a repeated cancel changes nothing. Nothing is in flight
 * (the payout never left), so its refund starts and completes in the same commit, as the caller
 * releases the hold.
 */
function decideCancel(state: TransactionState, command: { reason: string | null; now: string }): TransactionEvent[] {
  if (state.status === 'none') throw invalid(state, 'cancel');
  if (state.status === 'CANCELLED') return [];
  if (state.kind === 'SANDBOX_FUNDING' || !isCancellableRail(state.paymentRail)) {
    throw new DomainError('TRANSACTION_NOT_CANCELLABLE', 'Only a pending bank transfer (ACH push or pull, wire, SEPA, ...) can be cancelled', {
      reason: 'NOT_A_CANCELLABLE_BANK_TRANSFER',
      paymentRail: state.paymentRail,
    });
  }
  if (state.status !== 'PENDING') {
    throw new DomainError('TRANSACTION_NOT_CANCELLABLE', 'The transfer is past the point where it can be cancelled', { reason: 'NOT_PENDING', status: state.status });
  }
  const ref = { transactionId: state.transactionId, platformId: state.platformId };
  // A pull is credited only after COMPLETED is recorded: cancelled before, nothing moved.
  if (state.kind === 'TRANSFER_IN') return [{ type: 'TransferInCancelled', data: { ...ref, reason: command.reason, cancelledAt: command.now } }];
  const refund = pendingRefund(state.transactionId, USER_CANCELLATION, command.now);
  return [
    { type: 'TransferOutCancelled', data: { ...ref, reason: command.reason, refund, cancelledAt: command.now } },
    { type: 'TransferOutRefundCompleted', data: { ...ref, settledAt: command.now } },
  ];
}

/**
 * A same-currency transfer. Transfer-out: REQUESTED -> (funds held) PENDING -> COMPLETED or
 * FAILED, PENDING -> CANCELLED (`POST /transactions/{id}/cancel` on a cancellable bank rail), or
 * REQUESTED -> REJECTED when the hold is refused. FAILED and CANCELLED start a refund (PENDING)
 * that CompleteRefund ends once the hold is back (refund.ts). Transfer-in: PENDING ->
 * COMPLETED (then credited) or FAILED, or CANCELLED on a cancellable bank rail (nothing credited). Sandbox funding is COMPLETED from its first event. Repeating a
 * step already taken is a no-op, so process-manager retries are safe.
 */
export const transactionDecider: Decider<TransactionCommand, TransactionState, TransactionEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'RequestTransferOut':
        if (state.status !== 'none') return [];
        return [{ type: 'TransferOutRequested', data: { ...command.parties, requestedAt: command.now } }];

      case 'RequestTransferIn':
        if (state.status !== 'none') return [];
        return [{ type: 'TransferInRequested', data: { ...command.parties, requestedAt: command.now } }];

      case 'RecordSandboxFunding':
        if (state.status !== 'none') return [];
        return [
          {
            type: 'SandboxFundingCompleted',
            data: {
              transactionId: command.transactionId,
              platformId: command.platformId,
              customerId: command.customerId,
              platformCustomerId: command.platformCustomerId,
              accountId: command.accountId,
              currency: command.currency,
              amount: command.amount,
              completedAt: command.now,
            },
          },
        ];

      case 'RecordFundsHeld':
        if (state.status === 'PENDING' || state.status === 'COMPLETED' || state.status === 'FAILED' || state.status === 'CANCELLED') return [];
        if (state.status !== 'REQUESTED') throw invalid(state, 'hold funds for');
        return [{ type: 'TransferOutFundsHeld', data: { transactionId: state.transactionId, platformId: state.platformId, holdId: command.holdId, heldAt: command.now } }];

      case 'RejectTransferOut':
        if (state.status === 'REJECTED') return [];
        if (state.status !== 'REQUESTED') throw invalid(state, 'reject');
        return [{ type: 'TransferOutRejected', data: { transactionId: state.transactionId, platformId: state.platformId, reason: command.reason, rejectedAt: command.now } }];

      case 'CompleteTransfer': {
        if (state.status === 'COMPLETED') return [];
        if (state.status !== 'PENDING') throw invalid(state, 'complete');
        const ref = { transactionId: state.transactionId, platformId: state.platformId };
        return state.kind === 'TRANSFER_OUT'
          ? [{ type: 'TransferOutCompleted', data: { ...ref, completedAt: command.now } }]
          : [{ type: 'TransferInCompleted', data: { ...ref, completedAt: command.now } }];
      }

      case 'FailTransfer': {
        if (state.status === 'FAILED') return [];
        if (state.status !== 'PENDING') throw invalid(state, 'fail');
        const ref = { transactionId: state.transactionId, platformId: state.platformId };
        if (state.kind === 'TRANSFER_OUT') {
          const refund = pendingRefund(state.transactionId, command.failureReason, command.now);
          return [{ type: 'TransferOutFailed', data: { ...ref, failureReason: command.failureReason, refund, failedAt: command.now } }];
        }
        return [{ type: 'TransferInFailed', data: { ...ref, failureReason: command.failureReason, failedAt: command.now } }];
      }

      case 'CancelTransfer':
        return decideCancel(state, command);

      case 'CompleteRefund':
        if (state.status === 'none' || state.refundStatus === null) throw invalid(state, 'complete the refund of');
        if (state.refundStatus !== 'PENDING') return [];
        return [{ type: 'TransferOutRefundCompleted', data: { transactionId: state.transactionId, platformId: state.platformId, settledAt: command.now } }];

      case 'ConfirmReceipt':
        if (state.status === 'none') throw invalid(state, 'confirm the receipt of');
        return [
          {
            type: 'TransferReceiptConfirmed',
            data: { transactionId: state.transactionId, platformId: state.platformId, receiptDeliveryConfirmedAt: command.receiptDeliveryConfirmedAt, confirmedAt: command.now },
          },
        ];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'TransferOutRequested': {
        const { requestedAt: _requestedAt, ...parties } = event.data;
        return { ...parties, status: 'REQUESTED', kind: 'TRANSFER_OUT', holdId: null, refundStatus: null };
      }
      case 'TransferInRequested': {
        const { requestedAt: _requestedAt, ...parties } = event.data;
        return { ...parties, status: 'PENDING', kind: 'TRANSFER_IN', holdId: null, refundStatus: null };
      }
      case 'SandboxFundingCompleted':
        return {
          transactionId: event.data.transactionId,
          platformId: event.data.platformId,
          customerId: event.data.customerId,
          platformCustomerId: event.data.platformCustomerId,
          sourceAccountId: event.data.accountId,
          destinationAccountId: event.data.accountId,
          paymentRail: null,
          currency: event.data.currency,
          amount: event.data.amount,
          counterpartySuffix: null,
          status: 'COMPLETED',
          kind: 'SANDBOX_FUNDING',
          holdId: null,
          refundStatus: null,
        };
      case 'TransferOutFundsHeld':
        return state.status === 'none' ? state : { ...state, status: 'PENDING', holdId: event.data.holdId };
      case 'TransferOutRejected':
        return state.status === 'none' ? state : { ...state, status: 'REJECTED' };
      case 'TransferOutCompleted':
      case 'TransferInCompleted':
        return state.status === 'none' ? state : { ...state, status: 'COMPLETED' };
      case 'TransferOutFailed':
        return state.status === 'none' ? state : { ...state, status: 'FAILED', refundStatus: event.data.refund.status };
      case 'TransferInFailed':
        return state.status === 'none' ? state : { ...state, status: 'FAILED' };
      case 'TransferInCancelled':
        return state.status === 'none' ? state : { ...state, status: 'CANCELLED' };
      case 'TransferOutCancelled':
        return state.status === 'none' ? state : { ...state, status: 'CANCELLED', refundStatus: event.data.refund.status };
      case 'TransferOutRefundCompleted':
        return state.status === 'none' ? state : { ...state, refundStatus: 'COMPLETED' };
      case 'TransferReceiptConfirmed':
        return state;
    }
  },
};
