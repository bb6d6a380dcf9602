/**
 * Events of one card transaction's stream (`cardTransaction-<uuid>`, id `CardTransaction:<uuid>`):
 * the authorization and everything the card network reconciles against it (clearings, advices,
 * returns, pull outcomes). docs/cards.md "Card transactions" tells the lifecycle. Every payload
 * carries the transaction id and the platform id (tenancy, audit), ISO date strings and integer
 * minor units. Never rename an event type: add a new one.
 *
 * Two units appear, always named: `*Cents` are the card's currency (USD cents, what the network
 * and `authorizedAmount` speak); `*Units` are minor units of the funding account's currency (what
 * the ledger moves: 1 cent = 1 USD unit = 10,000 units of a 6-decimal USD stablecoin).
 */

/** `status` of a CardTransaction (the reference's CardTransactionStatus). */
export const CARD_TRANSACTION_STATUSES = ['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'REFUNDED', 'EXCEPTION'] as const;
export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number];

/** The network message that opened the transaction (one per simulate operation that creates one). */
export type CardAuthorizationKind =
  | 'AUTHORIZATION'
  | 'FINANCIAL_AUTHORIZATION'
  | 'CREDIT_AUTHORIZATION'
  | 'CREDIT_AUTHORIZATION_ADVICE'
  | 'FINANCIAL_CREDIT_AUTHORIZATION'
  | 'BALANCE_INQUIRY';

/**
 * Why an authorization was declined. CARD_PAUSED and INSUFFICIENT_FUNDS are the reference's names
 * (the sandbox suffixes `003` and `002`); the others are ours.
 */
export type CardDeclineReason =
  | 'CARD_PAUSED'
  | 'CARD_CLOSED'
  | 'CARD_NOT_ACTIVE'
  | 'INSUFFICIENT_FUNDS'
  | 'SPEND_LIMIT_EXCEEDED'
  | 'FUNDING_SOURCE_UNAVAILABLE';

export type CardMerchant = { descriptor: string; mcc?: string; country?: string };

export type CardPullStatus = 'PENDING' | 'CONFIRMED' | 'FAILED';

/** A pull: money taken from the funding account for this transaction (the reference's pullSummary counts them). */
export type CardPull = { pullId: string; amountUnits: number; status: CardPullStatus };

/** What the sandbox decided the pull confirmation will say (fixed at authorization, so a replayed task answers the same). */
export type CardPullScenario = 'CONFIRM' | 'CONFIRM_LATE' | 'FAIL';

type CardTransactionRef = {
  transactionId: string;
  platformId: string;
  cardId: string;
};

/** An authorization the service refused: recorded for the audit history; no CardTransaction is shown. */
export interface CardAuthorizationDeclined {
  type: 'CardAuthorizationDeclined';
  data: CardTransactionRef & {
    customerId: string;
    issuerTransactionToken: string;
    kind: CardAuthorizationKind;
    amountCents: number;
    merchant: CardMerchant;
    reason: CardDeclineReason;
    declinedAt: string;
  };
}

/**
 * An approved authorization (or the approval half of a single-message one). A DEBIT holds
 * `amountUnits` on `accountId` under `holdId` (null for a financial authorization, which debits at
 * once in its clearing); a CREDIT holds nothing. `pull` is the funding pull this approval started
 * (null for credits). `delegatedKeyId` names the delegated key that signed the pull when the
 * funding account is an embedded wallet.
 */
export interface CardTransactionAuthorized {
  type: 'CardTransactionAuthorized';
  data: CardTransactionRef & {
    customerId: string;
    platformCustomerId: string;
    issuerTransactionToken: string;
    kind: CardAuthorizationKind;
    direction: 'DEBIT' | 'CREDIT';
    merchant: CardMerchant;
    amountCents: number;
    accountId: string;
    accountCurrency: string;
    holdId: string | null;
    amountUnits: number;
    pull: CardPull | null;
    pullScenario: CardPullScenario;
    delegatedKeyId: string | null;
    authorizedAt: string;
  };
}

