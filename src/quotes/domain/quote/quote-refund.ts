import { DomainError } from '../../../infra/domain/domain-error';
import { QuoteEvent, QuoteRefund, QuoteRefundCompleted, QuoteRefundFailed } from './quote.events';

/**
 * The refund of a failed payout as its own lifecycle (the reference's Refund). The failure starts
 * it PENDING (`initiatedAt`, no `settledAt`) and the money stays where the failure left it (held,
 * or gone with a returned payout); `SettleRefund` ends it once, COMPLETED (`settledAt`: the money
 * is back with the payer) or FAILED (the money is gone). A refund that has ended is not settled
 * again, so a repeated task changes nothing.
 */
export type RefundCommand = { type: 'SettleRefund'; outcome: 'COMPLETED' | 'FAILED'; now: string };

/** What the refund decision reads of a quote. */
interface RefundFacts {
  status: string;
  quoteId: string;
  transactionId: string;
  platformId: string;
  refund?: QuoteRefund | null;
}

/** A refund started at `now`; its reference is derived from the transaction, like its ledger movement. */
export function pendingRefund(transactionId: string, reason: string, now: string): QuoteRefund {
  return { reference: `${transactionId}:refund`, initiatedAt: now, settledAt: null, status: 'PENDING', reason };
}

export function decideRefund(command: RefundCommand, state: RefundFacts): QuoteEvent[] {
  const refund = state.status === 'FAILED' ? state.refund : null;
  if (!refund) throw new DomainError('INVALID_STATE_TRANSITION', `Cannot settle a refund of a quote in state ${state.status} that has none`);
  if (refund.status !== 'PENDING') return [];
  const ref = { quoteId: state.quoteId, transactionId: state.transactionId, platformId: state.platformId };
  return command.outcome === 'COMPLETED'
    ? [{ type: 'QuoteRefundCompleted', data: { ...ref, settledAt: command.now } }]
    : [{ type: 'QuoteRefundFailed', data: { ...ref, failedAt: command.now } }];
}

/** The refund once `event` ended it. */
export function endedRefund(refund: QuoteRefund, event: QuoteRefundCompleted | QuoteRefundFailed): QuoteRefund {
  return event.type === 'QuoteRefundCompleted' ? { ...refund, status: 'COMPLETED', settledAt: event.data.settledAt } : { ...refund, status: 'FAILED' };
}
