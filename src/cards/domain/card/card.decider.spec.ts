import { deciderSpec } from '../../../../test/support/decider-spec';
import { CardChanges, CardCommand, cardDecider } from './card.decider';
import { CardEvent, CardLifecycleState, RequestableCardState } from './card.events';

const NOW = '2025-10-13T12:00:00.000Z';
const LATER = '2025-10-13T12:05:00.000Z';
const PLATFORM = 'platform-a';
const CARD = 'Card:0199a000-0000-7000-8000-0000000000c1';
const ref = { cardId: CARD, platformId: PLATFORM };
const USD_ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-0000000000a1';
const USDB_ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-0000000000a2';

const requested: CardEvent = {
  type: 'CardIssuanceRequested',
  data: {
    ...ref,
    cardholderId: 'Customer:0199a000-0000-7000-8000-000000000001',
    platformCardId: 'card-123',
    form: 'VIRTUAL',
    currency: 'USD',
    fundingSources: [USD_ACCOUNT],
    maxSpendPerTransaction: null,
    issuerScenario: 'ISSUE',
    requestedAt: NOW,
  },
};
const issued: CardEvent = { type: 'CardIssued', data: { ...ref, last4: '4242', expMonth: 10, expYear: 2028, issuedAt: NOW } };
const frozen: CardEvent = { type: 'CardFrozen', data: { ...ref, frozenAt: NOW } };
const closed: CardEvent = { type: 'CardClosed', data: { ...ref, previousState: 'ACTIVE', reason: 'CLOSED_BY_PLATFORM', closedAt: NOW } };
const rejected: CardEvent = { type: 'CardIssuanceRejected', data: { ...ref, reason: 'ISSUER_REJECTED', rejectedAt: NOW } };

const spec = deciderSpec(cardDecider);
const update = (changes: CardChanges, platformId = PLATFORM): CardCommand => ({ type: 'UpdateCard', platformId, changes, now: LATER });

const inState: Record<CardLifecycleState, CardEvent[]> = {
  PROCESSING: [requested],
  ACTIVE: [requested, issued],
  FROZEN: [requested, issued, frozen],
  CLOSED: [requested, issued, closed],
};

