import { Refund } from './refund';

/**
 * Events of a transfer's transaction stream (`transaction-<uuid>`): same-currency transfers out
 * of and into internal accounts, and sandbox funding. Every event carries `transactionId` and
 * `platformId`, which the `transactions` read model keys on.
 */
export type TransferParties = {
  transactionId: string;
  platformId: string;
  customerId: string | null;
  platformCustomerId: string | null;
  sourceAccountId: string;
  destinationAccountId: string;
  paymentRail: string | null;
  currency: string;
  amount: number;
  /** Last three characters of the external account's primary identifier (sandbox scenario). */
  counterpartySuffix: string | null;
  /**
   * Recorded since the reference's request fields were accepted (absent on older events):
   * whether the request named the rail, and a transfer-out's `remittanceInformation` and
   * `purposeOfPayment` when given.
   */
  railSelectionMode?: 'AUTO' | 'MANUAL';
  remittanceInformation?: string;
  purposeOfPayment?: string;
};

type Ref = {
  transactionId: string;
  platformId: string;
};

/** Recorded before any money moves; visible (PENDING) once the funds are held. */
export type TransferOutRequested = { type: 'TransferOutRequested'; data: TransferParties & { requestedAt: string } };
export type TransferOutFundsHeld = { type: 'TransferOutFundsHeld'; data: Ref & { holdId: string; heldAt: string } };
/** The hold was refused (INSUFFICIENT_FUNDS): the request answered 400, nothing moved. */
export type TransferOutRejected = { type: 'TransferOutRejected'; data: Ref & { reason: string; rejectedAt: string } };
export type TransferOutCompleted = { type: 'TransferOutCompleted'; data: Ref & { completedAt: string } };
/**
 * The payout failed: its refund starts (PENDING; older events recorded it COMPLETED at once, the
 * hold already released). The hold goes back when TransferOutRefundCompleted is recorded.
 */
export type TransferOutFailed = { type: 'TransferOutFailed'; data: Ref & { failureReason: string; refund: Refund; failedAt: string } };
/**
 * `POST /transactions/{id}/cancel` before settlement, its refund (reason USER_CANCELLATION)
 * PENDING; TransferOutRefundCompleted follows in the same commit, as the hold goes back to the
 * account (older events recorded the refund COMPLETED here). `reason` is the platform's own, if given.
 */
export type TransferOutCancelled = { type: 'TransferOutCancelled'; data: Ref & { reason: string | null; refund: Refund; cancelledAt: string } };
/** The refund ended: the hold went back to the account at `settledAt`. */
export type TransferOutRefundCompleted = { type: 'TransferOutRefundCompleted'; data: Ref & { settledAt: string } };

export type TransferInRequested = { type: 'TransferInRequested'; data: TransferParties & { requestedAt: string } };
export type TransferInCompleted = { type: 'TransferInCompleted'; data: Ref & { completedAt: string } };
export type TransferInFailed = { type: 'TransferInFailed'; data: Ref & { failureReason: string; failedAt: string } };
/**
 * `POST /transactions/{id}/cancel` of a pull still PENDING on a cancellable bank rail: nothing was
 * credited (a transfer-in is credited only once COMPLETED is recorded), so nothing goes back.
 */
export type TransferInCancelled = { type: 'TransferInCancelled'; data: Ref & { reason: string | null; cancelledAt: string } };

/**
 * `POST /transactions/{id}/confirm`: the platform delivered the receipt at `receiptDeliveryConfirmedAt`
 * (recorded at `confirmedAt`); a later confirmation replaces it.
 */
export type TransferReceiptConfirmed = { type: 'TransferReceiptConfirmed'; data: Ref & { receiptDeliveryConfirmedAt: string; confirmedAt: string } };

/** `POST /sandbox/internal-accounts/{id}/fund`: an incoming payment, completed at once. */
export type SandboxFundingCompleted = {
  type: 'SandboxFundingCompleted';
  data: Ref & {
    customerId: string | null;
    platformCustomerId: string | null;
    accountId: string;
    currency: string;
    amount: number;
    completedAt: string;
  };
};

export type TransactionEvent =
  | TransferOutRequested
  | TransferOutFundsHeld
  | TransferOutRejected
  | TransferOutCompleted
  | TransferOutFailed
  | TransferOutCancelled
  | TransferOutRefundCompleted
  | TransferInRequested
  | TransferInCompleted
  | TransferInFailed
  | TransferInCancelled
  | SandboxFundingCompleted
  | TransferReceiptConfirmed;

export const TRANSFER_EVENT_TYPES: TransactionEvent['type'][] = [
  'TransferOutRequested',
  'TransferOutFundsHeld',
  'TransferOutRejected',
  'TransferOutCompleted',
  'TransferOutFailed',
  'TransferOutCancelled',
  'TransferOutRefundCompleted',
  'TransferInRequested',
  'TransferInCompleted',
  'TransferInFailed',
  'TransferInCancelled',
  'SandboxFundingCompleted',
  'TransferReceiptConfirmed',
];
