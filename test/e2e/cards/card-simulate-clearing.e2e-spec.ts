import { fund } from '../../support/customer-fixtures';
import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { approvedCardholder } from './card-fixtures';
import { ISO, authorize, balances, eventTypes, fundedCard, history, simulate, statusOf } from './card-simulate-support';

/**
 * `POST /sandbox/cards/{id}/simulate/clearing`: partial and full clearings captured from the hold,
 * over-authorization clearings and their post-hoc pull (confirmed, or FAILED -> EXCEPTION), expiry
 * (amount 0), wrong statuses, other cards' transactions, and concurrent clearings.
 */
describe('POST /sandbox/cards/{id}/simulate/clearing', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const clear = (cardId: string, cardTransactionId: string, amount: number) => simulate(api(), cardId, 'clearing', { cardTransactionId, amount });
  const clearing = (cardId: string, cardTransactionId: string, amount: number) => api().post(`/sandbox/cards/${cardId}/simulate/clearing`).send({ cardTransactionId, amount });
  const setup = async (usdCents: number, authorizedCents: number, descriptor?: string) => {
    const holder = await approvedCardholder(api());
    const card = await fundedCard(api(), holder, usdCents);
    const transactionId = await authorize(api(), card.id, authorizedCents, descriptor);
    return { holder, card, transactionId, accountId: holder.accounts.USD.id as string };
  };

  it('a partial clearing captures from the hold (PARTIALLY_SETTLED); the rest settles it (SETTLED)', async () => {
    const { card, transactionId, accountId } = await setup(10_000, 1_000);
    const token = await clear(card.id, transactionId, 400);
    const [, first] = await history(api(), transactionId);
    expect(first.type).toBe('CardTransactionCleared');
    expect(first.data).toEqual({
      transactionId,
      platformId: testApp.platform.platformId,
      cardId: card.id,
      clearingId: token,
      issuerTransactionToken: token,
      amountCents: 400,
      capturedUnits: 400,
      creditedUnits: 0,
      settled: false,
      clearedAt: expect.stringMatching(ISO),
    });
    expect(await balances(api(), accountId)).toEqual({ available: 9_000, held: 600 });
    expect(await statusOf(api(), transactionId)).toEqual({ status: 'PARTIALLY_SETTLED', authorized: 1_000, settled: 400 });
    await clear(card.id, transactionId, 600);
    expect(await statusOf(api(), transactionId)).toEqual({ status: 'SETTLED', authorized: 1_000, settled: 1_000 });
    const last = (await history(api(), transactionId)).filter((event) => event.type === 'CardTransactionCleared')[1];
    expect(last.data).toMatchObject({ amountCents: 600, capturedUnits: 600, settled: true });
    expect(await balances(api(), accountId)).toEqual({ available: 9_000, held: 0 });
    // SETTLED takes no more clearings.
    const again = await clearing(card.id, transactionId, 1).expect(400);
    expect(again.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'A clearing needs a transaction in AUTHORIZED or PARTIALLY_SETTLED; this one is SETTLED',
      details: {
        errors: [{ field: 'cardTransactionId', constraint: {}, message: 'A clearing needs a transaction in AUTHORIZED or PARTIALLY_SETTLED; this one is SETTLED' }],
        reason: 'INVALID_STATE',
        status: 'SETTLED',
        cardTransactionId: transactionId,
      },
    });
  });

  it('over the authorized amount: the hold is captured and the rest pulled from available (post-hoc pull CONFIRMED)', async () => {
    const { card, transactionId, accountId } = await setup(10_000, 1_000);
    await clear(card.id, transactionId, 1_200);
    const cleared = (await history(api(), transactionId)).find((event) => event.type === 'CardTransactionCleared');
    expect(cleared.data).toMatchObject({
      amountCents: 1_200,
      capturedUnits: 1_000,
      postHocPull: { pullId: `${transactionId}:clearing:${cleared.data.clearingId}:pull`, amountUnits: 200, status: 'CONFIRMED' },
      settled: true,
    });
    expect(await balances(api(), accountId)).toEqual({ available: 8_800, held: 0 });
    expect(await statusOf(api(), transactionId)).toEqual({ status: 'SETTLED', authorized: 1_000, settled: 1_200 });
  });

  it('over the authorized amount on a short account: the hold is captured, the post-hoc pull FAILED -> EXCEPTION', async () => {
    const { card, transactionId, accountId } = await setup(1_050, 1_000);
    await clear(card.id, transactionId, 1_100);
    const cleared = (await history(api(), transactionId)).find((event) => event.type === 'CardTransactionCleared');
    expect(cleared.data).toMatchObject({ capturedUnits: 1_000, postHocPull: { amountUnits: 100, status: 'FAILED' }, settled: true });
    expect(await balances(api(), accountId)).toEqual({ available: 50, held: 0 });
    expect(await statusOf(api(), transactionId)).toEqual({ status: 'EXCEPTION', authorized: 1_000, settled: 1_100 });
    const after = await clearing(card.id, transactionId, 1).expect(400);
    expect(after.body.details).toMatchObject({ reason: 'INVALID_STATE', status: 'EXCEPTION' });
  });

  it('a 006 authorization fails its post-hoc pull whatever the balance', async () => {
    const { card, transactionId, accountId } = await setup(10_000, 1_000, 'HOTEL 006');
    await clear(card.id, transactionId, 1_500);
    const cleared = (await history(api(), transactionId)).find((event) => event.type === 'CardTransactionCleared');
    expect(cleared.data.postHocPull).toMatchObject({ amountUnits: 500, status: 'FAILED' });
    expect(await balances(api(), accountId)).toEqual({ available: 9_000, held: 0 });
  });

  it('amount 0 expires the authorization: what is held goes back, SETTLED; also after a partial clearing', async () => {
    const { card, transactionId, accountId } = await setup(10_000, 1_000);
    const token = await clear(card.id, transactionId, 0);
    const expired = (await history(api(), transactionId)).find((event) => event.type === 'CardAuthorizationExpired');
    expect(expired.data).toEqual({
      transactionId,
      platformId: testApp.platform.platformId,
      cardId: card.id,
      clearingId: token,
      issuerTransactionToken: token,
      releasedUnits: 1_000,
      expiredAt: expect.stringMatching(ISO),
    });
    expect(await balances(api(), accountId)).toEqual({ available: 10_000, held: 0 });
    // Closed against its account with nothing cleared: SETTLED without a settled amount.
    expect(await statusOf(api(), transactionId)).toEqual({ status: 'SETTLED', authorized: 1_000 });
    await clearing(card.id, transactionId, 0).expect(400);

    const partial = await authorize(api(), card.id, 1_000);
    await clear(card.id, partial, 300);
    await clear(card.id, partial, 0);
    expect(await eventTypes(api(), partial)).toEqual(expect.arrayContaining(['CardTransactionAuthorized', 'CardTransactionCleared', 'CardAuthorizationExpired']));
    expect(await balances(api(), accountId)).toEqual({ available: 9_700, held: 0 });
  });

  it('two concurrent clearings of one authorization never capture more than it holds', async () => {
    const { card, transactionId, accountId } = await setup(10_000, 1_000);
    await Promise.all([clear(card.id, transactionId, 600), clear(card.id, transactionId, 600)]);
    const clearings = (await history(api(), transactionId)).filter((event) => event.type === 'CardTransactionCleared').map((event) => event.data);
    expect(clearings.map((data) => data.capturedUnits)).toEqual([600, 400]);
    expect(clearings[1]).toMatchObject({ postHocPull: { amountUnits: 200, status: 'CONFIRMED' }, settled: true });
    expect(await statusOf(api(), transactionId)).toEqual({ status: 'SETTLED', authorized: 1_000, settled: 1_200 });
    expect(await balances(api(), accountId)).toEqual({ available: 8_800, held: 0 });
  });

  it('404 for a transaction of another card, a declined one, an unknown one; 400 for a malformed id or a negative amount', async () => {
    const { holder, card, transactionId } = await setup(10_000, 1_000);
    const otherCard = await fundedCard(api(), holder, 0);
    const notFound = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Card transaction not found' };
    expect((await clearing(otherCard.id, transactionId, 10).expect(404)).body).toEqual(notFound);
    const declined = await authorize(api(), card.id, 10, 'SHOP 003');
    expect((await clearing(card.id, declined, 10).expect(404)).body).toEqual(notFound);
    // A declined authorization shows no transaction either.
    await api().get(`/transactions/${declined}`).expect(404);
    expect((await clearing(card.id, 'CardTransaction:0199a000-0000-7000-8000-0000000000ff', 10).expect(404)).body).toEqual(notFound);
    const bad = await clearing(card.id, 'Card:0199a000-0000-7000-8000-0000000000ff', -1).expect(400);
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['amount', 'cardTransactionId']);
  });

  describe('isolation', () => {
    let other: TestPlatform;

    beforeAll(async () => {
      other = await testApp.createPlatform();
    });

    it('another platform clearing this platform\'s transaction on its own card: 404, nothing moves', async () => {
      const { transactionId, accountId } = await setup(10_000, 1_000);
      const foreignHolder = await approvedCardholder(other.api);
      await fund(other.api, foreignHolder.accounts.USD.id, 10_000);
      const foreignCard = await fundedCard(other.api, foreignHolder, 0);
      const response = await other.api.post(`/sandbox/cards/${foreignCard.id}/simulate/clearing`).send({ cardTransactionId: transactionId, amount: 1_000 }).expect(404);
      expect(response.body.message).toBe('Card transaction not found');
      expect(await balances(api(), accountId)).toEqual({ available: 9_000, held: 1_000 });
    });
  });
});
