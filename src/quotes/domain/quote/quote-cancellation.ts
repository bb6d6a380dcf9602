import { DomainError } from '../../../infra/domain/domain-error';
import { pendingRefund } from './quote-refund';
import { QuoteEvent, QuoteRefund } from './quote.events';

/**
 * `POST /transactions/{id}/cancel` and `/confirm` on the payment behind a quote. A payout on a
 * cancellable bank rail (ACH, wire, ...; the caller says whether the quote's rail is one) that is
 * PROCESSING from a held account balance, before its first settlement step, fails at that step as
 * cancelled: `QuoteFailed` at step 0 with the hold's refund (reason USER_CANCELLATION), the same
 * record a cancellation at the partner leaves (sandbox scenario 006), marked `cancellation`. The
 * payout never left, so nothing is in flight: the refund starts and completes in the same commit
 * (`QuoteRefundCompleted` with it; the caller releases the hold in that commit), and the refund's
 * webhooks follow the failure's as for any other refund.
 * Anything else is 409 TRANSACTION_NOT_CANCELLABLE; a cancelled quote answers as it is.
 */
export type CancellationCommand =
  | { type: 'Cancel'; cancellableRail: boolean; reason: string | null; now: string }
  | { type: 'ConfirmReceipt'; receiptDeliveryConfirmedAt: string; now: string };

/** What cancellation reads of a quote. */
interface QuoteFacts {
  status: string;
  quoteId: string;
  transactionId: string;
  platformId: string;
  paymentRail: string;
  execution?: { holdId: string } | null;
  stepsApplied?: number;
  processingAt?: string | null;
  refund?: QuoteRefund | null;
}

const CANCELLED_REFUND_REASON = 'USER_CANCELLATION';

export function decideCancellation(command: CancellationCommand, state: QuoteFacts): QuoteEvent[] {
  const ref = { quoteId: state.quoteId, transactionId: state.transactionId, platformId: state.platformId };
  if (command.type === 'ConfirmReceipt') {
    return [{ type: 'QuoteReceiptConfirmed', data: { ...ref, receiptDeliveryConfirmedAt: command.receiptDeliveryConfirmedAt, confirmedAt: command.now } }];
  }
  if (state.status === 'FAILED' && state.refund?.reason === CANCELLED_REFUND_REASON) return [];
  if (!command.cancellableRail || !state.execution) {
    throw new DomainError('TRANSACTION_NOT_CANCELLABLE', 'Only a pending bank transfer (ACH, wire, SEPA, ...) funded from an account can be cancelled', {
      reason: 'NOT_A_CANCELLABLE_BANK_TRANSFER',
      paymentRail: state.paymentRail,
    });
  }
  if (state.status !== 'PROCESSING' || state.stepsApplied !== 0 || !state.processingAt) {
    throw new DomainError('TRANSACTION_NOT_CANCELLABLE', 'The payment is past the point where it can be cancelled', { reason: 'NOT_PENDING', status: state.status });
  }
  const refund = pendingRefund(state.transactionId, CANCELLED_REFUND_REASON, command.now);
  return [
    {
      type: 'QuoteFailed',
      data: { ...ref, step: 0, failureReason: 'QUOTE_EXECUTION_FAILED', refund, failedAt: command.now, cancellation: { reason: command.reason } },
    },
    { type: 'QuoteRefundCompleted', data: { ...ref, settledAt: command.now } },
  ];
}
