/**
 * The cards context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { CardsModule } from './cards.module';
export { CARD_EVENT_TYPES } from './domain/card/card.events';
export type { CardEvent, CardForm, CardLifecycleState, CardStateReason } from './domain/card/card.events';
export { cardView, cardViewFromEvents, cardWire } from './queries/card.view';
export { CardsQuery } from './queries/cards.query';
export { CARD_TRANSACTION_REDUCERS } from './queries/card-transaction.view';
export type { CardTransactionRow } from './queries/card-transaction.view';
