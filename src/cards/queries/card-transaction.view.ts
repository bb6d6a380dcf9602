import type { CardTransaction, CardTransactionStatus } from '../../accounts';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { currency } from '../../shared/currencies';
import {
  CARD_TRANSACTION_EVENT_TYPES, CardMerchant, CardPull, CardTransactionAuthorized, CardTransactionEvent,
} from '../domain/card-transaction/card-transaction.events';

/**
 * The read side's own record of one card transaction: what its view needs and the view alone
 * does not keep (each pull with its status, so a late pull outcome updates the summary). Folded
 * from the transaction's stream by `evolveCardTransaction`; never the write side's state.
 * `*Cents` are the card's currency (USD), `*Units` the funding account's minor units.
 */
export interface CardTransactionRecord {
  transactionId: string;
  cardId: string;
  customerId: string;
  platformCustomerId: string;
  issuerTransactionToken: string;
  direction: 'DEBIT' | 'CREDIT';
  merchant: CardMerchant;
  accountId: string;
  status: CardTransactionStatus;
  authorizedCents: number;
  clearings: number;
  clearedCents: number;
  clearedUnits: number;
  returns: number;
  returnedUnits: number;
  /** Returned minus what reversals took back: the `refundedAmount`. */
  netRefundedCents: number;
  pulls: CardPull[];
  authorizedAt: string;
  lastEventAt: string | null;
}

/**
 * Folds one event into the record; null while the stream holds no approved authorization (a
 * declined one, a balance inquiry: no CardTransaction is shown for them). Status after each
 * event (docs/cards.md "Card transactions on the wire"): the authorization opens AUTHORIZED; a
 * clearing settles (SETTLED once every authorized cent cleared, else PARTIALLY_SETTLED) unless
 * its post-hoc pull failed (EXCEPTION); a failed pull confirmation is EXCEPTION; an expiry
 * closes it SETTLED; a return of the whole net settled amount of a SETTLED one is REFUNDED; a
 * reversed return is SETTLED again, or EXCEPTION when taking the money back failed.
 */
export function evolveCardTransaction(record: CardTransactionRecord | null, event: CardTransactionEvent): CardTransactionRecord | null {
  if (event.type === 'CardTransactionAuthorized') return authorized(event.data);
  if (record === null) return null;
  switch (event.type) {
    case 'CardPullConfirmed':
      return { ...settlePull(record, event.data.pullId, 'CONFIRMED'), lastEventAt: event.data.confirmedAt };
    case 'CardPullFailed':
      return { ...settlePull(record, event.data.pullId, 'FAILED'), status: 'EXCEPTION', lastEventAt: event.data.failedAt };
    case 'CardAuthorizationResized':
      return { ...record, authorizedCents: event.data.amountCents, lastEventAt: event.data.resizedAt };
    case 'CardTransactionCleared': {
      const { amountCents, capturedUnits, creditedUnits, postHocPull, settled, clearedAt } = event.data;
      const status: CardTransactionStatus = postHocPull?.status === 'FAILED' ? 'EXCEPTION' : settled ? 'SETTLED' : 'PARTIALLY_SETTLED';
      return {
        ...record,
        status,
        clearings: record.clearings + 1,
        clearedCents: record.clearedCents + amountCents,
        // What the clearing settled, the post-hoc part included even when its pull failed.
        clearedUnits: record.clearedUnits + capturedUnits + creditedUnits + (postHocPull?.amountUnits ?? 0),
        pulls: postHocPull ? [...record.pulls, postHocPull] : record.pulls,
        lastEventAt: clearedAt,
      };
    }
    case 'CardAuthorizationExpired':
      return { ...record, status: 'SETTLED', lastEventAt: event.data.expiredAt };
    case 'CardTransactionReturned': {
      const netRefundedCents = record.netRefundedCents + event.data.amountCents;
      const refundedAll = record.status === 'SETTLED' && netRefundedCents >= record.clearedCents;
      return {
        ...record,
        status: refundedAll ? 'REFUNDED' : record.status,
        returns: record.returns + 1,
        returnedUnits: record.returnedUnits + event.data.creditedUnits,
        netRefundedCents,
        lastEventAt: event.data.returnedAt,
      };
    }
    case 'CardReturnReversed':
      return {
        ...record,
        status: event.data.pull.status === 'FAILED' ? 'EXCEPTION' : 'SETTLED',
        netRefundedCents: record.netRefundedCents - event.data.amountCents,
        pulls: [...record.pulls, event.data.pull],
        lastEventAt: event.data.reversedAt,
      };
    default:
      // A decline or a balance inquiry on a stream that has an authorization cannot happen; they change nothing.
      return record;
  }
}

