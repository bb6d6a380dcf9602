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

  it('lists oldest first with the filters cardholderId, state, platformCardId, and pages with hasMore, nextCursor, totalCount', async () => {
    const platform = await testApp.createPlatform();
    const alice = await approvedCardholder(platform.api);
    const bob = await approvedCardholder(platform.api);
    const first = await activeCard(platform.api, alice);
    const pending = await issueCard(platform.api, alice, { platformCardId: uniqueId('p').concat('-001') });
    const third = await activeCard(platform.api, bob);
    const frozen = (await platform.api.patch(`/cards/${third.id}`).send({ state: 'FROZEN' }).expect(200)).body;

    const all = await platform.api.get('/cards').expect(200);
    expect(all.body).toEqual({ data: [first, pending, frozen], hasMore: false, totalCount: 3 });
    const alices = await platform.api.get('/cards').query({ cardholderId: alice.customer.id }).expect(200);
    expect(alices.body).toEqual({ data: [first, pending], hasMore: false, totalCount: 2 });
    const processing = await platform.api.get('/cards').query({ state: 'PROCESSING' }).expect(200);
    expect(processing.body).toEqual({ data: [pending], hasMore: false, totalCount: 1 });
    const bobsFrozen = await platform.api.get('/cards').query({ cardholderId: bob.customer.id, state: 'FROZEN' }).expect(200);
    expect(bobsFrozen.body.data).toEqual([frozen]);
    const bobsActive = await platform.api.get('/cards').query({ cardholderId: bob.customer.id, state: 'ACTIVE' }).expect(200);
    expect(bobsActive.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    const byPlatformCardId = await platform.api.get('/cards').query({ platformCardId: first.platformCardId }).expect(200);
    expect(byPlatformCardId.body.data).toEqual([first]);

    const page1 = await platform.api.get('/cards').query({ limit: 2 }).expect(200);
    expect(page1.body).toEqual({ data: [first, pending], hasMore: true, nextCursor: expect.any(String), totalCount: 3 });
    const page2 = await platform.api.get('/cards').query({ limit: 2, cursor: page1.body.nextCursor }).expect(200);
    expect(page2.body).toEqual({ data: [frozen], hasMore: false, totalCount: 3 });
    const filteredPage = await platform.api.get('/cards').query({ cardholderId: alice.customer.id, limit: 1 }).expect(200);
    const filteredPage2 = await platform.api.get('/cards').query({ cardholderId: alice.customer.id, limit: 1, cursor: filteredPage.body.nextCursor }).expect(200);
    expect([...filteredPage.body.data, ...filteredPage2.body.data]).toEqual([first, pending]);
    expect(filteredPage2.body.hasMore).toBe(false);
  });

  it('400 INVALID_INPUT listing every bad query parameter', async () => {
    const api = testApp.platform.api;
    const response = await api.get('/cards').query({ cardholderId: 'Card:nope', state: 'OPEN', limit: '0', cursor: '%%%', customerId: 'x' }).expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The request has invalid fields',
      details: {
        errors: [
          { field: 'customerId', constraint: 'UNKNOWN_FIELD', message: 'Unknown query parameter customerId' },
          { field: 'cardholderId', constraint: 'FORMAT', message: 'cardholderId must be a Customer:<uuid> id' },
          { field: 'state', constraint: 'ENUM', message: 'state must be one of PROCESSING, ACTIVE, FROZEN, CLOSED' },
          { field: 'limit', constraint: 'MIN', message: 'limit must be at least 1' },
          { field: 'cursor', constraint: 'FORMAT', message: 'cursor is not a cursor this service issued' },
        ],
      },
    });
    const fieldsOf = (body: any) => body.details.errors.map((error: any) => [error.field, error.constraint]);
    expect(fieldsOf((await api.get('/cards').query({ limit: '101' }).expect(400)).body)).toEqual([['limit', 'MAX']]);
    expect(fieldsOf((await api.get('/cards').query({ limit: 'ten' }).expect(400)).body)).toEqual([['limit', 'TYPE']]);
    expect(fieldsOf((await api.get('/cards?state=ACTIVE&state=FROZEN').expect(400)).body)).toEqual([['state', 'TYPE']]);
    expect(fieldsOf((await api.get('/cards').query({ platformCardId: 'x'.repeat(129) }).expect(400)).body)).toEqual([['platformCardId', 'MAX_LENGTH']]);
    // A well-formed cursor this service never issued (forged key) is refused, never a 500.
    const forged = Buffer.from(JSON.stringify({ createdAt: 'yesterday', id: 'Card:x' })).toString('base64url');
    expect(fieldsOf((await api.get('/cards').query({ cursor: forged }).expect(400)).body)).toEqual([['cursor', 'FORMAT']]);
  });

  it('GET /cards/{id}: 400 for a malformed id, 404 NOT_FOUND for an unknown one', async () => {
    const api = testApp.platform.api;
    for (const malformed of ['nope', 'Card:123', 'Customer:0199a000-0000-7000-8000-000000000001']) {
      const response = await api.get(`/cards/${malformed}`).expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'The request has invalid fields',
        details: { errors: [{ field: 'cardId', constraint: 'FORMAT', message: 'cardId must be a Card:<uuid> id' }] },
      });
    }
    const unknown = await api.get(`/cards/${UNKNOWN_CARD}`).expect(404);
    expect(unknown.body).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Card not found' });
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

    it('a platform cannot fund its card from another platform\'s account when updating it either (404)', async () => {
      const foreigner = await approvedCardholder(other.api);
      const response = await testApp.platform.api.patch(`/cards/${card.id}`).send({ fundingSources: [foreigner.accounts.USD.id] }).expect(404);
      expect(response.body).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'Funding source internal account not found',
        details: { accountIds: [foreigner.accounts.USD.id] },
      });
    });
  });
});
