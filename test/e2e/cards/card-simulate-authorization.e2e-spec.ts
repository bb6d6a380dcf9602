import { fund, uniqueId } from '../../support/customer-fixtures';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { Cardholder, approvedCardholder, issueCard } from './card-fixtures';
import { ISO, authorizationBody, authorize, balances, eventOf, eventTypes, fundedCard, history, merchant, statusOf } from './card-simulate-support';

/**
 * `POST /sandbox/cards/{id}/simulate/authorization`: approvals and their hold, every decline in
 * its order, the descriptor suffixes (002, 003, 005, 006), funding sources in order, the pull
 * confirmation task, validation, tenancy.
 */
describe('POST /sandbox/cards/{id}/simulate/authorization', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // 005's late confirmation comes after 1.5 s instead of 30 s; the others after the 100 ms settlement delay.
    testApp = await startTestApp({ env: { SANDBOX_CARD_DELAYED_PULL_MS: '1500' } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const newHolder = () => approvedCardholder(api());
  const declinedWith = async (transactionId: string, reason: string) => {
    const events = await history(api(), transactionId);
    expect(events.map((event) => event.type)).toEqual(['CardAuthorizationDeclined']);
    expect(events[0].data.reason).toBe(reason);
    return events[0];
  };

  it('approves: holds the amount on the USD account, records the authorization, then confirms the pull', async () => {
    const holder = await newHolder();
    const card = await fundedCard(api(), holder, 10_000);
    const transactionId = await authorize(api(), card.id, 1_250);
    const token = transactionId.slice('CardTransaction:'.length);
    const events = await history(api(), transactionId);
    expect(events.map((event) => event.type)).toEqual(['CardTransactionAuthorized']);
    expect(events[0].data).toEqual({
      transactionId,
      platformId: testApp.platform.platformId,
      cardId: card.id,
      customerId: holder.customer.id,
      platformCustomerId: holder.customer.platformCustomerId,
      issuerTransactionToken: token,
      kind: 'AUTHORIZATION',
      direction: 'DEBIT',
      merchant: merchant(),
      amountCents: 1_250,
      accountId: holder.accounts.USD.id,
      accountCurrency: 'USD',
      holdId: `${transactionId}:hold`,
      amountUnits: 1_250,
      pull: { pullId: `${transactionId}:pull`, amountUnits: 1_250, status: 'PENDING' },
      pullScenario: 'CONFIRM',
      authorizedAt: expect.stringMatching(ISO),
    });
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 8_750, held: 1_250 });
    expect(await statusOf(api(), transactionId)).toEqual({ status: 'AUTHORIZED', authorized: 1_250 });
    const confirmed = await eventOf(api(), transactionId, 'CardPullConfirmed');
    expect(confirmed.data).toEqual({ transactionId, platformId: testApp.platform.platformId, cardId: card.id, pullId: `${transactionId}:pull`, confirmedAt: expect.stringMatching(ISO) });
    expect(confirmed.metadata).toEqual(expect.objectContaining({ actor: 'system:task:card.pull-confirmation', causationId: events[0].eventId }));
    // The confirmation moves no money: the hold waits for the clearing.
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 8_750, held: 1_250 });
  });

  it('exactly the spend limit is approved; a cent more is SPEND_LIMIT_EXCEEDED', async () => {
    const holder = await newHolder();
    const card = await fundedCard(api(), holder, 10_000, { maxSpendPerTransaction: 500 });
    await authorize(api(), card.id, 500);
    const over = await authorize(api(), card.id, 501);
    await declinedWith(over, 'SPEND_LIMIT_EXCEEDED');
    // A declined authorization shows no CardTransaction.
    await api().get(`/transactions/${over}`).expect(404);
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 9_500, held: 500 });
  });

  it('declines in order: CLOSED -> CARD_CLOSED, FROZEN or 003 -> CARD_PAUSED, PROCESSING -> CARD_NOT_ACTIVE, 002 -> INSUFFICIENT_FUNDS', async () => {
    const holder = await newHolder();
    const card = await fundedCard(api(), holder, 10_000, { maxSpendPerTransaction: 100 });
    // 003 comes before the spend limit; 002 after it.
    await declinedWith(await authorize(api(), card.id, 5_000, 'CORNER SHOP 003'), 'CARD_PAUSED');
    await declinedWith(await authorize(api(), card.id, 5_000, 'AMAZON RETAIL US-002'), 'SPEND_LIMIT_EXCEEDED');
    const declined = await declinedWith(await authorize(api(), card.id, 50, 'AMAZON RETAIL US-002'), 'INSUFFICIENT_FUNDS');
    expect(declined.data).toEqual({
      transactionId: declined.data.transactionId,
      platformId: testApp.platform.platformId,
      cardId: card.id,
      customerId: holder.customer.id,
      issuerTransactionToken: declined.data.transactionId.slice('CardTransaction:'.length),
      kind: 'AUTHORIZATION',
      amountCents: 50,
      merchant: merchant('AMAZON RETAIL US-002'),
      reason: 'INSUFFICIENT_FUNDS',
      declinedAt: expect.stringMatching(ISO),
    });
    await api().patch(`/cards/${card.id}`).send({ state: 'FROZEN' }).expect(200);
    await declinedWith(await authorize(api(), card.id, 5_000), 'CARD_PAUSED');
    await api().patch(`/cards/${card.id}`).send({ state: 'CLOSED' }).expect(200);
    await declinedWith(await authorize(api(), card.id, 5_000, 'CORNER SHOP 003'), 'CARD_CLOSED');
    const processing = await issueCard(api(), holder, { platformCardId: uniqueId('p').concat('-001') });
    await declinedWith(await authorize(api(), processing.id, 10), 'CARD_NOT_ACTIVE');
    // No decline moved money.
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 10_000, held: 0 });
  });

  it('funding sources in order: a short USD account is passed over for the USDC one (10,000 units a cent); none enough: INSUFFICIENT_FUNDS', async () => {
    const holder = await newHolder();
    await fund(api(), holder.accounts.USD.id, 100);
    await fund(api(), holder.accounts.USDC.id, 50_000_000);
    const card = await fundedCard(api(), holder, 0, { fundingSources: [holder.accounts.USD.id, holder.accounts.USDC.id] });
    const onUsd = await authorize(api(), card.id, 100);
    expect((await history(api(), onUsd))[0].data.accountId).toBe(holder.accounts.USD.id);
    const onUsdc = await authorize(api(), card.id, 2_000);
    expect((await history(api(), onUsdc))[0].data).toMatchObject({ accountId: holder.accounts.USDC.id, accountCurrency: 'USDC', amountCents: 2_000, amountUnits: 20_000_000 });
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 0, held: 100 });
    expect(await balances(api(), holder.accounts.USDC.id)).toEqual({ available: 30_000_000, held: 20_000_000 });
    await declinedWith(await authorize(api(), card.id, 3_001), 'INSUFFICIENT_FUNDS');
    await authorize(api(), card.id, 3_000);
    expect(await balances(api(), holder.accounts.USDC.id)).toEqual({ available: 0, held: 50_000_000 });
  });

  it('005 confirms the pull late (SANDBOX_CARD_DELAYED_PULL_MS); 006 reports it FAILED: EXCEPTION, the money stays held', async () => {
    const holder = await newHolder();
    const card = await fundedCard(api(), holder, 10_000);
    const late = await authorize(api(), card.id, 1_000, 'HOTEL 005');
    const failing = await authorize(api(), card.id, 2_000, 'HOTEL 006');
    expect((await history(api(), late))[0].data.pullScenario).toBe('CONFIRM_LATE');
    const failed = await eventOf(api(), failing, 'CardPullFailed');
    expect(failed.data).toEqual({
      transactionId: failing,
      platformId: testApp.platform.platformId,
      cardId: card.id,
      pullId: `${failing}:pull`,
      reason: 'The funding pull confirmation reported FAILED (sandbox suffix 006)',
      failedAt: expect.stringMatching(ISO),
    });
    // The ordinary confirmation delay has passed for 006; 005 still waits.
    expect(await eventTypes(api(), late)).toEqual(['CardTransactionAuthorized']);
    const confirmed = await eventOf(api(), late, 'CardPullConfirmed');
    const authorizedAt = Date.parse((await history(api(), late))[0].data.authorizedAt);
    expect(Date.parse(confirmed.data.confirmedAt) - authorizedAt).toBeGreaterThanOrEqual(1_400);
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 7_000, held: 3_000 });
    expect(await statusOf(api(), failing)).toEqual({ status: 'EXCEPTION', authorized: 2_000 });
    expect(await statusOf(api(), late)).toEqual({ status: 'AUTHORIZED', authorized: 1_000 });
    // EXCEPTION takes no clearing: an operator reconciles it.
    const clearing = await api().post(`/sandbox/cards/${card.id}/simulate/clearing`).send({ cardTransactionId: failing, amount: 2_000 }).expect(400);
    expect(clearing.body.details).toEqual(expect.objectContaining({ reason: 'INVALID_STATE', status: 'EXCEPTION' }));
  });

  it('FUNDING_SOURCE_UNAVAILABLE when no funding account is ACTIVE (the cardholder was deleted)', async () => {
    const holder = await newHolder();
    const card = await fundedCard(api(), holder, 0);
    await api().delete(`/customers/${holder.customer.id}`).expect(200);
    // The customer-account-closure reactor closes the accounts shortly after.
    await eventually(async () => (await api().get(`/internal-accounts/${holder.accounts.USD.id}`).expect(200)).body.status === 'CLOSED');
    await declinedWith(await authorize(api(), card.id, 100), 'FUNDING_SOURCE_UNAVAILABLE');
  });

  it('400 listing every bad field at once, currency.code other than USD included; nothing recorded', async () => {
    const holder = await newHolder();
    const card = await fundedCard(api(), holder, 0);
    const response = await api()
      .post(`/sandbox/cards/${card.id}/simulate/authorization`)
      .send({ amount: 0, currency: { code: 'EUR' }, merchant: { mcc: '58', country: 'USA' }, tip: 1 })
      .expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(response.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(
      ['amount', 'currency.code', 'merchant.country', 'merchant.descriptor', 'merchant.mcc', 'tip'].sort(),
    );
    const euro = await api().post(`/sandbox/cards/${card.id}/simulate/authorization`).send({ ...authorizationBody(10), currency: { code: 'EUR' } }).expect(400);
    expect(euro.body.details.errors).toEqual([{ field: 'currency.code', constraint: { enum: ['USD'] }, message: "currency.code must be USD, the card's currency" }]);
    const malformed = await api().post('/sandbox/cards/nope/simulate/authorization').send({ amount: 'ten' }).expect(400);
    expect(malformed.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['amount', 'currency', 'id', 'merchant']);
  });

  describe('tenancy and mode', () => {
    let other: TestPlatform;
    let holder: Cardholder;

    beforeAll(async () => {
      other = await testApp.createPlatform();
      holder = await newHolder();
    });

    it('404 REFERENCE_NOT_FOUND for an unknown card and another platform\'s card, answered alike', async () => {
      const card = await fundedCard(api(), holder, 1_000);
      const unknown = await api().post('/sandbox/cards/Card:0199a000-0000-7000-8000-0000000000ff/simulate/authorization').send(authorizationBody(10)).expect(404);
      expect(unknown.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Card not found' });
      const foreign = await other.api.post(`/sandbox/cards/${card.id}/simulate/authorization`).send(authorizationBody(10)).expect(404);
      expect(foreign.body).toEqual(unknown.body);
      expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 1_000, held: 0 });
    });

    it('403 FORBIDDEN in production mode', async () => {
      const production = await startTestApp({ env: { SERVICE_MODE: 'production' } });
      try {
        const response = await production.platform.api.post('/sandbox/cards/Card:0199a000-0000-7000-8000-0000000000ff/simulate/authorization').send(authorizationBody(10)).expect(403);
        expect(response.body).toEqual({ status: 403, code: 'FORBIDDEN', message: 'Sandbox operations are not available in production mode' });
      } finally {
        await production.close();
      }
    });
  });
});
