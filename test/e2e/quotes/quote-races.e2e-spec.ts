import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { streamNameFor } from '../../../src/infra/ids';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { createUsdExternalAccount, fund } from '../../support/customer-fixtures';
import { assertLedgerInvariant, balances, fundedCustomer, ledgerEventTypes, quoteToSuffix, quoteWithStatus } from '../../support/quote-fixtures';

/**
 * Concurrency: one quote executed 50 times at once, many quotes racing for one balance, the same
 * Idempotency-Key sent concurrently, and the ledger invariant (credits - settled = balances +
 * holds; every hold settled, released or still held) after a mixed concurrent run.
 */
describe('quotes: races and the ledger invariant', () => {
  let testApp: TestApp;
  let events: EventStoreService;
  const touched: string[] = [];

  beforeAll(async () => {
    testApp = await startTestApp();
    events = testApp.app.get(EventStoreService);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  it('50 concurrent executes of one quote: exactly one 200, 49 409s, one hold', async () => {
    const owner = await fundedCustomer(api(), 100_000);
    touched.push(owner.usd.id);
    const quote = await quoteToSuffix(api(), owner, '789', 10_000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => api().post(`/quotes/${quote.id}/execute`)));
    const ok = answers.filter((answer) => answer.status === 200);
    const conflicts = answers.filter((answer) => answer.status === 409);
    expect([ok.length, conflicts.length]).toEqual([1, 49]);
    expect(ok[0].body).toEqual({ ...quote, status: 'PROCESSING' });
    for (const conflict of conflicts) expect([conflict.body.code, conflict.body.details.reason]).toEqual(['CONFLICT', 'QUOTE_ALREADY_EXECUTED']);
    const types = (await events.readStream(streamNameFor(quote.id))).map((event) => event.type);
    expect(types.filter((type) => type === 'QuoteExecutionRequested')).toHaveLength(1);
    const ledger = await ledgerEventTypes(testApp.databaseUrl, owner.usd.id);
    expect(ledger.filter((event) => event.type === 'FundsHeld')).toHaveLength(1);
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 90_000, total: 90_000 });
  });

  it('20 quotes racing for one balance: each executes or is refused INSUFFICIENT_FUNDS (then PENDING), never below zero', async () => {
    const owner = await fundedCustomer(api(), 50_000);
    touched.push(owner.usd.id);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '003');
    const quotes = await Promise.all(Array.from({ length: 20 }, async () =>
      (await api().post('/quotes').send({
        source: { sourceType: 'ACCOUNT', accountId: owner.usd.id },
        destination: { destinationType: 'ACCOUNT', accountId: external.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 7_000,
      }).expect(201)).body));
    const answers = await Promise.all(quotes.map((quote) => api().post(`/quotes/${quote.id}/execute`)));
    const executed = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 400);
    expect([executed.length, refused.length]).toEqual([7, 13]);
    for (const answer of refused) expect([answer.body.code, answer.body.details.reason]).toEqual(['INVALID_AMOUNT', 'INSUFFICIENT_FUNDS']);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 1_000, total: 50_000 });
    const statuses = await Promise.all(quotes.map(async (quote) => (await api().get(`/quotes/${quote.id}`).expect(200)).body.status));
    expect(statuses.filter((status) => status === 'PENDING')).toHaveLength(13);
    // Refused attempts leave tombstones, never holds.
    const ledger = await ledgerEventTypes(testApp.databaseUrl, owner.usd.id);
    expect(ledger.filter((event) => event.type === 'FundsHeld')).toHaveLength(7);
    expect(ledger.filter((event) => event.type === 'HoldVoided')).toHaveLength(13);
  });

  it('the same Idempotency-Key sent concurrently executes once', async () => {
    const owner = await fundedCustomer(api(), 20_000);
    touched.push(owner.usd.id);
    const quote = await quoteToSuffix(api(), owner, '789', 5_000);
    const key = 'c0ffee00-1234-4abc-8def-0123456789ab';
    const answers = await Promise.all(Array.from({ length: 10 }, () => api().post(`/quotes/${quote.id}/execute`).set('Idempotency-Key', key)));
    const fresh = answers.filter((answer) => answer.status === 200 && answer.headers['idempotent-replayed'] !== 'true');
    expect(fresh).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 200) expect(answer.body.id).toBe(quote.id);
      // Still running under the key: 429 RATE_LIMITED with Retry-After (POST /quotes/{id}/execute declares no 409 for it).
      else expect([answer.status, answer.body.code, answer.headers['retry-after']]).toEqual([429, 'RATE_LIMITED', '1']);
    }
    const ledger = await ledgerEventTypes(testApp.databaseUrl, owner.usd.id);
    expect(ledger.filter((event) => event.type === 'FundsHeld')).toHaveLength(1);
  });

  it('after a concurrent mixed run (every suffix, refusals, funding, realtime sends) the ledger invariant holds', async () => {
    const owners = await Promise.all(Array.from({ length: 3 }, () => fundedCustomer(api(), 40_000)));
    touched.push(...owners.map((owner) => owner.usd.id), ...owners.map((owner) => owner.accounts.USDC.id));
    const suffixes = ['789', '002', '004', '005', '006', '007'];
    const externals = await Promise.all(owners.map((owner) => Promise.all(suffixes.map((suffix) => createUsdExternalAccount(api(), owner.customer.id, suffix)))));
    const work: Array<Promise<unknown>> = [];
    for (let round = 0; round < 6; round++) {
      owners.forEach((owner, index) => {
        const external = externals[index][round % suffixes.length];
        work.push((async () => {
          const created = await api().post('/quotes').send({
            source: { sourceType: 'ACCOUNT', accountId: owner.usd.id },
            destination: { destinationType: 'ACCOUNT', accountId: external.id },
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: 3_000 + round * 500,
          });
          if (created.status === 201) await Promise.all([api().post(`/quotes/${created.body.id}/execute`), api().post(`/quotes/${created.body.id}/execute`)]);
        })());
        work.push((async () => {
          const created = await api().post('/quotes').send({
            source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: owner.customer.id },
            destination: { destinationType: 'ACCOUNT', accountId: owner.accounts.USDC.id },
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: 1_000 + round,
          }).expect(201);
          await api().post('/sandbox/send').send({ quoteId: created.body.id, currencyCode: 'USD' }).expect(200);
        })());
        if (round % 2 === 0) work.push(fund(api(), owner.usd.id, 2_000));
      });
    }
    await Promise.all(work);
    await eventually(async () => (await api().get('/transactions').query({ status: 'PROCESSING', limit: 1 }).expect(200)).body.totalCount === 0, 20_000);
    // Returns (005) follow their COMPLETED: the invariant holds once every movement is projected.
    const totals = await eventually(() => assertLedgerInvariant(testApp.databaseUrl, api(), touched), 10_000);
    expect(totals.total).toBeGreaterThan(0);
  });
});
