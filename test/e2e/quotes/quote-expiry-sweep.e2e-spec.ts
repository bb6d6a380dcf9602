import { Pool } from 'pg';
import { AccountsLedger } from '../../../src/accounts/ledger/accounts-ledger';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { streamNameFor } from '../../../src/infra/ids';
import { PG_POOL } from '../../../src/infra/postgres/pool';
import { READ_MODEL_WAITER } from '../../../src/infra/projections/read-model-waiter';
import { QuoteStore, holdIdFor } from '../../../src/quotes/quote-store';
import { QuoteExpirySweeper } from '../../../src/quotes/settlement/quote-expiry-sweeper';
import { QuoteSettlementService } from '../../../src/quotes/settlement/quote-settlement.service';
import { balances, fundedCustomer, quoteToSuffix, quoteWithStatus, transactionWithStatus } from '../../support/quote-fixtures';
import { SCA_PLATFORM_CONFIG, SMS_CODE } from '../../support/sca-client';
import { europeanSender } from '../../support/sca-quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The expiry sweep (src/quotes/settlement/quote-expiry-sweeper.ts) on its own: here the app runs
 * without the worker role, so no sweep runs but the ones the tests start. Several sweepers at once
 * record one expiry per quote; a quote whose execute is under way is left alone.
 */
describe('quotes: the expiry sweep', () => {
  let testApp: TestApp;
  let events: EventStoreService;
  const sweepers: QuoteExpirySweeper[] = [];

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SANDBOX_QUOTE_LIFETIME_MS: '300' }, roles: ['api', 'projector'] });
    events = testApp.app.get(EventStoreService);
  });

  afterAll(async () => {
    await Promise.all(sweepers.map((sweeper) => sweeper.stop()));
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  /** A sweeper as another process would run it: its own QuoteStore memory, the app's database and ledger. */
  const sweeper = () => {
    const store = new QuoteStore(events);
    const settlement = new QuoteSettlementService(store, testApp.app.get(AccountsLedger), testApp.config, testApp.app.get(READ_MODEL_WAITER));
    const created = new QuoteExpirySweeper(testApp.app.get<Pool>(PG_POOL), store, settlement, 20);
    sweepers.push(created);
    return created;
  };
  const streamTypes = async (quoteId: string) => (await events.readStream(streamNameFor(quoteId))).map((event) => event.type);

  it('three sweepers at once: each due quote is EXPIRED once, in every view; a second sweep finds nothing', async () => {
    const owner = await fundedCustomer(api(), 10_000);
    const quotes = await Promise.all(Array.from({ length: 6 }, () => quoteToSuffix(api(), owner, '789', 1_000)));
    await sleep(Math.max(...quotes.map((quote) => Date.parse(quote.expiresAt))) - Date.now() + 20);
    const [first, second, third] = [sweeper(), sweeper(), sweeper()];
    await Promise.all([first.sweepOnce(), second.sweepOnce(), third.sweepOnce()]);
    for (const quote of quotes) {
      expect(await streamTypes(quote.id)).toEqual(['QuoteCreated', 'QuoteExpired']);
      expect((await quoteWithStatus(api(), quote.id, 'EXPIRED')).status).toBe('EXPIRED');
      await transactionWithStatus(api(), quote.transactionId, 'EXPIRED');
    }
    expect(await first.sweepOnce()).toEqual({ expired: 0, full: false });
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
  });

  it('a quote whose execute is under way (EXECUTING, shown PENDING) is not expired', async () => {
    const owner = await fundedCustomer(api(), 10_000);
    const quote = await quoteToSuffix(api(), owner, '789', 1_000);
    await events.append(
      streamNameFor(quote.id),
      [
        {
          type: 'QuoteExecutionRequested',
          data: {
            quoteId: quote.id, transactionId: quote.transactionId, platformId: testApp.platform.platformId, attempt: 1,
            holdId: holdIdFor(quote.id, 1), sourceAccountId: owner.usd.id, amount: quote.totalSendingAmount, scaFactor: null,
            requestedAt: new Date().toISOString(),
          },
        },
      ],
      0,
      { platformId: testApp.platform.platformId, actor: 'test:died-request' },
    );
    await sleep(Date.parse(quote.expiresAt) - Date.now() + 20);
    expect(await sweeper().sweepOnce()).toEqual({ expired: 0, full: false });
    expect(await streamTypes(quote.id)).toEqual(['QuoteCreated', 'QuoteExecutionRequested']);
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING');
  });

  it('stops cleanly: stop() waits for the sweep in flight and no sweep runs afterwards', async () => {
    const running = sweeper();
    running.start();
    await sleep(60);
    await running.stop();
    const owner = await fundedCustomer(api(), 10_000);
    const quote = await quoteToSuffix(api(), owner, '789', 1_000);
    await sleep(Date.parse(quote.expiresAt) - Date.now() + 100);
    expect(await streamTypes(quote.id)).toEqual(['QuoteCreated']);
  });
});

/**
 * A REALTIME_FUNDING quote of a customer in an SCA region is PENDING once authorized: with the
 * worker role running, the sweep expires it at `expiresAt` like any other PENDING quote.
 */
describe('quotes: the expiry sweep after SCA authorization', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ platformConfig: SCA_PLATFORM_CONFIG, env: { SANDBOX_QUOTE_LIFETIME_MS: '4000' } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('authorized (PENDING again), never funded: EXPIRED, and a sandbox send is then 409 QUOTE_EXPIRED', async () => {
    const api = testApp.platform.api;
    const sender = await europeanSender(api, 0);
    const created = (await api.post('/quotes').send({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: sender.customer.id },
      destination: { destinationType: 'ACCOUNT', accountId: sender.usdPayee.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 25_000,
    }).expect(202)).body;
    expect((await api.post(`/quotes/${created.id}/authorize`).send({ code: SMS_CODE }).expect(200)).body.status).toBe('PENDING');
    await quoteWithStatus(api, created.id, 'EXPIRED');
    await transactionWithStatus(api, created.transactionId, 'EXPIRED');
    expect((await api.post('/sandbox/send').send({ quoteId: created.id, currencyCode: 'USD' }).expect(409)).body.details.reason).toBe('QUOTE_EXPIRED');
  });
});
