import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { uniqueId } from '../../support/customer-fixtures';
import { activeCard, approvedCardholder, cardInState, issueCard } from './card-fixtures';

const UNKNOWN_CARD = 'Card:0199a000-0000-7000-8000-0000000000ff';

/** `GET /cards` (filters, pagination, bad query parameters), `GET /cards/{id}`, and isolation between platforms. */
describe('GET /cards and GET /cards/{id}', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('lists newest first (sortOrder asc for oldest first) with the filters cardholderId, accountId, state, platformCardId, and pages with hasMore, nextCursor, totalCount', async () => {
    const platform = await testApp.createPlatform();
    const alice = await approvedCardholder(platform.api);
    const bob = await approvedCardholder(platform.api);
    const first = await activeCard(platform.api, alice);
    const pending = await issueCard(platform.api, alice, { platformCardId: uniqueId('p').concat('-001') });
    const third = await activeCard(platform.api, bob);
    const frozen = (await platform.api.patch(`/cards/${third.id}`).send({ state: 'FROZEN' }).expect(200)).body;

    const all = await platform.api.get('/cards').expect(200);
    expect(all.body).toEqual({ data: [frozen, pending, first], hasMore: false, totalCount: 3 });
    const oldestFirst = await platform.api.get('/cards').query({ sortOrder: 'asc' }).expect(200);
    expect(oldestFirst.body).toEqual({ data: [first, pending, frozen], hasMore: false, totalCount: 3 });
    expect((await platform.api.get('/cards').query({ sortOrder: 'desc' }).expect(200)).body).toEqual(all.body);
    const alices = await platform.api.get('/cards').query({ cardholderId: alice.customer.id, sortOrder: 'asc' }).expect(200);
    expect(alices.body).toEqual({ data: [first, pending], hasMore: false, totalCount: 2 });
    // accountId: the cards funded from that internal account.
    const fundedFromBobsUsd = await platform.api.get('/cards').query({ accountId: bob.accounts.USD.id }).expect(200);
    expect(fundedFromBobsUsd.body).toEqual({ data: [frozen], hasMore: false, totalCount: 1 });
    const processing = await platform.api.get('/cards').query({ state: 'PROCESSING' }).expect(200);
    expect(processing.body).toEqual({ data: [pending], hasMore: false, totalCount: 1 });
    const bobsFrozen = await platform.api.get('/cards').query({ cardholderId: bob.customer.id, state: 'FROZEN' }).expect(200);
    expect(bobsFrozen.body.data).toEqual([frozen]);
    const bobsActive = await platform.api.get('/cards').query({ cardholderId: bob.customer.id, state: 'ACTIVE' }).expect(200);
    expect(bobsActive.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    const byPlatformCardId = await platform.api.get('/cards').query({ platformCardId: first.platformCardId }).expect(200);
    expect(byPlatformCardId.body.data).toEqual([first]);

    const page1 = await platform.api.get('/cards').query({ limit: 2 }).expect(200);
    expect(page1.body).toEqual({ data: [frozen, pending], hasMore: true, nextCursor: expect.any(String), totalCount: 3 });
    const page2 = await platform.api.get('/cards').query({ limit: 2, cursor: page1.body.nextCursor }).expect(200);
    expect(page2.body).toEqual({ data: [first], hasMore: false, totalCount: 3 });
    const ascPage1 = await platform.api.get('/cards').query({ limit: 2, sortOrder: 'asc' }).expect(200);
    const ascPage2 = await platform.api.get('/cards').query({ limit: 2, sortOrder: 'asc', cursor: ascPage1.body.nextCursor }).expect(200);
    expect([...ascPage1.body.data, ...ascPage2.body.data]).toEqual([first, pending, frozen]);
    const filteredPage = await platform.api.get('/cards').query({ cardholderId: alice.customer.id, limit: 1 }).expect(200);
    const filteredPage2 = await platform.api.get('/cards').query({ cardholderId: alice.customer.id, limit: 1, cursor: filteredPage.body.nextCursor }).expect(200);
    expect([...filteredPage.body.data, ...filteredPage2.body.data]).toEqual([pending, first]);
    expect(filteredPage2.body.hasMore).toBe(false);
  });

  it('400 INVALID_INPUT listing every bad query parameter', async () => {
    const api = testApp.platform.api;
    const response = await api.get('/cards').query({ cardholderId: 'Card:nope', state: 'OPEN', limit: '0', cursor: '%%%', customerId: 'x', accountId: 'x', sortOrder: 'up' }).expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The request has invalid fields',
      details: {
        errors: [
          { field: 'customerId', constraint: {}, message: 'Unknown query parameter customerId' },
          { field: 'cardholderId', constraint: { format: 'Customer-id' }, message: 'cardholderId must be a Customer:<uuid> id' },
          { field: 'accountId', constraint: { format: 'InternalAccount-id' }, message: 'accountId must be a InternalAccount:<uuid> id' },
          { field: 'state', constraint: { enum: ['PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'] }, message: 'state must be one of PROCESSING, ACTIVE, FROZEN, CLOSED' },
          { field: 'sortOrder', constraint: { enum: ['asc', 'desc'] }, message: 'sortOrder must be one of asc, desc' },
          { field: 'limit', constraint: {}, message: 'limit must be at least 1' },
          { field: 'cursor', constraint: {}, message: 'cursor is not a cursor this service issued' },
        ],
      },
    });
    const fieldsOf = (body: any) => body.details.errors.map((error: any) => [error.field, error.constraint]);
    expect(fieldsOf((await api.get('/cards').query({ limit: '101' }).expect(400)).body)).toEqual([['limit', {}]]);
    expect(fieldsOf((await api.get('/cards').query({ limit: 'ten' }).expect(400)).body)).toEqual([['limit', {}]]);
    expect(fieldsOf((await api.get('/cards?state=ACTIVE&state=FROZEN').expect(400)).body)).toEqual([['state', {}]]);
    expect(fieldsOf((await api.get('/cards').query({ platformCardId: 'x'.repeat(129) }).expect(400)).body)).toEqual([['platformCardId', { maxLength: 128 }]]);
    // A well-formed cursor this service never issued (forged key) is refused, never a 500.
    const forged = Buffer.from(JSON.stringify({ createdAt: 'yesterday', id: 'Card:x' })).toString('base64url');
    expect(fieldsOf((await api.get('/cards').query({ cursor: forged }).expect(400)).body)).toEqual([['cursor', {}]]);
  });

  it('GET /cards/{id}: 404 REFERENCE_NOT_FOUND for an unknown or malformed id (GET declares no 400); PATCH 400 for a malformed one', async () => {
    const api = testApp.platform.api;
    const unknown = await api.get(`/cards/${UNKNOWN_CARD}`).expect(404);
    expect(unknown.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Card not found' });
    for (const malformed of ['nope', 'Card:123', 'Customer:0199a000-0000-7000-8000-000000000001']) {
      expect((await api.get(`/cards/${malformed}`).expect(404)).body).toEqual(unknown.body);
      const response = await api.patch(`/cards/${malformed}`).send({ state: 'FROZEN' }).expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'The request has invalid fields',
        details: { errors: [{ field: 'cardId', constraint: { format: 'Card-id' }, message: 'cardId must be a Card:<uuid> id' }] },
      });
    }
    const unknownPatch = await api.patch(`/cards/${UNKNOWN_CARD}`).send({ state: 'FROZEN' }).expect(404);
    expect(unknownPatch.body).toEqual(unknown.body);
  });

  describe('isolation between platforms', () => {
    let other: TestPlatform;
    let card: any;
    let holder: Awaited<ReturnType<typeof approvedCardholder>>;

    beforeAll(async () => {
      other = await testApp.createPlatform();
      holder = await approvedCardholder(testApp.platform.api);
      card = await activeCard(testApp.platform.api, holder);
    });

    it('another platform\'s card answers exactly like an unknown card, on GET, PATCH and the audit history', async () => {
      const unknownGet = await other.api.get(`/cards/${UNKNOWN_CARD}`).expect(404);
      expect((await other.api.get(`/cards/${card.id}`).expect(404)).body).toEqual(unknownGet.body);
      const unknownPatch = await other.api.patch(`/cards/${UNKNOWN_CARD}`).send({ state: 'CLOSED' }).expect(404);
      expect((await other.api.patch(`/cards/${card.id}`).send({ state: 'CLOSED' }).expect(404)).body).toEqual(unknownPatch.body);
      expect((await other.api.patch(`/cards/${card.id}`).send({ maxSpendPerTransaction: 1 }).expect(404)).body).toEqual(unknownPatch.body);
      await other.api.get('/audit/events').query({ resourceId: card.id }).expect(404);
      // Untouched by the attempts.
      expect((await testApp.platform.api.get(`/cards/${card.id}`).expect(200)).body).toEqual(card);
    });

    it('lists never show another platform\'s cards, even filtered by its cardholder or platformCardId', async () => {
      const mine = await approvedCardholder(other.api);
      const own = await issueCard(other.api, mine);
      const listed = await other.api.get('/cards').query({ limit: 100 }).expect(200);
      expect(listed.body).toEqual({ data: [own], hasMore: false, totalCount: 1 });
      expect((await other.api.get('/cards').query({ cardholderId: holder.customer.id }).expect(200)).body.totalCount).toBe(0);
      expect((await other.api.get('/cards').query({ platformCardId: card.platformCardId }).expect(200)).body.totalCount).toBe(0);
      await cardInState(other.api, own.id, 'ACTIVE');
    });

    it('a platform cannot fund its card from another platform\'s account when updating it either (400 on the entry)', async () => {
      const foreigner = await approvedCardholder(other.api);
      const response = await testApp.platform.api.patch(`/cards/${card.id}`).send({ fundingSources: [foreigner.accounts.USD.id] }).expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: expect.any(String),
        details: {
          errors: [{ field: 'fundingSources.0', constraint: {}, message: `${foreigner.accounts.USD.id} is not an internal account of this platform` }],
          reason: 'FUNDING_SOURCE_INELIGIBLE',
        },
      });
    });
  });
});
