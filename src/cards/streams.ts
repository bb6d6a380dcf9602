import { streamType } from '../infra/commands/stream-type';
import { cardClaimDecider } from './domain/card-claim/card-claim.decider';
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
