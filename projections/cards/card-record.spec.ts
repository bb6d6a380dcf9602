import { CardEvent, cardView } from '../../src/cards';
import { cardViewFromEvents } from '../../src/cards/queries/card.view';
import { CardRecord, evolveCardRecord } from './card-record';

const ref = { cardId: 'Card:0199a000-0000-7000-8000-0000000000c1', platformId: 'Platform:0199a000-0000-7000-8000-0000000000f1' };
const requested: CardEvent = {
  type: 'CardIssuanceRequested',
  data: {
    ...ref,
    cardholderId: 'Customer:0199a000-0000-7000-8000-000000000001',
    platformCardId: 'card-123',
    form: 'VIRTUAL',
    currency: 'USD',
    fundingSources: ['InternalAccount:0199a000-0000-7000-8000-0000000000a1'],
    maxSpendPerTransaction: null,
    issuerScenario: 'ISSUE',
    requestedAt: '2025-10-13T12:00:00.000Z',
  },
};
const issued: CardEvent = { type: 'CardIssued', data: { ...ref, last4: '4242', expMonth: 10, expYear: 2028, issuedAt: '2025-10-13T12:00:05.000Z' } };
const frozen: CardEvent = { type: 'CardFrozen', data: { ...ref, frozenAt: '2025-10-13T12:01:00.000Z' } };
const unfrozen: CardEvent = { type: 'CardUnfrozen', data: { ...ref, unfrozenAt: '2025-10-13T12:02:00.000Z' } };
const sourcesChanged: CardEvent = {
  type: 'CardFundingSourcesChanged',
  data: { ...ref, previousFundingSources: requested.data.fundingSources, fundingSources: ['InternalAccount:0199a000-0000-7000-8000-0000000000a2'], changedAt: '2025-10-13T12:03:00.000Z' },
};
const limitChanged: CardEvent = {
  type: 'CardSpendLimitChanged',
  data: { ...ref, previousMaxSpendPerTransaction: null, maxSpendPerTransaction: 50_000, changedAt: '2025-10-13T12:04:00.000Z' },
};
const closed: CardEvent = { type: 'CardClosed', data: { ...ref, previousState: 'ACTIVE', reason: 'CLOSED_BY_PLATFORM', closedAt: '2025-10-13T12:05:00.000Z' } };
const rejected: CardEvent = { type: 'CardIssuanceRejected', data: { ...ref, reason: 'ISSUER_REJECTED', rejectedAt: '2025-10-13T12:00:05.000Z' } };

function fold(events: CardEvent[]): CardRecord | null {
  return events.reduce<CardRecord | null>(evolveCardRecord, null);
}

describe('card record (the cards read model state)', () => {
  it('a requested card is PROCESSING, without PAN details, created and updated when requested', () => {
    expect(fold([requested])).toEqual({
      status: 'PROCESSING',
      ...ref,
      cardholderId: 'Customer:0199a000-0000-7000-8000-000000000001',
      platformCardId: 'card-123',
      form: 'VIRTUAL',
      currency: 'USD',
      fundingSources: ['InternalAccount:0199a000-0000-7000-8000-0000000000a1'],
      maxSpendPerTransaction: null,
      stateReason: null,
      last4: null,
      expMonth: null,
      expYear: null,
      createdAt: '2025-10-13T12:00:00.000Z',
      updatedAt: '2025-10-13T12:00:00.000Z',
    });
  });

  it('follows the lifecycle and field changes, updatedAt following each event', () => {
    expect(fold([requested, issued])).toMatchObject({ status: 'ACTIVE', last4: '4242', expMonth: 10, expYear: 2028, updatedAt: '2025-10-13T12:00:05.000Z' });
    expect(fold([requested, issued, frozen])).toMatchObject({ status: 'FROZEN', updatedAt: '2025-10-13T12:01:00.000Z' });
    expect(fold([requested, issued, frozen, unfrozen, sourcesChanged, limitChanged])).toMatchObject({
      status: 'ACTIVE',
      fundingSources: ['InternalAccount:0199a000-0000-7000-8000-0000000000a2'],
      maxSpendPerTransaction: 50_000,
      updatedAt: '2025-10-13T12:04:00.000Z',
    });
    expect(fold([requested, issued, closed])).toMatchObject({ status: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', last4: '4242', updatedAt: '2025-10-13T12:05:00.000Z' });
    expect(fold([requested, rejected])).toMatchObject({ status: 'CLOSED', stateReason: 'ISSUER_REJECTED', last4: null, updatedAt: '2025-10-13T12:00:05.000Z' });
  });

  it('a reveal changes nothing the card shows (an audit record only)', () => {
    const revealed: CardEvent = { type: 'CardRevealed', data: { ...ref, expiresAt: '2025-10-13T12:11:00.000Z', revealedAt: '2025-10-13T12:06:00.000Z' } };
    expect(fold([requested, issued, frozen, revealed])).toEqual(fold([requested, issued, frozen]));
  });

  it('events of a card never requested fold to nothing', () => {
    expect(fold([issued, frozen, closed])).toBeNull();
  });

  it('shows the view the write side answers for the same events (same fields, same order)', () => {
    const streams = [[requested], [requested, rejected], [requested, issued, frozen, unfrozen, sourcesChanged, limitChanged, closed]];
    for (const events of streams) expect(JSON.stringify(cardView(fold(events)!))).toBe(JSON.stringify(cardViewFromEvents(events)));
  });
});
