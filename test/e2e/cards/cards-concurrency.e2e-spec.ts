import { TestApp, startTestApp } from '../../support/test-app';
import { Cardholder, activeCard, approvedCardholder } from './card-fixtures';

type Transition = 'ACTIVE' | 'FROZEN' | 'CLOSED';

/** Which state each state-change event leads to, and the moves SPEC.md's table allows. */
const STATE_AFTER: Record<string, string> = {
  CardIssued: 'ACTIVE',
  CardIssuanceRejected: 'CLOSED',
  CardFrozen: 'FROZEN',
  CardUnfrozen: 'ACTIVE',
  CardClosed: 'CLOSED',
};
const ALLOWED = new Set(['PROCESSING>ACTIVE', 'PROCESSING>CLOSED', 'ACTIVE>FROZEN', 'FROZEN>ACTIVE', 'ACTIVE>CLOSED', 'FROZEN>CLOSED']);

/**
 * Concurrent PATCHes of one card resolve by optimistic concurrency: each request is decided on
 * the card as the stream holds it when its append succeeds (the loser re-decides), so no update
 * is lost and none is applied to a stale state. Proved on the stored history itself.
 */
describe('concurrent PATCH /cards/{id}', () => {
  let testApp: TestApp;
  let holder: Cardholder;

  beforeAll(async () => {
    testApp = await startTestApp();
    holder = await approvedCardholder(testApp.platform.api);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const history = async (cardId: string): Promise<any[]> => (await api().get('/audit/events').query({ resourceId: cardId, limit: 100 }).expect(200)).body.data;

  it('freeze, unfreeze and close racing: a valid walk through the table, one closing, nothing after it', async () => {
    const card = await activeCard(api(), holder);
    const requested: Transition[] = Array.from({ length: 24 }, (_, index) => (['FROZEN', 'ACTIVE', 'FROZEN', 'ACTIVE', 'FROZEN', 'CLOSED'] as Transition[])[index % 6]);
    const responses = await Promise.all(requested.map((state) => api().patch(`/cards/${card.id}`).send({ state })));

    const accepted = responses.filter((response) => response.status === 200);
    for (const [index, response] of responses.entries()) {
      if (response.status === 200) {
        expect(response.body.state).toBe(requested[index]);
      } else {
        expect(response.status).toBe(409);
        expect(['INVALID_STATE_TRANSITION', 'CARD_ALREADY_CLOSED', 'CARD_NOT_MUTABLE', 'CONFLICT']).toContain(response.body.code);
      }
    }
    expect(accepted.filter((response) => response.body.state === 'CLOSED')).toHaveLength(1);

    const events = await history(card.id);
    const stateEvents = events.filter((event) => STATE_AFTER[event.type]);
    let state = 'PROCESSING';
    for (const event of stateEvents) {
      const next = STATE_AFTER[event.type];
      expect(ALLOWED.has(`${state}>${next}`)).toBe(true);
      state = next;
    }
    expect(events.at(-1).type).toBe('CardClosed');
    // Every accepted request is one event; every refused one left nothing.
    expect(stateEvents.length - 1).toBe(accepted.length);
    expect((await api().get(`/cards/${card.id}`).expect(200)).body.state).toBe('CLOSED');
  });

  it('funding-source and spend-limit updates racing: every update recorded, each on top of the one before (no lost update)', async () => {
    const card = await activeCard(api(), holder);
    const { USD, USDC, USDB } = holder.accounts;
    const lists = [[USD.id], [USDC.id], [USDB.id], [USD.id, USDC.id], [USDB.id, USD.id]];
    const limits = Array.from({ length: 10 }, (_, index) => 1_000 + index);
    const responses = await Promise.all([
      ...limits.map((maxSpendPerTransaction) => api().patch(`/cards/${card.id}`).send({ maxSpendPerTransaction })),
      ...lists.map((fundingSources) => api().patch(`/cards/${card.id}`).send({ fundingSources })),
    ]);
    for (const [index, response] of responses.entries()) {
      expect(response.status).toBe(200);
      if (index < limits.length) expect(response.body.maxSpendPerTransaction).toBe(limits[index]);
      else expect(response.body.fundingSources).toEqual(lists[index - limits.length]);
    }

    const events = await history(card.id);
    const limitEvents = events.filter((event) => event.type === 'CardSpendLimitChanged');
    const fundingEvents = events.filter((event) => event.type === 'CardFundingSourcesChanged');
    // All limits differ from each other and from "none": each request was a real change.
    expect(limitEvents.map((event) => event.data.maxSpendPerTransaction).sort()).toEqual(limits);
    // Each change names, as its previous value, exactly the value the change before it set.
    let previousLimit: number | null = null;
    for (const event of limitEvents) {
      // The audit answer leaves "no limit" (null) out.
      expect(event.data.previousMaxSpendPerTransaction ?? null).toBe(previousLimit);
      previousLimit = event.data.maxSpendPerTransaction;
    }
    let previousSources: string[] = [USD.id];
    for (const event of fundingEvents) {
      expect(event.data.previousFundingSources).toEqual(previousSources);
      previousSources = event.data.fundingSources;
    }
    const final = (await api().get(`/cards/${card.id}`).expect(200)).body;
    expect(final.maxSpendPerTransaction).toBe(previousLimit);
    expect(final.fundingSources).toEqual(previousSources);
  });

  it('a closing racing with limit updates: updates decided before it succeed, later ones get CARD_NOT_MUTABLE', async () => {
    const card = await activeCard(api(), holder);
    const limits = Array.from({ length: 12 }, (_, index) => 500 + index);
    const closeAt = 5;
    const requests = limits.map((maxSpendPerTransaction, index) =>
      index === closeAt ? api().patch(`/cards/${card.id}`).send({ state: 'CLOSED' }) : api().patch(`/cards/${card.id}`).send({ maxSpendPerTransaction }),
    );
    const responses = await Promise.all(requests);
    expect(responses[closeAt].status).toBe(200);
    const updates = responses.filter((_response, index) => index !== closeAt);
    for (const response of updates) {
      if (response.status !== 200) {
        expect(response.status).toBe(409);
        expect(['CARD_NOT_MUTABLE', 'CONFLICT']).toContain(response.body.code);
      }
    }
    const events = await history(card.id);
    const closedAt = events.findIndex((event) => event.type === 'CardClosed');
    expect(closedAt).toBe(events.length - 1);
    const limitEvents = events.filter((event) => event.type === 'CardSpendLimitChanged');
    expect(limitEvents).toHaveLength(updates.filter((response) => response.status === 200).length);
    const final = (await api().get(`/cards/${card.id}`).expect(200)).body;
    expect(final.state).toBe('CLOSED');
    expect(final.maxSpendPerTransaction).toBe(limitEvents.at(-1)?.data.maxSpendPerTransaction ?? null);
    expect(responses[closeAt].body.maxSpendPerTransaction).toBe(final.maxSpendPerTransaction);
  });
});
