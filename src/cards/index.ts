/**
 * The cards context's public entry: what other contexts, the read models and the app module may
 * use. Anything not exported here is internal to the context (test/architecture checks it).
 */
export { CardsModule } from './cards.module';
export { cardDecider } from './domain/card/card.decider';
export type { CardState, ExistingCard } from './domain/card/card.decider';
export { CARD_EVENT_TYPES } from './domain/card/card.events';
export type { CardEvent } from './domain/card/card.events';
export type { CardForm, CardLifecycleState, CardStateReason } from './domain/card/card.events';
export { cardView } from './queries/card.view';
