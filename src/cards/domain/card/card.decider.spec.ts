import { DomainError } from '../../../infra/domain/domain-error';
import { CardChanges, CardCommand, CardState, cardDecider } from './card.decider';
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

const given = (events: CardEvent[]): CardState => events.reduce(cardDecider.evolve, cardDecider.initialState());
const when = (state: CardState, command: CardCommand) => cardDecider.decide(command, state);
const update = (changes: CardChanges, platformId = PLATFORM): CardCommand => ({ type: 'UpdateCard', platformId, changes, now: LATER });

function errorOf(work: () => unknown): { code: string; details?: Record<string, unknown> } | undefined {
  try {
    work();
  } catch (error) {
    return { code: (error as DomainError).code, details: (error as DomainError).details };
  }
  return undefined;
}

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
    const events = when(given([]), { type: 'RequestCardIssuance', ...fields, now: NOW });
    expect(events).toEqual([requested]);
    expect(given(events)).toEqual(expect.objectContaining({ status: 'PROCESSING', last4: null, expMonth: null, expYear: null, stateReason: null }));
    expect(when(given(events), { type: 'RequestCardIssuance', ...fields, now: NOW })).toEqual([]);
  });

  it('the issuer issues (ACTIVE with last4 and expiry) or rejects (CLOSED, ISSUER_REJECTED), once', () => {
    const issue: CardCommand = { type: 'RecordIssuerDecision', decision: { outcome: 'ISSUED', last4: '4242', expMonth: 10, expYear: 2028 }, now: NOW };
    expect(when(given([requested]), issue)).toEqual([issued]);
    expect(given([requested, issued])).toEqual(expect.objectContaining({ status: 'ACTIVE', last4: '4242', expMonth: 10, expYear: 2028 }));
    const reject: CardCommand = { type: 'RecordIssuerDecision', decision: { outcome: 'REJECTED' }, now: NOW };
    expect(when(given([requested]), reject)).toEqual([rejected]);
    expect(given([requested, rejected])).toEqual(expect.objectContaining({ status: 'CLOSED', stateReason: 'ISSUER_REJECTED', last4: null }));
    // A replayed task finds the card decided and does nothing.
    expect(when(given([requested, issued]), reject)).toEqual([]);
    expect(when(given([requested, rejected]), issue)).toEqual([]);
    expect(when(given([]), issue)).toEqual([]);
  });

  it('allows exactly the transitions of SPEC.md\'s table', () => {
    const allowed: Array<[CardLifecycleState, RequestableCardState, CardEvent['type']]> = [
      ['ACTIVE', 'FROZEN', 'CardFrozen'],
      ['FROZEN', 'ACTIVE', 'CardUnfrozen'],
      ['ACTIVE', 'CLOSED', 'CardClosed'],
      ['FROZEN', 'CLOSED', 'CardClosed'],
    ];
    for (const [from, to, eventType] of allowed) {
      const events = when(given(inState[from]), update({ state: to }));
      expect(events.map((event) => event.type)).toEqual([eventType]);
      expect(given([...inState[from], ...events]).status).toBe(to);
    }
    const closing = when(given(inState.FROZEN), update({ state: 'CLOSED' }))[0];
    expect(closing).toEqual({ type: 'CardClosed', data: { ...ref, previousState: 'FROZEN', reason: 'CLOSED_BY_PLATFORM', closedAt: LATER } });
    expect(given([...inState.FROZEN, closing])).toEqual(expect.objectContaining({ status: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', updatedAt: LATER }));
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
      expect(errorOf(() => when(given(inState[from]), update({ state: to })))).toEqual({
        code: 'INVALID_STATE_TRANSITION',
        details: { cardId: CARD, from, to },
      });
    }
  });

  it('a closed card: CARD_ALREADY_CLOSED for a request for CLOSED, CARD_NOT_MUTABLE for any other mutation', () => {
    for (const history of [inState.CLOSED, [requested, rejected]]) {
      const state = given(history);
      expect(errorOf(() => when(state, update({ state: 'CLOSED' })))?.code).toBe('CARD_ALREADY_CLOSED');
      expect(errorOf(() => when(state, update({ state: 'CLOSED', maxSpendPerTransaction: 5 })))?.code).toBe('CARD_ALREADY_CLOSED');
      expect(errorOf(() => when(state, update({ state: 'ACTIVE' })))?.code).toBe('CARD_NOT_MUTABLE');
      expect(errorOf(() => when(state, update({ state: 'FROZEN' })))?.code).toBe('CARD_NOT_MUTABLE');
      expect(errorOf(() => when(state, update({ fundingSources: [USDB_ACCOUNT] })))?.code).toBe('CARD_NOT_MUTABLE');
      expect(errorOf(() => when(state, update({ maxSpendPerTransaction: null })))?.code).toBe('CARD_NOT_MUTABLE');
    }
  });

  it('records funding-source and spend-limit changes in any open state, nothing when nothing changes', () => {
    for (const from of ['PROCESSING', 'ACTIVE', 'FROZEN'] as const) {
      const state = given(inState[from]);
      expect(when(state, update({ fundingSources: [USDB_ACCOUNT, USD_ACCOUNT], maxSpendPerTransaction: 5_000 }))).toEqual([
        { type: 'CardFundingSourcesChanged', data: { ...ref, previousFundingSources: [USD_ACCOUNT], fundingSources: [USDB_ACCOUNT, USD_ACCOUNT], changedAt: LATER } },
        { type: 'CardSpendLimitChanged', data: { ...ref, previousMaxSpendPerTransaction: null, maxSpendPerTransaction: 5_000, changedAt: LATER } },
      ]);
      expect(when(state, update({ fundingSources: [USD_ACCOUNT], maxSpendPerTransaction: null }))).toEqual([]);
    }
    const limited = given([...inState.ACTIVE, { type: 'CardSpendLimitChanged', data: { ...ref, previousMaxSpendPerTransaction: null, maxSpendPerTransaction: 700, changedAt: NOW } }]);
    expect(limited).toEqual(expect.objectContaining({ maxSpendPerTransaction: 700 }));
    expect(when(limited, update({ maxSpendPerTransaction: null }))).toEqual([
      { type: 'CardSpendLimitChanged', data: { ...ref, previousMaxSpendPerTransaction: 700, maxSpendPerTransaction: null, changedAt: LATER } },
    ]);
  });

  it('field changes come before the closing, so nothing ever follows CardClosed', () => {
    const events = when(given(inState.ACTIVE), update({ state: 'CLOSED', maxSpendPerTransaction: 100 }));
    expect(events.map((event) => event.type)).toEqual(['CardSpendLimitChanged', 'CardClosed']);
  });

  it('a refused transition records none of the other changes of the same request', () => {
    expect(errorOf(() => when(given(inState.ACTIVE), update({ state: 'ACTIVE', maxSpendPerTransaction: 100 })))?.code).toBe('INVALID_STATE_TRANSITION');
  });

  it('answers NOT_FOUND for an unknown card and for another platform\'s card', () => {
    expect(errorOf(() => when(given([]), update({ state: 'FROZEN' })))?.code).toBe('REFERENCE_NOT_FOUND');
    expect(errorOf(() => when(given(inState.ACTIVE), update({ state: 'FROZEN' }, 'platform-b')))?.code).toBe('REFERENCE_NOT_FOUND');
  });
});
