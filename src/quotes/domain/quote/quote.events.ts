/**
 * Events of a quote's stream (`quote-<uuid>`). Every event carries `quoteId`, `transactionId` and
 * `platformId`: the quote is also the outgoing transaction behind it, and the `transactions`
 * read model keys on `transactionId`. Amounts are integer minor units, times ISO strings.
 */

/** The source as the Quote resource shows it (SPEC.md "Source variants"). */
export type QuoteSource =
  | { sourceType: 'ACCOUNT'; accountId: string; customerId?: string }
  | { sourceType: 'REALTIME_FUNDING'; currency: string; customerId?: string; cryptoNetwork?: string };

/** The destination as the Quote resource shows it (rail and currency resolved). */
export type QuoteDestination =
  | { destinationType: 'ACCOUNT'; accountId: string; paymentRail: string }
  | { destinationType: 'UMA_ADDRESS'; umaAddress: string; currency: string };

export interface RateDetails {
  counterpartyMultiplier: number;
  counterpartyFixedFee: number;
  gridApiMultiplier: number;
  gridApiFixedFee: number;
  gridApiVariableFeeRate: number;
  gridApiVariableFeeAmount: number;
}

export interface PaymentInstructionsRecord {
  accountOrWalletInfo: Record<string, unknown> & { accountType: string };
  instructionsNotes?: string;
  isPlatformAccount?: boolean;
}

/**
 * What settlement needs to know about the money's path, fixed at creation so later changes to
 * the accounts (a deleted external account) cannot change how a quote settles.
 */
export interface QuoteFunding {
  /** The internal account that pays (ACCOUNT sources), or null for REALTIME_FUNDING. */
  sourceAccountId: string | null;
  /** `INTERNAL_FIAT`, `INTERNAL_CRYPTO` or `EMBEDDED_WALLET` for ACCOUNT sources. */
  sourceAccountType: string | null;
  /** The internal account credited at completion when the destination is internal. */
  destinationInternalAccountId: string | null;
  /** The sandbox scenario (quote-scenarios.ts) and the identifier suffix that chose it. */
  scenario: string;
  scenarioSuffix: string | null;
}

export type QuoteTerms = {
  quoteId: string;
  transactionId: string;
  platformId: string;
  /** On whose behalf (null: the platform itself). */
  customerId: string | null;
  platformCustomerId: string | null;
  source: QuoteSource;
  destination: QuoteDestination;
  sendingCurrency: string;
  receivingCurrency: string;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  /** Exact decimal text of `exchangeRate` (the resource shows it as a JSON number). */
  exchangeRate: string;
  feesIncluded: number;
  platformFeesIncluded: number;
  rateDetails: RateDetails;
  /** The rate snapshot the quote locked (`rates-<bucket>`). */
  rateSnapshotId: string;
  lockedCurrencySide: 'SENDING' | 'RECEIVING';
  lockedCurrencyAmount: number;
  paymentRail: string;
  /** REALTIME_FUNDING instructions, or the EMBEDDED_WALLET `payloadToSign`; null otherwise. */
  paymentInstructions: PaymentInstructionsRecord[] | null;
  counterpartyInformation: Record<string, unknown> | null;
  description: string | null;
  /*
   * What travels with the payment (issue 20); absent on quotes created before. None of them is
   * shown on the Quote or its transaction (the contract shows them nowhere): settlement's.
   */
  /** Free text for the recipient (ACH addenda, RTP/FedNow remittance information, wire OBI). */
  remittanceInformation?: string | null;
  /** The contract's PurposeOfPayment. */
  purposeOfPayment?: string | null;
  /** Sender facts the destination asked for, as the platform sent them. */
  senderCustomerInfo?: Record<string, unknown> | null;
  /** The per-quote platform fee that replaced the configured one (`platformFeesIncluded` is priced with it). */
  platformFeeOverride?: { fixedFee: number; currency: string; variableFeeBps: number } | null;
  funding: QuoteFunding;
  createdAt: string;
  expiresAt: string;
};

type Ref = { quoteId: string; transactionId: string; platformId: string };

export type QuoteCreated = { type: 'QuoteCreated'; data: QuoteTerms };

/**
 * Execute won the quote (appended at the revision it read, so concurrent executes give one
 * winner). No money has moved yet; `holdId` is the ledger hold this attempt places.
 */
export type QuoteExecutionRequested = {
  type: 'QuoteExecutionRequested';
  data: Ref & { attempt: number; holdId: string; sourceAccountId: string; amount: number; scaFactor: string | null; requestedAt: string };
};

/** The hold was refused (INSUFFICIENT_FUNDS): the quote is PENDING again, nothing moved. */
export type QuoteExecutionRejected = {
  type: 'QuoteExecutionRejected';
  data: Ref & { attempt: number; holdId: string; reason: string; rejectedAt: string };
};

/** The sending amount is held on the source account: the transfer is initiated (PROCESSING). */
export type QuoteFundsHeld = {
  type: 'QuoteFundsHeld';
  data: Ref & { attempt: number; holdId: string; heldAt: string };
};

