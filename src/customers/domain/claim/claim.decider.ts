import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';

/**
 * A unique key held by at most one active customer (a platform's `platformCustomerId`, an UMA
 * address). One small stream per key (`customerClaim-<uuidv5(key)>`) turns "unique among active
 * customers" into an optimistic-concurrency check instead of a racy read-model lookup.
 */
export type ClaimEvent =
  | { type: 'CustomerKeyClaimed'; data: { key: string; platformId: string; customerId: string; claimedAt: string } }
  | { type: 'CustomerKeyReleased'; data: { key: string; platformId: string; customerId: string; releasedAt: string } };

export type ClaimState = { status: 'free' } | { status: 'held'; customerId: string; claimedAt: string };

export type ClaimCommand =
  | {
      type: 'ClaimKey';
      key: string;
      platformId: string;
      customerId: string;
      /** The holder may be replaced: the service found it deleted or never created. */
      takeOverFrom: string | null;
      conflictCode: string;
      now: string;
    }
  | { type: 'ReleaseKey'; key: string; platformId: string; customerId: string; now: string };

export const claimDecider: Decider<ClaimCommand, ClaimState, ClaimEvent> = {
  initialState: () => ({ status: 'free' }),

  decide(command, state) {
    switch (command.type) {
      case 'ClaimKey': {
        if (state.status === 'held' && state.customerId === command.customerId) return [];
        if (state.status === 'held' && state.customerId !== command.takeOverFrom) {
          throw new DomainError(command.conflictCode, 'Another active customer already uses this value', { holder: state.customerId });
        }
        const claimed: ClaimEvent = {
          type: 'CustomerKeyClaimed',
          data: { key: command.key, platformId: command.platformId, customerId: command.customerId, claimedAt: command.now },
        };
        return [claimed];
      }
      case 'ReleaseKey':
        if (state.status !== 'held' || state.customerId !== command.customerId) return [];
        return [
          {
            type: 'CustomerKeyReleased',
            data: { key: command.key, platformId: command.platformId, customerId: command.customerId, releasedAt: command.now },
          },
        ];
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case 'CustomerKeyClaimed':
        return { status: 'held', customerId: event.data.customerId, claimedAt: event.data.claimedAt };
      case 'CustomerKeyReleased':
        return { status: 'free' };
    }
  },
};
