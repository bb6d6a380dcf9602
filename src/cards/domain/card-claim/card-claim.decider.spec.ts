import { DomainError } from '../../../infra/domain/domain-error';
import { CardClaimEvent, CardClaimState, ClaimPlatformCardId, cardClaimDecider } from './card-claim.decider';

const NOW = '2025-10-13T12:00:00.000Z';
const claim = (cardId: string, takeOverFrom: string | null = null): ClaimPlatformCardId => ({
  type: 'ClaimPlatformCardId', platformId: 'platform-a', platformCardId: 'card-7', cardId, takeOverFrom, now: NOW,
});
const claimed = (cardId: string): CardClaimEvent => ({
  type: 'PlatformCardIdClaimed', data: { platformId: 'platform-a', platformCardId: 'card-7', cardId, claimedAt: NOW },
});
const given = (events: CardClaimEvent[]): CardClaimState => events.reduce(cardClaimDecider.evolve, cardClaimDecider.initialState());

describe('platformCardId claim decider', () => {
  it('claims a free identifier; the same card claiming again is a no-op', () => {
    expect(cardClaimDecider.decide(claim('Card:a'), given([]))).toEqual([claimed('Card:a')]);
    expect(cardClaimDecider.decide(claim('Card:a'), given([claimed('Card:a')]))).toEqual([]);
  });

  it('refuses another card with 400 INVALID_INPUT on platformCardId naming the holder (POST /cards declares no 409)', () => {
    try {
      cardClaimDecider.decide(claim('Card:b'), given([claimed('Card:a')]));
      throw new Error('expected a conflict');
    } catch (error) {
      expect((error as DomainError).code).toBe('INVALID_INPUT');
      expect((error as DomainError).details).toEqual({
        errors: [{ field: 'platformCardId', constraint: {}, message: 'A card with this platformCardId already exists' }],
        reason: 'PLATFORM_CARD_ID_EXISTS',
        platformCardId: 'card-7',
        cardId: 'Card:a',
      });
    }
  });

  it('takes over only the holder the service found orphaned', () => {
    expect(cardClaimDecider.decide(claim('Card:b', 'Card:a'), given([claimed('Card:a')]))).toEqual([claimed('Card:b')]);
    expect(() => cardClaimDecider.decide(claim('Card:c', 'Card:a'), given([claimed('Card:a'), claimed('Card:b')]))).toThrow(DomainError);
  });
});
