import { TransactionRow } from '../../src/accounts';
import { TRANSFER_TRANSACTION_REDUCERS } from '../../src/accounts';
import { CARD_TRANSACTION_REDUCERS, CardTransactionRow } from '../../src/cards';
import { QUOTE_TRANSACTION_REDUCERS } from '../../src/quotes';
import { RecordedEvent } from '../../src/infra/event-store/event-store.port';
import { INCOMING_PAYMENT_TRANSACTION_REDUCERS } from '../../src/receiving';

type TransactionEventLike = Pick<RecordedEvent, 'type' | 'data'>;

/** A row of either kind: a payment (the accounts' TransactionView) or a card transaction (its view and record). */
export type StoredTransactionRow = TransactionRow | CardTransactionRow;

export type StoredTransactionReducer = (current: StoredTransactionRow | null, event: TransactionEventLike) => StoredTransactionRow | null;

/**
 * Every context's reducers into the `transactions` view, by event type. Quotes add theirs here
 * (one line); an event type may appear in one map only.
 */
export const TRANSACTION_VIEW_REDUCERS: Record<string, StoredTransactionReducer> = {
  ...ofOneKind(TRANSFER_TRANSACTION_REDUCERS),
  ...ofOneKind(QUOTE_TRANSACTION_REDUCERS),
  ...ofOneKind(INCOMING_PAYMENT_TRANSACTION_REDUCERS),
  ...ofOneKind(CARD_TRANSACTION_REDUCERS),
};

/**
 * A transaction's stream holds events of one kind only (a transfer's, a quote's, a card
 * transaction's), so each reducer only ever meets the rows its own kind wrote.
 */
function ofOneKind<R extends StoredTransactionRow>(
  reducers: Record<string, (current: R | null, event: TransactionEventLike) => R | null>,
): Record<string, StoredTransactionReducer> {
  return reducers as unknown as Record<string, StoredTransactionReducer>;
}