describe('card decider', () => {
  it('records an issuance request: the card is PROCESSING with no PAN details yet', () => {
    const { data } = requested as Extract<CardEvent, { type: 'CardIssuanceRequested' }>;
    const { requestedAt: _requestedAt, ...fields } = data;
    const request: CardCommand = { type: 'RequestCardIssuance', ...fields, now: NOW };
    spec.given([]).when(request).then([requested]);
    expect(spec.state([requested])).toEqual(expect.objectContaining({ status: 'PROCESSING', last4: null, expMonth: null, expYear: null, stateReason: null }));
    spec.given([requested]).when(request).then([]);
  });

  it('the issuer issues (ACTIVE with last4 and expiry) or rejects (CLOSED, ISSUER_REJECTED), once', () => {
    const issue: CardCommand = { type: 'RecordIssuerDecision', decision: { outcome: 'ISSUED', last4: '4242', expMonth: 10, expYear: 2028 }, now: NOW };
    spec.given([requested]).when(issue).then([issued]);
    expect(spec.state([requested, issued])).toEqual(expect.objectContaining({ status: 'ACTIVE', last4: '4242', expMonth: 10, expYear: 2028 }));
    const reject: CardCommand = { type: 'RecordIssuerDecision', decision: { outcome: 'REJECTED' }, now: NOW };
    spec.given([requested]).when(reject).then([rejected]);
    expect(spec.state([requested, rejected])).toEqual(expect.objectContaining({ status: 'CLOSED', stateReason: 'ISSUER_REJECTED', last4: null }));
    // A replayed task finds the card decided and does nothing.
    spec.given([requested, issued]).when(reject).then([]);
    spec.given([requested, rejected]).when(issue).then([]);
    spec.given([]).when(issue).then([]);
  });

  it('allows exactly the transitions of SPEC.md\'s table', () => {
    const allowed: Array<[CardLifecycleState, RequestableCardState, CardEvent['type']]> = [
      ['ACTIVE', 'FROZEN', 'CardFrozen'],
      ['FROZEN', 'ACTIVE', 'CardUnfrozen'],
      ['ACTIVE', 'CLOSED', 'CardClosed'],
      ['FROZEN', 'CLOSED', 'CardClosed'],
    ];
    for (const [from, to, eventType] of allowed) {
      const { events } = spec.given(inState[from]).when(update({ state: to }));
      expect(events.map((event) => event.type)).toEqual([eventType]);
      expect(spec.state([...inState[from], ...events]).status).toBe(to);
    }
    const closing: CardEvent = { type: 'CardClosed', data: { ...ref, previousState: 'FROZEN', reason: 'CLOSED_BY_PLATFORM', closedAt: LATER } };
    spec.given(inState.FROZEN).when(update({ state: 'CLOSED' })).then([closing]);
    expect(spec.state([...inState.FROZEN, closing])).toEqual(expect.objectContaining({ status: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', updatedAt: LATER }));
  });

  it('refuses every transition not listed with 409 INVALID_STATE_TRANSITION (same state, out of PROCESSING)', () => {
    const notListed: Array<[CardLifecycleState, RequestableCardState]> = [
      ['ACTIVE', 'ACTIVE'],
      ['FROZEN', 'FROZEN'],
      ['PROCESSING', 'ACTIVE'],
      ['PROCESSING', 'FROZEN'],
      ['PROCESSING', 'CLOSED'],
    ];
    for (const [from, to] of notListed) {
      expect(spec.given(inState[from]).when(update({ state: to })).error).toEqual({
        code: 'INVALID_STATE_TRANSITION',
        message: expect.any(String),
        details: { cardId: CARD, from, to },
      });
    }
  });

  it('a closed card: CARD_ALREADY_CLOSED for a request for CLOSED, CARD_NOT_MUTABLE for any other mutation', () => {
    for (const history of [inState.CLOSED, [requested, rejected]]) {
      const closedCard = spec.given(history);
      closedCard.when(update({ state: 'CLOSED' })).thenError('CARD_ALREADY_CLOSED');
      closedCard.when(update({ state: 'CLOSED', maxSpendPerTransaction: 5 })).thenError('CARD_ALREADY_CLOSED');
      closedCard.when(update({ state: 'ACTIVE' })).thenError('CARD_NOT_MUTABLE');
      closedCard.when(update({ state: 'FROZEN' })).thenError('CARD_NOT_MUTABLE');
      closedCard.when(update({ fundingSources: [USDB_ACCOUNT] })).thenError('CARD_NOT_MUTABLE');
      closedCard.when(update({ maxSpendPerTransaction: null })).thenError('CARD_NOT_MUTABLE');
    }
  });

  it('records funding-source and spend-limit changes in any open state, nothing when nothing changes', () => {
    for (const from of ['PROCESSING', 'ACTIVE', 'FROZEN'] as const) {
      const open = spec.given(inState[from]);
      open.when(update({ fundingSources: [USDB_ACCOUNT, USD_ACCOUNT], maxSpendPerTransaction: 5_000 })).then([
        { type: 'CardFundingSourcesChanged', data: { ...ref, previousFundingSources: [USD_ACCOUNT], fundingSources: [USDB_ACCOUNT, USD_ACCOUNT], changedAt: LATER } },
        { type: 'CardSpendLimitChanged', data: { ...ref, previousMaxSpendPerTransaction: null, maxSpendPerTransaction: 5_000, changedAt: LATER } },
      ]);
      open.when(update({ fundingSources: [USD_ACCOUNT], maxSpendPerTransaction: null })).then([]);
    }
    const limitedHistory: CardEvent[] = [...inState.ACTIVE, { type: 'CardSpendLimitChanged', data: { ...ref, previousMaxSpendPerTransaction: null, maxSpendPerTransaction: 700, changedAt: NOW } }];
    expect(spec.state(limitedHistory)).toEqual(expect.objectContaining({ maxSpendPerTransaction: 700 }));
    spec.given(limitedHistory).when(update({ maxSpendPerTransaction: null })).then([
      { type: 'CardSpendLimitChanged', data: { ...ref, previousMaxSpendPerTransaction: 700, maxSpendPerTransaction: null, changedAt: LATER } },
    ]);
  });

  it('field changes come before the closing, so nothing ever follows CardClosed', () => {
    const { events } = spec.given(inState.ACTIVE).when(update({ state: 'CLOSED', maxSpendPerTransaction: 100 }));
    expect(events.map((event) => event.type)).toEqual(['CardSpendLimitChanged', 'CardClosed']);
  });

  it('a refused transition records none of the other changes of the same request', () => {
    spec.given(inState.ACTIVE).when(update({ state: 'ACTIVE', maxSpendPerTransaction: 100 })).thenError('INVALID_STATE_TRANSITION');
  });

  it('answers NOT_FOUND for an unknown card and for another platform\'s card', () => {
    spec.given([]).when(update({ state: 'FROZEN' })).thenError('REFERENCE_NOT_FOUND');
    spec.given(inState.ACTIVE).when(update({ state: 'FROZEN' }, 'platform-b')).thenError('REFERENCE_NOT_FOUND');
  });

  describe('reveal', () => {
    const EXPIRES = '2025-10-13T12:10:00.000Z';
    const reveal = (platformId = PLATFORM): CardCommand => ({ type: 'RevealCard', platformId, expiresAt: EXPIRES, now: LATER });
    const revealed: CardEvent = { type: 'CardRevealed', data: { ...ref, expiresAt: EXPIRES, revealedAt: LATER } };

    it('records every reveal of an ACTIVE or FROZEN card, and it changes nothing of the card', () => {
      for (const from of ['ACTIVE', 'FROZEN'] as const) {
        spec.given(inState[from]).when(reveal()).then([revealed]);
        spec.given([...inState[from], revealed]).when(reveal()).then([revealed]);
        expect(spec.state([...inState[from], revealed])).toEqual(spec.state(inState[from]));
      }
    });

    it('a card with no details to show (PROCESSING, rejected, closed): 404 naming its state', () => {
      spec.given(inState.PROCESSING).when(reveal()).thenError('REFERENCE_NOT_FOUND', { cardId: CARD, state: 'PROCESSING' });
      spec.given(inState.CLOSED).when(reveal()).thenError('REFERENCE_NOT_FOUND', { cardId: CARD, state: 'CLOSED' });
      spec.given([requested, rejected]).when(reveal()).thenError('REFERENCE_NOT_FOUND', { cardId: CARD, state: 'CLOSED' });
    });

    it('an unknown card and another platform\'s card: 404 without details', () => {
      expect(spec.given([]).when(reveal()).error).toEqual({ code: 'REFERENCE_NOT_FOUND', message: 'Card not found' });
      expect(spec.given(inState.ACTIVE).when(reveal('platform-b')).error).toEqual({ code: 'REFERENCE_NOT_FOUND', message: 'Card not found' });
    });
  });
});