/** The funding pull's confirmation arrived. FAILED moves the transaction to EXCEPTION. */
export interface CardPullConfirmed {
  type: 'CardPullConfirmed';
  data: CardTransactionRef & { pullId: string; confirmedAt: string };
}

export interface CardPullFailed {
  type: 'CardPullFailed';
  data: CardTransactionRef & { pullId: string; reason: string; failedAt: string };
}

/** An AUTHORIZATION_ADVICE re-sized the open authorization to a new total; the hold follows. */
export interface CardAuthorizationResized {
  type: 'CardAuthorizationResized';
  data: CardTransactionRef & {
    adviceId: string;
    issuerTransactionToken: string;
    previousAmountCents: number;
    amountCents: number;
    /** What the hold holds after the advice. */
    heldUnits: number;
    resizedAt: string;
  };
}

/**
 * A clearing posted. A DEBIT captures `capturedUnits` from the hold and, past the authorized
 * amount, pulls `postHocPull.amountUnits` more from the account (FAILED when the account is short:
 * the transaction goes to EXCEPTION). A CREDIT credits `creditedUnits`. `settled` says whether
 * every authorized cent is now cleared (SETTLED) or more clearings are expected (PARTIALLY_SETTLED).
 */
export interface CardTransactionCleared {
  type: 'CardTransactionCleared';
  data: CardTransactionRef & {
    clearingId: string;
    issuerTransactionToken: string;
    amountCents: number;
    capturedUnits: number;
    creditedUnits: number;
    postHocPull: CardPull | null;
    settled: boolean;
    clearedAt: string;
  };
}

/** A clearing of 0: the authorization expired; what was still held goes back to the account. */
export interface CardAuthorizationExpired {
  type: 'CardAuthorizationExpired';
  data: CardTransactionRef & { clearingId: string; issuerTransactionToken: string; releasedUnits: number; expiredAt: string };
}

/** A merchant RETURN: `amountCents` of the settled amount credited back to the account. */
export interface CardTransactionReturned {
  type: 'CardTransactionReturned';
  data: CardTransactionRef & { returnId: string; issuerTransactionToken: string; amountCents: number; creditedUnits: number; returnedAt: string };
}

/**
 * A RETURN_REVERSAL: the last return is taken back from the account (a pull; FAILED when the
 * account is short: EXCEPTION).
 */
export interface CardReturnReversed {
  type: 'CardReturnReversed';
  data: CardTransactionRef & {
    reversalId: string;
    returnId: string;
    issuerTransactionToken: string;
    amountCents: number;
    pull: CardPull;
    reversedAt: string;
  };
}

/**
 * An approved balance inquiry (a 0-amount authorization): what the card could spend then, summed
 * over its ACTIVE funding accounts in cents (rounded down). Moves no money; shows no CardTransaction.
 */
export interface CardBalanceInquiryAnswered {
  type: 'CardBalanceInquiryAnswered';
  data: CardTransactionRef & { customerId: string; issuerTransactionToken: string; merchant: CardMerchant; availableCents: number; answeredAt: string };
}

export type CardTransactionEvent =
  | CardAuthorizationDeclined
  | CardBalanceInquiryAnswered
  | CardTransactionAuthorized
  | CardPullConfirmed
  | CardPullFailed
  | CardAuthorizationResized
  | CardTransactionCleared
  | CardAuthorizationExpired
  | CardTransactionReturned
  | CardReturnReversed;

export const CARD_TRANSACTION_EVENT_TYPES: CardTransactionEvent['type'][] = [
  'CardAuthorizationDeclined',
  'CardBalanceInquiryAnswered',
  'CardTransactionAuthorized',
  'CardPullConfirmed',
  'CardPullFailed',
  'CardAuthorizationResized',
  'CardTransactionCleared',
  'CardAuthorizationExpired',
  'CardTransactionReturned',
  'CardReturnReversed',
];
