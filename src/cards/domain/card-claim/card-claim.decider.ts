import { Decider } from '../../../infra/domain/decider';
import { platformCardIdTaken } from '../cards.errors';

/**
 * A platform's `platformCardId` names at most one card, for good: a closed card keeps its
 * identifier (platforms reconcile closed cards too). One small stream per (platform,
 * platformCardId) turns "unique per platform" into an optimistic-concurrency check instead of a
 * racy read-model lookup.
 */
export type CardClaimEvent = {
  type: 'PlatformCardIdClaimed';
  data: { platformId: string; platformCardId: string; cardId: string; claimedAt: string };
};

export type CardClaimState = { status: 'free' } | { status: 'held'; cardId: string; claimedAt: string };

export interface ClaimPlatformCardId {
  type: 'ClaimPlatformCardId';
  platformId: string;
  platformCardId: string;
  cardId: string;
  /**
   * The holder whose claim may be taken over: the service found that its card was never created
   * (a request that died between the claim and the card) and the claim is old enough.
   */
  takeOverFrom: string | null;
  now: string;
}

export const cardClaimDecider: Decider<ClaimPlatformCardId, CardClaimState, CardClaimEvent> = {
  initialState: () => ({ status: 'free' }),

  decide(command, state) {
    if (state.status === 'held' && state.cardId === command.cardId) return [];
    if (state.status === 'held' && state.cardId !== command.takeOverFrom) {
      // 400, not 409: `POST /cards` declares no 409, and the platform must pick another identifier.
      throw platformCardIdTaken(command.platformCardId, state.cardId);
    }
    return [
      {
        type: 'PlatformCardIdClaimed',
        data: { platformId: command.platformId, platformCardId: command.platformCardId, cardId: command.cardId, claimedAt: command.now },
      },
    ];
  },

  evolve(_state, event) {
    return { status: 'held', cardId: event.data.cardId, claimedAt: event.data.claimedAt };
  },
};
