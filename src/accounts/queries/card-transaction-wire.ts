import { CurrencyAmount } from './internal-account.view';

/** The statuses of a card transaction (docs/cards.md "Card transactions on the wire"); `GET /transactions?status=` takes them too. */
export const CARD_TRANSACTION_STATUS_FILTERS = ['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'REFUNDED', 'EXCEPTION'] as const;
export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUS_FILTERS)[number];

export interface CardMerchant {
  descriptor: string;
  /** Merchant Category Code: four digits. */
  mcc?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
}

/** The pulls (debits) from the funding account for the transaction. */
export interface CardPullSummary {
  count: number;
  /** Minor units of the funding account's currency; a FAILED pull took nothing and adds nothing. */
  totalAmount: number;
  pendingCount: number;
}

/** The merchant's returns received for the transaction. */
export interface CardRefundSummary {
  count: number;
  /** Minor units of the funding account's currency. */
  totalAmount: number;
}

/** The clearings posted against the transaction. */
export interface CardSettlementSummary {
  count: number;
  /** Minor units of the funding account's currency. */
  totalAmount: number;
}

/**
 * A card transaction as `GET /transactions` shows it, next to the payments (the reference's
 * CardTransaction, the `CARD` branch of TransactionOneOf). The cards context builds it
 * (src/cards/queries/card-transaction.view.ts) and stores it in the `transactions` read model
 * already in this shape; this context only declares it, since the cards context depends on this
 * one and not the other way round. Absent optional fields are left out, never null.
 *
 * @example
 * {
 *   "type": "CARD",
 *   "id": "CardTransaction:019a4a1c-2b3d-7e4f-8a5b-6c7d8e9f0a1b",
 *   "cardId": "Card:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58",
 *   "customerId": "Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21",
 *   "platformCustomerId": "user-48213",
 *   "issuerTransactionToken": "0b6f3c1e-4d2a-4f8b-9c7e-1a2b3c4d5e6f",
 *   "status": "SETTLED",
 *   "direction": "DEBIT",
 *   "merchant": { "descriptor": "BLUE BOTTLE COFFEE SF", "mcc": "5814", "country": "US" },
 *   "authorizedAmount": { "amount": 1250, "currency": { "code": "USD", "name": "United States Dollar", "symbol": "$", "decimals": 2 } },
 *   "settledAmount": { "amount": 1250, "currency": { "code": "USD", "name": "United States Dollar", "symbol": "$", "decimals": 2 } },
 *   "accountId": "InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57",
 *   "pullSummary": { "count": 1, "totalAmount": 1250, "pendingCount": 0 },
 *   "refundSummary": { "count": 0, "totalAmount": 0 },
 *   "settlementSummary": { "count": 1, "totalAmount": 1250 },
 *   "authorizedAt": "2025-11-03T14:30:00.000Z",
 *   "lastEventAt": "2025-11-03T15:42:11.000Z",
 *   "createdAt": "2025-11-03T14:30:00.000Z",
 *   "updatedAt": "2025-11-03T15:42:11.000Z"
 * }
 */
export interface CardTransaction {
  type: 'CARD';
  id: string;
  cardId: string;
  /** The cardholder. */
  customerId: string;
  platformCustomerId: string;
  /** The issuer's id of the transaction (the network message that opened it). */
  issuerTransactionToken: string;
  status: CardTransactionStatus;
  direction: 'DEBIT' | 'CREDIT';
  merchant: CardMerchant;
  /** In the card's currency (USD cents); an authorization advice re-sizes it. */
  authorizedAmount: CurrencyAmount;
  /** What the clearings posted, in the card's currency; present once one posted. */
  settledAmount?: CurrencyAmount;
  /** What the merchant returned, net of reversed returns, in the card's currency; present once a return arrived. */
  refundedAmount?: CurrencyAmount;
  /** The internal account that funds (DEBIT) or receives (CREDIT) the transaction. */
  accountId: string;
  pullSummary: CardPullSummary;
  refundSummary: CardRefundSummary;
  settlementSummary: CardSettlementSummary;
  authorizedAt: string;
  /** The latest event after the authorization (pull outcome, advice, clearing, expiry, return, reversal). */
  lastEventAt?: string;
  /** The authorization's time. */
  createdAt: string;
  updatedAt: string;
}