function authorized(data: CardTransactionAuthorized['data']): CardTransactionRecord {
  return {
    transactionId: data.transactionId,
    cardId: data.cardId,
    customerId: data.customerId,
    platformCustomerId: data.platformCustomerId,
    issuerTransactionToken: data.issuerTransactionToken,
    direction: data.direction,
    merchant: data.merchant,
    accountId: data.accountId,
    status: 'AUTHORIZED',
    authorizedCents: data.amountCents,
    clearings: 0,
    clearedCents: 0,
    clearedUnits: 0,
    returns: 0,
    returnedUnits: 0,
    netRefundedCents: 0,
    pulls: data.pull ? [data.pull] : [],
    authorizedAt: data.authorizedAt,
    lastEventAt: null,
  };
}

function settlePull(record: CardTransactionRecord, pullId: string, status: 'CONFIRMED' | 'FAILED'): CardTransactionRecord {
  return { ...record, pulls: record.pulls.map((pull) => (pull.pullId === pullId ? { ...pull, status } : pull)) };
}

/** Card amounts are in the card's currency: USD cents. */
const usdCents = (amount: number) => ({ amount, currency: currency('USD') });

/** The CardTransaction exactly as `GET /transactions/{id}` answers it (and `CARD_TRANSACTION.*` carries it). */
export function cardTransactionView(record: CardTransactionRecord): CardTransaction {
  const pulls = record.pulls;
  return {
    type: 'CARD',
    id: record.transactionId,
    cardId: record.cardId,
    customerId: record.customerId,
    platformCustomerId: record.platformCustomerId,
    issuerTransactionToken: record.issuerTransactionToken,
    status: record.status,
    direction: record.direction,
    merchant: merchantOnWire(record.merchant),
    authorizedAmount: usdCents(record.authorizedCents),
    ...(record.clearings > 0 ? { settledAmount: usdCents(record.clearedCents) } : {}),
    ...(record.returns > 0 ? { refundedAmount: usdCents(record.netRefundedCents) } : {}),
    accountId: record.accountId,
    pullSummary: {
      count: pulls.length,
      // A failed pull took nothing from the account.
      totalAmount: pulls.filter((pull) => pull.status !== 'FAILED').reduce((sum, pull) => sum + pull.amountUnits, 0),
      pendingCount: pulls.filter((pull) => pull.status === 'PENDING').length,
    },
    refundSummary: { count: record.returns, totalAmount: record.returnedUnits },
    settlementSummary: { count: record.clearings, totalAmount: record.clearedUnits },
    authorizedAt: record.authorizedAt,
    ...(record.lastEventAt !== null ? { lastEventAt: record.lastEventAt } : {}),
    createdAt: record.authorizedAt,
    updatedAt: record.lastEventAt ?? record.authorizedAt,
  };
}

/** Only the merchant fields the network sent (no nulls on the wire). */
function merchantOnWire(merchant: CardMerchant): CardMerchant {
  return {
    descriptor: merchant.descriptor,
    ...(merchant.mcc !== undefined && merchant.mcc !== null ? { mcc: merchant.mcc } : {}),
    ...(merchant.country !== undefined && merchant.country !== null ? { country: merchant.country } : {}),
  };
}

/** Folds a transaction's stream (or a prefix of it): the same fold the read model uses. */
export function cardTransactionRecordFromEvents(events: Array<Pick<RecordedEvent, 'type' | 'data'>>): CardTransactionRecord | null {
  let record: CardTransactionRecord | null = null;
  for (const event of events) record = evolveCardTransaction(record, event as unknown as CardTransactionEvent);
  return record;
}

/** The CardTransaction as GET answered right after the last of `events`; null when none is shown. */
export function cardTransactionViewFromEvents(events: Array<Pick<RecordedEvent, 'type' | 'data'>>): CardTransaction | null {
  const record = cardTransactionRecordFromEvents(events);
  return record ? cardTransactionView(record) : null;
}

/**
 * A card transaction's row of the `transactions` read model (projections/transactions): the GET
 * view, always visible, and the record it is made from (stored beside it, so the next event
 * folds on without reading the stream).
 */
export interface CardTransactionRow {
  view: CardTransaction;
  visible: boolean;
  record: CardTransactionRecord;
}

export type CardTransactionReducer = (current: CardTransactionRow | null, event: Pick<RecordedEvent, 'type' | 'data'>) => CardTransactionRow | null;

/** The cards context's reducers into the `transactions` read model: every event of a transaction's stream. */
export const CARD_TRANSACTION_REDUCERS: Record<string, CardTransactionReducer> = Object.fromEntries(
  CARD_TRANSACTION_EVENT_TYPES.map((type) => [type, reduceCardTransactionRow]),
);

/** Answers the row it was given when the event changes nothing (the projection then writes nothing). */
function reduceCardTransactionRow(current: CardTransactionRow | null, event: Pick<RecordedEvent, 'type' | 'data'>): CardTransactionRow | null {
  const record = evolveCardTransaction(current?.record ?? null, event as unknown as CardTransactionEvent);
  if (record === null || record === current?.record) return current;
  return { view: cardTransactionView(record), visible: true, record };
}
