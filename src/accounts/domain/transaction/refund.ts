/**
 * The refund of a payment that failed or was cancelled, as its own lifecycle (the reference's
 * Refund): PENDING from the failure (`initiatedAt`, no `settledAt`), then COMPLETED once the money
 * is back with the payer (`settledAt`) or FAILED when it could not be returned (the money is
 * gone). The payment itself stays FAILED throughout: only the refund moves. Each step is an event
 * of the payment's stream and a `<KIND>.REFUND_<status>` webhook (account-webhooks.ts
 * refundWebhooks). Shared by every payment that refunds: transfers here, quotes and incoming
 * payments through the context's entry.
 */
export type RefundStatus = 'PENDING' | 'COMPLETED' | 'FAILED';

export type Refund = {
  reference: string;
  initiatedAt: string;
  settledAt: string | null;
  status: RefundStatus;
  /** Our reason; the wire narrows it to the reference's TRANSACTION_FAILED, USER_CANCELLATION or TIMEOUT. */
  reason: string;
};

/** Why a cancelled payment is refunded (the reference's Refund.reason). */
export const USER_CANCELLATION = 'USER_CANCELLATION';

/** A refund started at `now`, its reference derived from the transaction (as its ledger movement is). */
export function pendingRefund(transactionId: string, reason: string, now: string): Refund {
  return { reference: `${transactionId}:refund`, initiatedAt: now, settledAt: null, status: 'PENDING', reason };
}

/** The refund once the money is back with the payer. */
export function completedRefund(refund: Refund, settledAt: string): Refund {
  return { ...refund, status: 'COMPLETED', settledAt };
}
