import { TransactionViewReducer } from '../../src/accounts';
import { TRANSFER_TRANSACTION_REDUCERS } from '../../src/accounts';
import { QUOTE_TRANSACTION_REDUCERS } from '../../src/quotes';
import { INCOMING_PAYMENT_TRANSACTION_REDUCERS } from '../../src/receiving';

/**
 * Every context's reducers into the `transactions` view, by event type. Quotes add theirs here
 * (one line); an event type may appear in one map only.
 */
export const TRANSACTION_VIEW_REDUCERS: Record<string, TransactionViewReducer> = {
  ...TRANSFER_TRANSACTION_REDUCERS,
  ...QUOTE_TRANSACTION_REDUCERS,
  ...INCOMING_PAYMENT_TRANSACTION_REDUCERS,
};
