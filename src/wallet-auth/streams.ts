import { streamType } from '../infra/commands/stream-type';
import { fundingSourceKeysDecider } from './domain/delegated-key/delegated-key.decider';
import { walletRequestDecider } from './domain/request/request.decider';
import { walletSessionDecider } from './domain/session/session.decider';
import { walletDecider } from './domain/wallet/wallet.decider';

/** The wallet-auth context's streams, as the command store handles them (src/infra/commands). */
export const WALLET_REQUEST_STREAM = streamType({
  name: 'wallet request',
  decider: walletRequestDecider,
});

export const WALLET_STREAM = streamType({
  name: 'wallet',
  decider: walletDecider,
});

export const WALLET_SESSION_STREAM = streamType({
  name: 'wallet session',
  decider: walletSessionDecider,
});

/** `cardFundingSource-<uuid>`: the delegated signing keys of one card funding source. */
export const CARD_FUNDING_SOURCE_STREAM = streamType({
  name: 'card funding source',
  decider: fundingSourceKeysDecider,
});
