import { deciderSpec } from '../../../../test/support/decider-spec';
import { CardClaimEvent, ClaimPlatformCardId, cardClaimDecider } from './card-claim.decider';

const NOW = '2025-10-13T12:00:00.000Z';
const claim = (cardId: string, takeOverFrom: string | null = null): ClaimPlatformCardId => ({
  type: 'ClaimPlatformCardId', platformId: 'platform-a', platformCardId: 'card-7', cardId, takeOverFrom, now: NOW,
});
const claimed = (cardId: string): CardClaimEvent => ({
  type: 'PlatformCardIdClaimed', data: { platformId: 'platform-a', platformCardId: 'card-7', cardId, claimedAt: NOW },
});
const spec = deciderSpec(cardClaimDecider);

describe('platformCardId claim decider', () => {
  it('claims a free identifier; the same card claiming again is a no-op', () => {
    spec.given([]).when(claim('Card:a')).then([claimed('Card:a')]);
    spec.given([claimed('Card:a')]).when(claim('Card:a')).then([]);
  });

  it('refuses another card with 400 INVALID_INPUT on platformCardId naming the holder (POST /cards declares no 409)', () => {
    expect(spec.given([claimed('Card:a')]).when(claim('Card:b')).error).toEqual({
      code: 'INVALID_INPUT',
      message: expect.any(String),
      details: {
        errors: [{ field: 'platformCardId', constraint: {}, message: 'A card with this platformCardId already exists' }],
        reason: 'PLATFORM_CARD_ID_EXISTS',
        platformCardId: 'card-7',
        cardId: 'Card:a',
      },
    });
  });

  it('takes over only the holder the service found orphaned', () => {
    spec.given([claimed('Card:a')]).when(claim('Card:b', 'Card:a')).then([claimed('Card:b')]);
    spec.given([claimed('Card:a'), claimed('Card:b')]).when(claim('Card:c', 'Card:a')).thenError('INVALID_INPUT');
  });
});
