import { TestApp, startTestApp } from '../../support/test-app';
import { uniqueId } from '../../support/customer-fixtures';
import { Cardholder, activeCard, approvedCardholder, cardInState, issueCard } from './card-fixtures';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `PATCH /cards/{id}`: every transition of SPEC.md's table, every refusal, funding sources, spend limits, audit history. */
describe('PATCH /cards/{id}', () => {
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
  const patch = (cardId: string, body: unknown) => api().patch(`/cards/${cardId}`).send(body as object);
  const history = async (cardId: string): Promise<any[]> => (await api().get('/audit/events').query({ resourceId: cardId }).expect(200)).body.data;
  const conflict = (code: string, message: string, details: Record<string, unknown>) => ({ status: 409, code, message, details });

  it('ACTIVE -> FROZEN -> ACTIVE -> FROZEN -> CLOSED, each answered with the card as it now is', async () => {
    const card = await activeCard(api(), holder);
    const frozen = await patch(card.id, { state: 'FROZEN' }).expect(200);
    expect(frozen.body).toEqual({ ...card, state: 'FROZEN', updatedAt: expect.stringMatching(ISO) });
    expect((await api().get(`/cards/${card.id}`).expect(200)).body).toEqual(frozen.body);
    const unfrozen = await patch(card.id, { state: 'ACTIVE' }).expect(200);
    expect(unfrozen.body).toEqual({ ...card, state: 'ACTIVE', updatedAt: expect.stringMatching(ISO) });
    await patch(card.id, { state: 'FROZEN' }).expect(200);
    const closed = await patch(card.id, { state: 'CLOSED' }).expect(200);
    expect(closed.body).toEqual({ ...card, state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', updatedAt: expect.stringMatching(ISO) });
    expect((await api().get(`/cards/${card.id}`).expect(200)).body).toEqual(closed.body);
    const events = await history(card.id);
    expect(events.map((event) => event.type)).toEqual(['CardIssuanceRequested', 'CardIssued', 'CardFrozen', 'CardUnfrozen', 'CardFrozen', 'CardClosed']);
    expect(events[5].data).toEqual({ cardId: card.id, platformId: testApp.platform.platformId, previousState: 'FROZEN', reason: 'CLOSED_BY_PLATFORM', closedAt: closed.body.updatedAt });
  });

  it('ACTIVE -> CLOSED directly', async () => {
    const card = await activeCard(api(), holder);
    const closed = await patch(card.id, { state: 'CLOSED' }).expect(200);
    expect(closed.body).toEqual({ ...card, state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', updatedAt: expect.stringMatching(ISO) });
    expect((await history(card.id)).at(-1).data.previousState).toBe('ACTIVE');
  });

  it('409 INVALID_STATE_TRANSITION for a transition not listed: the state the card is already in', async () => {
    const card = await activeCard(api(), holder);
    const same = await patch(card.id, { state: 'ACTIVE' }).expect(409);
    expect(same.body).toEqual(conflict('INVALID_STATE_TRANSITION', 'A card cannot go from ACTIVE to ACTIVE', { cardId: card.id, from: 'ACTIVE', to: 'ACTIVE' }));
    await patch(card.id, { state: 'FROZEN' }).expect(200);
    const frozenAgain = await patch(card.id, { state: 'FROZEN', maxSpendPerTransaction: 10 }).expect(409);
    expect(frozenAgain.body).toEqual(conflict('INVALID_STATE_TRANSITION', 'A card cannot go from FROZEN to FROZEN', { cardId: card.id, from: 'FROZEN', to: 'FROZEN' }));
    // The refused request changed nothing, not even its other field.
    expect((await api().get(`/cards/${card.id}`).expect(200)).body.maxSpendPerTransaction).toBeNull();
  });

  it('409 INVALID_STATE_TRANSITION for any state change of a PROCESSING card; its funding and limit may change', async () => {
    const pending = await issueCard(api(), holder, { platformCardId: uniqueId('p').concat('-001') });
    for (const state of ['ACTIVE', 'FROZEN', 'CLOSED']) {
      const response = await patch(pending.id, { state }).expect(409);
      expect(response.body).toEqual(
        conflict('INVALID_STATE_TRANSITION', `A card cannot go from PROCESSING to ${state}`, { cardId: pending.id, from: 'PROCESSING', to: state }),
      );
    }
    const changed = await patch(pending.id, { fundingSources: [holder.accounts.USDC.id], maxSpendPerTransaction: 1_000 }).expect(200);
    expect(changed.body).toEqual({
      ...pending,
      fundingSources: [holder.accounts.USDC.id],
      maxSpendPerTransaction: 1_000,
      updatedAt: expect.stringMatching(ISO),
    });
  });

  it('a closed card: 409 CARD_ALREADY_CLOSED for a request for CLOSED, 409 CARD_NOT_MUTABLE for any other mutation', async () => {
    const card = await activeCard(api(), holder);
    const closed = (await patch(card.id, { state: 'CLOSED' }).expect(200)).body;
    const already = await patch(card.id, { state: 'CLOSED' }).expect(409);
    expect(already.body).toEqual(conflict('CARD_ALREADY_CLOSED', 'The card is already closed', { cardId: card.id }));
    expect((await patch(card.id, { state: 'CLOSED', maxSpendPerTransaction: 5 }).expect(409)).body.code).toBe('CARD_ALREADY_CLOSED');
    const notMutable = conflict('CARD_NOT_MUTABLE', 'A closed card cannot be changed', { cardId: card.id, state: 'CLOSED' });
    for (const body of [
      { state: 'ACTIVE' },
      { state: 'FROZEN' },
      { fundingSources: [holder.accounts.USDB.id] },
      { maxSpendPerTransaction: 100 },
      { maxSpendPerTransaction: null },
      // Even a funding source that would be refused: the closed card is the answer.
      { fundingSources: ['InternalAccount:0199a000-0000-7000-8000-000000000abc'] },
    ]) {
      expect((await patch(card.id, body).expect(409)).body).toEqual(notMutable);
    }
    expect((await api().get(`/cards/${card.id}`).expect(200)).body).toEqual(closed);
    expect((await history(card.id)).map((event) => event.type)).toEqual(['CardIssuanceRequested', 'CardIssued', 'CardClosed']);
  });

  it('a card the issuer rejected is CLOSED like any other: CARD_ALREADY_CLOSED, CARD_NOT_MUTABLE', async () => {
    const created = await issueCard(api(), holder, { platformCardId: uniqueId('r').concat('-002') });
    const rejected = await cardInState(api(), created.id, 'CLOSED');
    expect((await patch(rejected.id, { state: 'CLOSED' }).expect(409)).body.code).toBe('CARD_ALREADY_CLOSED');
    expect((await patch(rejected.id, { state: 'ACTIVE' }).expect(409)).body.code).toBe('CARD_NOT_MUTABLE');
    expect((await patch(rejected.id, { maxSpendPerTransaction: 1 }).expect(409)).body.code).toBe('CARD_NOT_MUTABLE');
  });

  it('replaces funding sources (ACTIVE and FROZEN cards) and sets, changes and removes the spend limit; no-ops record nothing', async () => {
    const card = await activeCard(api(), holder);
    const funded = await patch(card.id, { fundingSources: [holder.accounts.USDB.id, holder.accounts.USD.id] }).expect(200);
    expect(funded.body).toEqual({ ...card, fundingSources: [holder.accounts.USDB.id, holder.accounts.USD.id], updatedAt: expect.stringMatching(ISO) });
    const limited = await patch(card.id, { maxSpendPerTransaction: 5_000 }).expect(200);
    expect(limited.body.maxSpendPerTransaction).toBe(5_000);
    await patch(card.id, { state: 'FROZEN' }).expect(200);
    const frozenChange = await patch(card.id, { maxSpendPerTransaction: 7_500, fundingSources: [holder.accounts.USDC.id] }).expect(200);
    expect(frozenChange.body).toEqual(expect.objectContaining({ state: 'FROZEN', maxSpendPerTransaction: 7_500, fundingSources: [holder.accounts.USDC.id] }));
    const removed = await patch(card.id, { maxSpendPerTransaction: null }).expect(200);
    expect(removed.body.maxSpendPerTransaction).toBeNull();
    const before = await history(card.id);
    const noop = await patch(card.id, { maxSpendPerTransaction: null, fundingSources: [holder.accounts.USDC.id] }).expect(200);
    expect(noop.body).toEqual(removed.body);
    expect(await history(card.id)).toHaveLength(before.length);
    expect(before.map((event) => event.type)).toEqual([
      'CardIssuanceRequested', 'CardIssued', 'CardFundingSourcesChanged', 'CardSpendLimitChanged', 'CardFrozen',
      'CardFundingSourcesChanged', 'CardSpendLimitChanged', 'CardSpendLimitChanged',
    ]);
    expect(before[6].data).toEqual({
      cardId: card.id, platformId: testApp.platform.platformId, previousMaxSpendPerTransaction: 5_000, maxSpendPerTransaction: 7_500, changedAt: frozenChange.body.updatedAt,
    });
  });

  it('a change and a closing in one request: the change is recorded first, then the card closes', async () => {
    const card = await activeCard(api(), holder);
    const response = await patch(card.id, { state: 'CLOSED', maxSpendPerTransaction: 10 }).expect(200);
    expect(response.body).toEqual(expect.objectContaining({ state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', maxSpendPerTransaction: 10 }));
    expect((await history(card.id)).map((event) => event.type).slice(-2)).toEqual(['CardSpendLimitChanged', 'CardClosed']);
  });

  it('new funding sources are checked like on issuance: 400 on the entry for an unknown one or another customer\'s', async () => {
    const card = await activeCard(api(), holder);
    const unknownId = 'InternalAccount:0199a000-0000-7000-8000-000000000abc';
    const unknown = await patch(card.id, { fundingSources: [unknownId] }).expect(400);
    expect(unknown.body.details).toEqual({
      errors: [{ field: 'fundingSources.0', constraint: {}, message: `${unknownId} is not an internal account of this platform` }],
      reason: 'FUNDING_SOURCE_INELIGIBLE',
    });
    const stranger = await approvedCardholder(api());
    const foreign = await patch(card.id, { fundingSources: [holder.accounts.USD.id, stranger.accounts.USDC.id] }).expect(400);
    expect(foreign.body.details.errors).toEqual([
      { field: 'fundingSources.1', constraint: {}, message: `${stranger.accounts.USDC.id} belongs to another customer` },
    ]);
    expect((await api().get(`/cards/${card.id}`).expect(200)).body).toEqual(card);
  });

  it('400 INVALID_INPUT listing every bad field; an empty body is refused; the path id is checked first', async () => {
    const card = await activeCard(api(), holder);
    const fieldsOf = (response: any) => response.body.details.errors.map((error: any) => [error.field, error.constraint]);
    const empty = await patch(card.id, {}).expect(400);
    expect(empty.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The request has invalid fields',
      details: { errors: [{ field: 'body', constraint: {}, message: 'Give at least one of state, fundingSources, maxSpendPerTransaction' }] },
    });
    const wrong = await patch(card.id, { state: 'PROCESSING', fundingSources: [], maxSpendPerTransaction: 0, platformCardId: 'new' }).expect(400);
    expect(fieldsOf(wrong)).toEqual([
      ['platformCardId', {}],
      ['state', { enum: ['ACTIVE', 'FROZEN', 'CLOSED'] }],
      ['fundingSources', {}],
      ['maxSpendPerTransaction', {}],
    ]);
    const types = await patch(card.id, { state: null, fundingSources: [holder.accounts.USD.id, 'x', holder.accounts.USD.id], maxSpendPerTransaction: '5' }).expect(400);
    expect(fieldsOf(types)).toEqual([
      ['state', {}],
      ['maxSpendPerTransaction', {}],
      ['fundingSources.1', { format: 'InternalAccount-id' }],
      ['fundingSources.2', {}],
    ]);
    expect(fieldsOf(await patch(card.id, { maxSpendPerTransaction: 9_000_000_000_000_001 }).expect(400))).toEqual([['maxSpendPerTransaction', {}]]);
    expect(fieldsOf(await patch(card.id, { state: 'frozen' }).expect(400))).toEqual([['state', { enum: ['ACTIVE', 'FROZEN', 'CLOSED'] }]]);
    expect(fieldsOf(await api().patch(`/cards/${card.id}`).send([{ state: 'FROZEN' }]).expect(400))).toEqual([['body', {}]]);
    expect(fieldsOf(await patch('Card:nope', { state: 'FROZEN' }).expect(400))).toEqual([['cardId', { format: 'Card-id' }]]);
    expect((await api().get(`/cards/${card.id}`).expect(200)).body).toEqual(card);
  });

  it('the audit history shows who did what: the platform\'s requests, the issuer task, correlation ids', async () => {
    const idempotencyKey = crypto.randomUUID();
    const created = (await api()
      .post('/cards')
      .set('Idempotency-Key', idempotencyKey)
      .send({ cardholderId: holder.customer.id, form: 'VIRTUAL', fundingSources: [holder.accounts.USD.id] })
      .expect(201)).body;
    await cardInState(api(), created.id, 'ACTIVE');
    await patch(created.id, { state: 'FROZEN' }).expect(200);
    const response = await api().get('/audit/events').query({ resourceId: created.id }).expect(200);
    expect(response.body).toEqual(expect.objectContaining({ resourceId: created.id, hasMore: false, totalCount: 3 }));
    const [requested, issued, frozen] = response.body.data;
    expect(requested).toEqual(expect.objectContaining({ type: 'CardIssuanceRequested', streamName: `card-${created.id.slice(5)}`, revision: 0 }));
    expect(requested.data).toEqual(expect.objectContaining({ cardId: created.id, cardholderId: holder.customer.id, issuerScenario: 'ISSUE' }));
    expect(requested.metadata).toEqual(expect.objectContaining({ platformId: testApp.platform.platformId, actor: `platform:${testApp.platform.clientId}`, idempotencyKey }));
    expect(issued.metadata).toEqual(expect.objectContaining({ actor: 'system:task:card.issuer-decision', correlationId: requested.metadata.correlationId, causationId: requested.eventId }));
    expect(frozen.metadata).toEqual(expect.objectContaining({ actor: `platform:${testApp.platform.clientId}` }));
    expect(frozen.metadata).not.toHaveProperty('idempotencyKey');
    expect(frozen.metadata.correlationId).not.toBe(requested.metadata.correlationId);
  });
});
