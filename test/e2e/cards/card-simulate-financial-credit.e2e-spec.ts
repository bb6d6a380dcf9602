import { fund } from '../../support/customer-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { approvedCardholder } from './card-fixtures';
import { ISO, authorize, balances, eventTypes, fundedCard, history, merchant, simulate, statusOf } from './card-simulate-support';

/**
 * The single-message and credit simulations: financial_authorization (debit and settle at once),
 * credit_authorization and credit_authorization_advice (credited when cleared),
 * financial_credit_authorization (credited at once), with their declines.
 */
describe('POST /sandbox/cards/{id}/simulate/financial_* and credit_*', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const reasonOf = async (transactionId: string) => (await history(api(), transactionId))[0].data.reason;

  it('financial_authorization debits at once in one commit: Authorized (no hold, pull CONFIRMED) + Cleared (settled)', async () => {
    const holder = await approvedCardholder(api());
    const card = await fundedCard(api(), holder, 10_000);
    const transactionId = await authorize(api(), card.id, 2_500, undefined, 'financial_authorization');
    const token = transactionId.slice('CardTransaction:'.length);
    const events = await history(api(), transactionId);
    expect(events.map((event) => event.type)).toEqual(['CardTransactionAuthorized', 'CardTransactionCleared']);
    expect(events[0].data).toMatchObject({ kind: 'FINANCIAL_AUTHORIZATION', direction: 'DEBIT', amountUnits: 2_500, pull: { pullId: `${transactionId}:pull`, amountUnits: 2_500, status: 'CONFIRMED' } });
    expect(events[0].data.holdId).toBeUndefined();
    expect(events[1].data).toEqual({
      transactionId,
      platformId: testApp.platform.platformId,
      cardId: card.id,
      clearingId: token,
      issuerTransactionToken: token,
      amountCents: 2_500,
      capturedUnits: 2_500,
      creditedUnits: 0,
      settled: true,
      clearedAt: events[0].data.authorizedAt,
    });
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 7_500, held: 0 });
    expect(await statusOf(api(), transactionId)).toEqual({ status: 'SETTLED', authorized: 2_500, settled: 2_500 });
    // A single-message transaction takes no clearing and starts no pull confirmation.
    const clearing = await api().post(`/sandbox/cards/${card.id}/simulate/clearing`).send({ cardTransactionId: transactionId, amount: 1 }).expect(400);
    expect(clearing.body.details).toMatchObject({ reason: 'INVALID_STATE', status: 'SETTLED' });
    expect(await eventTypes(api(), transactionId)).toEqual(['CardTransactionAuthorized', 'CardTransactionCleared']);
  });

  it('financial_authorization declines like an authorization: short, over the limit, 003', async () => {
    const holder = await approvedCardholder(api());
    const card = await fundedCard(api(), holder, 1_000, { maxSpendPerTransaction: 5_000 });
    expect(await reasonOf(await authorize(api(), card.id, 1_001, undefined, 'financial_authorization'))).toBe('INSUFFICIENT_FUNDS');
    expect(await reasonOf(await authorize(api(), card.id, 5_001, undefined, 'financial_authorization'))).toBe('SPEND_LIMIT_EXCEEDED');
    expect(await reasonOf(await authorize(api(), card.id, 10, 'SHOP 003', 'financial_authorization'))).toBe('CARD_PAUSED');
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 1_000, held: 0 });
  });

  it('credit_authorization holds nothing; its clearing credits the first ACTIVE funding account (no spend limit for credits)', async () => {
    const holder = await approvedCardholder(api());
    const card = await fundedCard(api(), holder, 0, { maxSpendPerTransaction: 100 });
    const transactionId = await authorize(api(), card.id, 1_500, 'REFUND DESK', 'credit_authorization');
    const [authorized] = await history(api(), transactionId);
    expect(authorized.data).toMatchObject({ kind: 'CREDIT_AUTHORIZATION', direction: 'CREDIT', accountId: holder.accounts.USD.id, amountUnits: 1_500, merchant: merchant('REFUND DESK') });
    expect(authorized.data.holdId).toBeUndefined();
    expect(authorized.data.pull).toBeUndefined();
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 0, held: 0 });
    await simulate(api(), card.id, 'clearing', { cardTransactionId: transactionId, amount: 1_000 });
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 1_000, held: 0 });
    expect(await statusOf(api(), transactionId)).toEqual({ status: 'PARTIALLY_SETTLED', authorized: 1_500, settled: 1_000 });
    await simulate(api(), card.id, 'clearing', { cardTransactionId: transactionId, amount: 500 });
    const clearings = (await history(api(), transactionId)).filter((event) => event.type === 'CardTransactionCleared').map((event) => event.data);
    expect(clearings.map((data) => [data.creditedUnits, data.settled])).toEqual([[1_000, false], [500, true]]);
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 1_500, held: 0 });
    // No pull, so no confirmation task.
    expect(await eventTypes(api(), transactionId)).toEqual(['CardTransactionAuthorized', 'CardTransactionCleared', 'CardTransactionCleared']);
  });

  it('credit_authorization declines on a FROZEN card and on 003 / 002; credit_authorization_advice is recorded on a FROZEN card and ignores 003', async () => {
    const holder = await approvedCardholder(api());
    const card = await fundedCard(api(), holder, 0);
    expect(await reasonOf(await authorize(api(), card.id, 10, 'SHOP 003', 'credit_authorization'))).toBe('CARD_PAUSED');
    expect(await reasonOf(await authorize(api(), card.id, 10, 'SHOP 002', 'credit_authorization'))).toBe('INSUFFICIENT_FUNDS');
    await api().patch(`/cards/${card.id}`).send({ state: 'FROZEN' }).expect(200);
    expect(await reasonOf(await authorize(api(), card.id, 10, undefined, 'credit_authorization'))).toBe('CARD_PAUSED');
    const advice = await authorize(api(), card.id, 700, 'SHOP 003', 'credit_authorization_advice');
    expect((await history(api(), advice))[0].data).toMatchObject({ kind: 'CREDIT_AUTHORIZATION_ADVICE', direction: 'CREDIT', amountCents: 700 });
    expect(await reasonOf(await authorize(api(), card.id, 10, 'SHOP 002', 'credit_authorization_advice'))).toBe('INSUFFICIENT_FUNDS');
    await api().patch(`/cards/${card.id}`).send({ state: 'CLOSED' }).expect(200);
    expect(await reasonOf(await authorize(api(), card.id, 10, undefined, 'credit_authorization_advice'))).toBe('CARD_CLOSED');
    // The advice recorded on the frozen card clears into the account like any credit.
    await simulate(api(), card.id, 'clearing', { cardTransactionId: advice, amount: 700 });
    expect(await balances(api(), holder.accounts.USD.id)).toEqual({ available: 700, held: 0 });
  });

  it('financial_credit_authorization credits at once: Authorized + Cleared (settled) with the credit in one commit', async () => {
    const holder = await approvedCardholder(api());
    await fund(api(), holder.accounts.USDC.id, 1);
    const card = await fundedCard(api(), holder, 0, { fundingSources: [holder.accounts.USDC.id, holder.accounts.USD.id] });
    const transactionId = await authorize(api(), card.id, 300, undefined, 'financial_credit_authorization');
    const events = await history(api(), transactionId);
    expect(events.map((event) => event.type)).toEqual(['CardTransactionAuthorized', 'CardTransactionCleared']);
    expect(events[0].data).toMatchObject({ kind: 'FINANCIAL_CREDIT_AUTHORIZATION', direction: 'CREDIT', accountId: holder.accounts.USDC.id, accountCurrency: 'USDC', amountUnits: 3_000_000 });
    expect(events[1].data).toMatchObject({ amountCents: 300, capturedUnits: 0, creditedUnits: 3_000_000, settled: true, clearedAt: expect.stringMatching(ISO) });
    expect(await balances(api(), holder.accounts.USDC.id)).toEqual({ available: 3_000_001, held: 0 });
    expect(await statusOf(api(), transactionId)).toEqual({ status: 'SETTLED', authorized: 300, settled: 300 });
  });
});
