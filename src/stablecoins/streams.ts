import { streamType } from '../infra/commands/stream-type';
import { operationDecider } from './domain/operation/operation.decider';
import { providerAccountDecider } from './domain/provider-account/provider-account.decider';
import { stablecoinDecider } from './domain/stablecoin/stablecoin.decider';

/** The stablecoins context's streams, as the command store handles them (src/infra/commands). */
export const PROVIDER_ACCOUNT_STREAM = streamType({ name: 'stablecoin provider account', decider: providerAccountDecider });

/**
 * A coin's supply: every mint and burn opens and settles here, so concurrent operations of one
 * coin conflict on this stream and re-decide on the fresh supply (a burn that no longer fits is
 * refused). Generous attempts with a short jittered pause: a burst of burns is the normal case.
 */
export const STABLECOIN_STREAM = streamType({
  name: 'stablecoin',
  decider: stablecoinDecider,
  maxAttempts: 100,
  conflictBackoffMs: (attempt) => Math.min(50, attempt * 2) * Math.random(),
  conflictMessage: 'The stablecoin is too busy; retry the request',
});

export const STABLECOIN_OPERATION_STREAM = streamType({ name: 'stablecoin operation', decider: operationDecider });
