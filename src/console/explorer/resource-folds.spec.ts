import { PersonalDataKeys } from '../../infra/crypto/personal-data';
import { EvolvingDecider, FoldableEvent, ResourceFolds, categoryOf } from './resource-folds';
import { contextFolds } from './context-folds';

const CARD = 'Card:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58';
const PLATFORM = 'Platform:0199f5c2-3a10-7b8e-9c4d-5e6f7a8b9c0d';

function event(streamName: string, revision: number, type: string, data: Record<string, unknown>): FoldableEvent {
  return { streamName, revision, type, data };
}

/** A counter decider: how many events of each type. */
const counter: EvolvingDecider = {
  initialState: () => ({ count: 0 }),
  evolve: ((state: { count: number }) => ({ count: state.count + 1 })) as never,
};

describe('ResourceFolds', () => {
  const folds = new ResourceFolds(
    { Card: (events) => (events.length === 0 ? null : { id: CARD, revisions: events.map((candidate) => candidate.revision) }) },
    { token: counter },
  );

  it('folds a type with a view fold with that fold, whatever its stream', async () => {
    const events = [event('card-1', 0, 'CardIssuanceRequested', {}), event('card-1', 1, 'CardIssued', {})];
    expect(await folds.stateAfter(events, { resourceId: CARD, platformId: PLATFORM }, true)).toEqual({ state: { id: CARD, revisions: [0, 1] }, fold: 'view' });
  });

  it("folds a stream of the resource's own with its category's decider", async () => {
    const events = [event('token-1', 0, 'TokenCreated', {}), event('token-1', 1, 'TokenRevoked', {})];
    expect(await folds.stateAfter(events, { resourceId: 'Token:1', platformId: PLATFORM }, true)).toEqual({ state: { count: 2 }, fold: 'decider' });
  });

  it("merges the data of the events naming a resource kept in another's stream (no decider of its own)", async () => {
    const events = [event('token-1', 3, 'A', { a: 1, b: 1 }), event('token-1', 5, 'B', { b: 2 })];
    expect(await folds.stateAfter(events, { resourceId: 'Token:2', platformId: PLATFORM }, false)).toEqual({ state: { a: 1, b: 2 }, fold: 'events' });
    expect(await folds.stateAfter([], { resourceId: 'Session:1', platformId: PLATFORM }, true)).toEqual({ state: null, fold: 'events' });
  });

  it('names stream categories as the event store does', () => {
    expect(categoryOf('cardTransaction-019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58')).toBe('cardTransaction');
    expect(categoryOf('webhooks')).toBe('webhooks');
  });
});

describe('the contexts folds', () => {
  const folds = contextFolds({} as PersonalDataKeys);
  const stream = `card-${CARD.slice(5)}`;
  const requested = event(stream, 0, 'CardIssuanceRequested', {
    cardId: CARD,
    platformId: PLATFORM,
    cardholderId: 'Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21',
    platformCardId: 'card-1',
    form: 'VIRTUAL',
    currency: 'USD',
    fundingSources: ['InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57'],
    maxSpendPerTransaction: null,
    requestedAt: '2025-11-03T14:22:30.004Z',
  });

  it('shows a card as GET answered right after each event (null before it existed)', async () => {
    const after = await folds.stateAfter([requested], { resourceId: CARD, platformId: PLATFORM }, true);
    expect(after.fold).toBe('view');
    expect(after.state).toEqual(expect.objectContaining({ id: CARD, state: 'PROCESSING', platformCardId: 'card-1', fundingSources: requested.data.fundingSources }));
    expect((await folds.stateAfter([], { resourceId: CARD, platformId: PLATFORM }, true)).state).toBeNull();
  });

  it('folds a payment transaction with the reducers of its kind, hidden rows as null', async () => {
    const folded = await folds.stateAfter([event('quote-1', 0, 'QuoteExecutionRequested', {})], { resourceId: 'Transaction:1', platformId: PLATFORM }, false);
    expect(folded).toEqual({ state: null, fold: 'view' });
  });

  it("folds a stream of a type without a view with its context's decider", async () => {
    const reset = 'ScaFactorReset:019a4a19-1874-7c6d-8e2a-4b9f0a3d1c58';
    // No event yet: nothing to fold.
    expect(await folds.stateAfter([], { resourceId: reset, platformId: PLATFORM }, true)).toEqual({ state: null, fold: 'events' });
    const data = { resetId: reset, platformId: PLATFORM, customerId: 'Customer:1', factor: 'SMS_OTP', startedAt: '2025-11-03T14:22:30.004Z' };
    const started = await folds.stateAfter([event(`scaFactorReset-${reset.slice(15)}`, 0, 'ScaFactorResetStarted', data)], { resourceId: reset, platformId: PLATFORM }, true);
    expect(started).toEqual({ state: expect.objectContaining({ status: 'INITIATED', resetId: reset, customerId: 'Customer:1' }), fold: 'decider' });
  });
});
