import { streamType } from '../infra/commands/stream-type';
import { cardClaimDecider } from './domain/card-claim/card-claim.decider';
import { cardTransactionDecider } from './domain/card-transaction/card-transaction.decider';
import { cardDecider } from './domain/card/card.decider';

/** The cards context's streams, as the command store handles them (src/infra/commands). */
export const CARD_STREAM = streamType({
  name: 'card',
  decider: cardDecider,
  // Concurrent PATCHes of one card re-decide on the fresh state this many times before 409 CONFLICT.
  maxAttempts: 25,
});

export const CARD_CLAIM_STREAM = streamType({
  name: 'platform card id claim',
  decider: cardClaimDecider,
});

/**
 * One stream per card transaction (`cardTransaction-<uuid>`). Every step decides on it at its
 * expected revision and commits its ledger movements with it, so two concurrent clearings of one
 * authorization are decided one after the other (the loser re-decides on the winner's events).
 */
export const CARD_TRANSACTION_STREAM = streamType({
  name: 'card transaction',
  decider: cardTransactionDecider,
  maxAttempts: 50,
});