/** A REALTIME_FUNDING quote received its payment (`POST /sandbox/send`): PROCESSING. */
export type QuoteFunded = {
  type: 'QuoteFunded';
  data: Ref & { currencyCode: string; amount: number; fundedAt: string };
};

export type QuoteExpired = { type: 'QuoteExpired'; data: Ref & { expiredAt: string } };

/**
 * The refund of a failed payout (the reference's Refund): PENDING from the failure (QuoteFailed),
 * then COMPLETED with `settledAt` (QuoteRefundCompleted: the money is back with the payer) or
 * FAILED (QuoteRefundFailed: the money is gone). Quotes failed before refunds had their own events
 * recorded the refund already COMPLETED or FAILED in QuoteFailed.
 */
export interface QuoteRefund {
  reference: string;
  initiatedAt: string;
  settledAt: string | null;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  reason: string;
}

/** Settlement step `step` (0-based, quote-scenarios.ts) completed the payout. */
export type QuoteCompleted = { type: 'QuoteCompleted'; data: Ref & { step: number; completedAt: string } };

/** Settlement step `step` failed the payout (or returned it after COMPLETED), starting its refund. */
export type QuoteFailed = {
  type: 'QuoteFailed';
  data: Ref & {
    step: number;
    failureReason: string;
    refund: QuoteRefund | null;
    failedAt: string;
    /** Present when the platform cancelled the payment (`POST /transactions/{id}/cancel`), with its reason. */
    cancellation?: { reason: string | null };
  };
};

/** The refund ended: the money is back with the payer (the hold released, or the return credited). */
export type QuoteRefundCompleted = { type: 'QuoteRefundCompleted'; data: Ref & { settledAt: string } };

/** The refund ended unpaid: the money is gone (the hold settled). */
export type QuoteRefundFailed = { type: 'QuoteRefundFailed'; data: Ref & { failedAt: string } };

/**
 * `POST /transactions/{id}/confirm`: the platform delivered the receipt at `receiptDeliveryConfirmedAt`
 * (recorded at `confirmedAt`); a later confirmation replaces it. Changes nothing of the quote.
 */
export type QuoteReceiptConfirmed = { type: 'QuoteReceiptConfirmed'; data: Ref & { receiptDeliveryConfirmedAt: string; confirmedAt: string } };

/**
 * The SCA challenge a PENDING_AUTHORIZATION quote shows (SPEC.md "ScaChallenge"), as the SCA
 * context issued it; quotes only store and show it.
 */
export interface QuoteScaChallenge {
  id: string;
  expiresAt: string;
  factor: string;
  availableFactors: string[];
  purpose?: string;
  passkeyAssertionOptions?: Record<string, unknown>;
}

/**
 * Execute (or, for REALTIME_FUNDING, creation) for a customer in an SCA region: nothing moves
 * until the challenges of `sequenceId` are satisfied. `scaPlan` is the SCA context's plan of that
 * sequence (opaque here), kept so the sequence can be opened again after a crash.
 */
export type QuoteAuthorizationRequested = {
  type: 'QuoteAuthorizationRequested';
  data: Ref & { sequenceId: string; scaFactor: string; scaChallenge: QuoteScaChallenge; scaPlan: Record<string, unknown>; requestedAt: string };
};

/** The next challenge of the sequence (a cross-currency send has two). */
export type QuoteScaChallengeIssued = {
  type: 'QuoteScaChallengeIssued';
  data: Ref & { sequenceId: string; scaChallenge: QuoteScaChallenge; issuedAt: string };
};

/**
 * Every challenge was satisfied: the transfer is released. A prefunded quote records its
 * QuoteExecutionRequested with it; a REALTIME_FUNDING quote is PENDING again, instructions shown.
 */
export type QuoteAuthorized = { type: 'QuoteAuthorized'; data: Ref & { sequenceId: string; authorizedAt: string } };

/** A challenge expired unsatisfied: FAILED with `failureReason` (`SCA_NOT_COMPLETED`), nothing moved. */
export type QuoteAuthorizationFailed = {
  type: 'QuoteAuthorizationFailed';
  data: Ref & { sequenceId: string; failureReason: string; failedAt: string };
};

export type QuoteEvent =
  | QuoteCreated
  | QuoteAuthorizationRequested
  | QuoteScaChallengeIssued
  | QuoteAuthorized
  | QuoteAuthorizationFailed
  | QuoteExecutionRequested
  | QuoteExecutionRejected
  | QuoteFundsHeld
  | QuoteFunded
  | QuoteExpired
  | QuoteCompleted
  | QuoteFailed
  | QuoteRefundCompleted
  | QuoteRefundFailed
  | QuoteReceiptConfirmed;

export const QUOTE_EVENT_TYPES: QuoteEvent['type'][] = [
  'QuoteCreated',
  'QuoteAuthorizationRequested',
  'QuoteScaChallengeIssued',
  'QuoteAuthorized',
  'QuoteAuthorizationFailed',
  'QuoteExecutionRequested',
  'QuoteExecutionRejected',
  'QuoteFundsHeld',
  'QuoteFunded',
  'QuoteExpired',
  'QuoteCompleted',
  'QuoteFailed',
  'QuoteRefundCompleted',
  'QuoteRefundFailed',
  'QuoteReceiptConfirmed',
];
