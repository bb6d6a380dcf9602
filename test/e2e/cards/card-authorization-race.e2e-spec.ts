import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { fund } from '../../support/customer-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { approvedCardholder } from './card-fixtures';
import { assertAccountBalanced, transactionEvents } from './card-ledger-support';
import { authorize, fundedCard } from './card-simulate-support';

/**
 * Races on one card's money: 20 authorizations at once whose sum is twice what the funding
 * account(s) hold, and concurrent clearings of one authorization. The ledger decides each hold on
 * the account's stream, so the approved ones never exceed the balance, and every other one is
 * declined INSUFFICIENT_FUNDS (a decline that loses the race for money someone else holds is
 * still a decline, never an error). The outcomes are read from the transactions' streams and the
 * balances from the accounts' streams (and GET, after the same client's POSTs).
 */
describe('card authorization races', () => {
  let testApp: TestApp;
  let store: EventStoreService;

  beforeAll(async () => {
    testApp = await startTestApp();
    store = testApp.app.get(EventStoreService);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  /** 20 amounts from 500 to 1,450 cents: 19,500 in all. */
  const AMOUNTS = Array.from({ length: 20 }, (_, index) => 500 + index * 50);

  /** The outcome of each transaction: its funding account and units when approved, its decline reason when not. */
  const outcomes = async (transactionIds: string[]) =>
    Promise.all(transactionIds.map(async (id, index) => {
      const [first, ...rest] = await transactionEvents(store, id);
      expect(rest.every((event) => event.type === 'CardPullConfirmed')).toBe(true);
      if (first.type === 'CardAuthorizationDeclined') return { cents: AMOUNTS[index], approved: false as const, reason: first.data.reason };
      expect(first).toMatchObject({ type: 'CardTransactionAuthorized', data: { amountCents: AMOUNTS[index] } });
      return { cents: AMOUNTS[index], approved: true as const, accountId: first.data.accountId as string, units: first.data.amountUnits as number };
    }));

  it('20 concurrent authorizations on one USD account of 9,750 cents: the approved ones fit, the rest are INSUFFICIENT_FUNDS, available + held == funded', async () => {
    const holder = await approvedCardholder(api());
    const card = await fundedCard(api(), holder, 9_750);
    const accountId = holder.accounts.USD.id;
    const transactionIds = await Promise.all(AMOUNTS.map((amount) => authorize(api(), card.id, amount)));
    const results = await outcomes(transactionIds);
    const approved = results.filter((result) => result.approved);
    const declined = results.filter((result) => !result.approved);
    expect(declined.map((result) => result.reason)).toEqual(declined.map(() => 'INSUFFICIENT_FUNDS'));
    const heldCents = approved.reduce((sum, result) => sum + result.cents, 0);
    expect(heldCents).toBeLessThanOrEqual(9_750);
    const ledger = await assertAccountBalanced(api(), store, accountId);
    expect({ available: ledger.available, held: ledger.held, captured: ledger.captured, debited: ledger.debited }).toEqual({ available: 9_750 - heldCents, held: heldCents, captured: 0, debited: 0 });
    // The balance only shrank during the race: each declined one asked for more than what is left now.
    for (const result of declined) expect(result.cents).toBeGreaterThan(ledger.available);
    expect(approved.length).toBeGreaterThan(0);
  });

  it('the same with two funding sources (USD then USDC, 4,875 cents each): each approved one on one account, neither overdrawn', async () => {
    const holder = await approvedCardholder(api());
    const usd = holder.accounts.USD.id;
    const usdc = holder.accounts.USDC.id;
    await fund(api(), usd, 4_875);
    await fund(api(), usdc, 48_750_000);
    const card = await fundedCard(api(), holder, 0, { fundingSources: [usd, usdc] });
    const transactionIds = await Promise.all(AMOUNTS.map((amount) => authorize(api(), card.id, amount)));
    const results = await outcomes(transactionIds);
    const declined = results.filter((result) => !result.approved);
    expect(declined.map((result) => result.reason)).toEqual(declined.map(() => 'INSUFFICIENT_FUNDS'));
    const onUsd = results.filter((result) => result.approved && result.accountId === usd);
    const onUsdc = results.filter((result) => result.approved && result.accountId === usdc);
    expect(onUsd.length + onUsdc.length + declined.length).toBe(20);
    const heldUsd = onUsd.reduce((sum, result) => sum + (result.approved ? result.units : 0), 0);
    const heldUsdc = onUsdc.reduce((sum, result) => sum + (result.approved ? result.units : 0), 0);
    expect(heldUsd).toBeLessThanOrEqual(4_875);
    expect(heldUsdc).toBeLessThanOrEqual(48_750_000);
    const usdLedger = await assertAccountBalanced(api(), store, usd);
    const usdcLedger = await assertAccountBalanced(api(), store, usdc);
    expect({ available: usdLedger.available, held: usdLedger.held }).toEqual({ available: 4_875 - heldUsd, held: heldUsd });
    expect({ available: usdcLedger.available, held: usdcLedger.held }).toEqual({ available: 48_750_000 - heldUsdc, held: heldUsdc });
    // Declined: neither account could take it (both only shrank during the race).
    for (const result of declined) {
      expect(result.cents).toBeGreaterThan(usdLedger.available);
      expect(result.cents * 10_000).toBeGreaterThan(usdcLedger.available);
    }
  });

  it('concurrent clearings of one authorization never capture more than it holds; the rest is a post-hoc pull or refused', async () => {
    const holder = await approvedCardholder(api());
    const card = await fundedCard(api(), holder, 10_000);
    const accountId = holder.accounts.USD.id;
    const transactionId = await authorize(api(), card.id, 1_000);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => api().post(`/sandbox/cards/${card.id}/simulate/clearing`).send({ cardTransactionId: transactionId, amount: 300 })),
    );
    // Taken while the transaction is open; once SETTLED, a clearing is refused (400 INVALID_STATE), never half applied.
    for (const answer of answers.filter((response) => response.status !== 202)) {
      expect(`${answer.status} ${JSON.stringify(answer.body)}`).toMatch(/^400 /);
      expect(answer.body).toMatchObject({ code: 'INVALID_INPUT', details: { reason: 'INVALID_STATE', status: 'SETTLED' } });
    }
    const clearings = (await transactionEvents(store, transactionId)).filter((event) => event.type === 'CardTransactionCleared').map((event) => event.data);
    expect(clearings).toHaveLength(answers.filter((response) => response.status === 202).length);
    // 300 + 300 + 300 from the hold, then 100 from it and 200 pulled past it: SETTLED.
    expect(clearings.map((data) => [data.capturedUnits, data.postHocPull?.amountUnits ?? 0, data.settled])).toEqual([
      [300, 0, false],
      [300, 0, false],
      [300, 0, false],
      [100, 200, true],
    ]);
    const ledger = await assertAccountBalanced(api(), store, accountId);
    expect({ available: ledger.available, held: ledger.held, captured: ledger.captured, debited: ledger.debited }).toEqual({ available: 8_800, held: 0, captured: 1_000, debited: 200 });
  });
});
