import { AccountsLedger } from '../../../src/accounts/ledger/accounts-ledger';
import { DomainError } from '../../../src/infra/domain/domain-error';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { streamNameFor } from '../../../src/infra/ids';
import { holdIdFor } from '../../../src/quotes/quote-store';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { createUsdExternalAccount } from '../../support/customer-fixtures';
import {
  assertLedgerInvariant, balances, fundedCustomer, ledgerEventTypes, quoteToSuffix, quoteWithStatus, transactionWithStatus,
} from '../../support/quote-fixtures';

const LIFETIME_MS = 1_500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Quote expiry with a short sandbox lifetime (SANDBOX_QUOTE_LIFETIME_MS): the scheduled expiry,
 * execute checking the clock itself, execute racing expiry, and the races around a hold whose
 * attempt was abandoned. One outcome per quote, the same in every view and in the ledger.
 */
describe('quotes: expiry and its races', () => {
  let testApp: TestApp;
  let events: EventStoreService;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SANDBOX_QUOTE_LIFETIME_MS: String(LIFETIME_MS) } });
    events = testApp.app.get(EventStoreService);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const platformMetadata = () => ({ platformId: testApp.platform.platformId, actor: 'test:died-request' });

  it('PENDING -> EXPIRED at expiresAt (scheduled); execute is then 409 QUOTE_EXPIRED and the transaction is EXPIRED', async () => {
    const owner = await fundedCustomer(api(), 10_000);
    const quote = await quoteToSuffix(api(), owner, '789', 1_000);
    expect(Date.parse(quote.expiresAt) - Date.parse(quote.createdAt)).toBe(LIFETIME_MS);
    const expired = await quoteWithStatus(api(), quote.id, 'EXPIRED');
    expect(expired).toEqual({ ...quote, status: 'EXPIRED' });
    const transaction = await transactionWithStatus(api(), quote.transactionId, 'EXPIRED');
    expect(Date.parse(transaction.updatedAt)).toBeGreaterThanOrEqual(Date.parse(quote.expiresAt));
    expect((await api().post(`/quotes/${quote.id}/execute`).expect(409)).body).toEqual({
      status: 409, code: 'CONFLICT', message: 'The quote has expired and can no longer be executed',
      details: { reason: 'QUOTE_EXPIRED', status: 'EXPIRED', expiresAt: quote.expiresAt },
    });
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
  });

  it('a REALTIME_FUNDING quote expires too; a sandbox send afterwards is 400 (no 409 declared) with reason QUOTE_EXPIRED', async () => {
    const owner = await fundedCustomer(api(), 0);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const quote = (await api().post('/quotes').send({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    }).expect(201)).body;
    await quoteWithStatus(api(), quote.id, 'EXPIRED');
    const late = (await api().post('/sandbox/send').send({ quoteId: quote.id, currencyCode: 'USD' }).expect(400)).body;
    expect(late).toMatchObject({ code: 'INVALID_INPUT', details: { reason: 'QUOTE_EXPIRED', errors: [{ field: 'quoteId', constraint: {} }] } });
  });

  it('execute racing expiry: every quote ends either executed (200, debited once) or expired (409, nothing moved), consistently', async () => {
    const owner = await fundedCustomer(api(), 1_000_000);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const quotes = await Promise.all(Array.from({ length: 16 }, async () =>
      (await api().post('/quotes').send({
        source: { sourceType: 'ACCOUNT', accountId: owner.usd.id },
        destination: { destinationType: 'ACCOUNT', accountId: external.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      }).expect(201)).body));
    // Aim the executes at the expiry instant, spread a little either side of it.
    const answers = await Promise.all(quotes.map(async (quote, index) => {
      await sleep(Math.max(0, Date.parse(quote.expiresAt) - Date.now() - 60 + index * 8));
      return api().post(`/quotes/${quote.id}/execute`);
    }));
    let executed = 0;
    for (const [index, answer] of answers.entries()) {
      const quote = quotes[index];
      if (answer.status === 200) {
        executed++;
        expect(answer.body.status).toBe('PROCESSING');
        await transactionWithStatus(api(), quote.transactionId, 'COMPLETED');
      } else {
        expect([answer.status, answer.body.details?.reason]).toEqual([409, 'QUOTE_EXPIRED']);
        expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('EXPIRED');
        expect((await api().get(`/transactions/${quote.transactionId}`).expect(200)).body.status).toBe('EXPIRED');
      }
      const types = (await events.readStream(streamNameFor(quote.id))).map((event) => event.type);
      expect(types.includes('QuoteExpired')).toBe(answer.status !== 200);
      expect(types.includes('QuoteFundsHeld')).toBe(answer.status === 200);
    }
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 1_000_000 - executed * 1_000, total: 1_000_000 - executed * 1_000 });
    const ledger = await ledgerEventTypes(testApp.databaseUrl, owner.usd.id);
    expect(ledger.filter((event) => event.type === 'FundsHeld')).toHaveLength(executed);
    await assertLedgerInvariant(testApp.databaseUrl, api(), [owner.usd.id]);
  });

  it('an execute accepted just before expiresAt whose request died is finished, never expired', async () => {
    const owner = await fundedCustomer(api(), 10_000);
    const quote = await quoteToSuffix(api(), owner, '789', 2_500);
    // What the request recorded before dying: the execution request, nothing else.
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
      platformMetadata(),
    );
    await sleep(Date.parse(quote.expiresAt) - Date.now() + 200);
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    const types = (await events.readStream(streamNameFor(quote.id))).map((event) => event.type);
    expect(types).toEqual(['QuoteCreated', 'QuoteExecutionRequested', 'QuoteFundsHeld', 'QuoteCompleted']);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 7_500, total: 7_500 });
  });

  it('a hold placed late for an attempt already rejected is refused by the tombstone; the next attempt executes', async () => {
    const owner = await fundedCustomer(api(), 10_000);
    const quote = await quoteToSuffix(api(), owner, '789', 4_000);
    const ref = { quoteId: quote.id, transactionId: quote.transactionId, platformId: testApp.platform.platformId };
    const lateHoldId = holdIdFor(quote.id, 1);
    const now = new Date().toISOString();
    // Attempt 1 was refused by one process while another, slower one is still about to hold.
    await events.append(
      streamNameFor(quote.id),
      [
        {
          type: 'QuoteExecutionRequested',
          data: { ...ref, attempt: 1, holdId: lateHoldId, sourceAccountId: owner.usd.id, amount: 4_000, scaFactor: null, requestedAt: now },
        },
        { type: 'QuoteExecutionRejected', data: { ...ref, attempt: 1, holdId: lateHoldId, reason: 'INSUFFICIENT_FUNDS', rejectedAt: now } },
      ],
      0,
      platformMetadata(),
    );
    await eventually(async () => (await ledgerEventTypes(testApp.databaseUrl, owner.usd.id)).some((event) => event.type === 'HoldVoided'));
    let refused: DomainError | undefined;
    try {
      await testApp.app.get(AccountsLedger).hold({ platformId: testApp.platform.platformId, accountId: owner.usd.id, holdId: lateHoldId, amount: 4_000 });
    } catch (error) {
      refused = error as DomainError;
    }
    expect([refused?.code, refused?.details?.reason]).toEqual(['INVALID_STATE_TRANSITION', 'HOLD_VOIDED']);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
    expect((await api().post(`/quotes/${quote.id}/execute`).expect(200)).body.status).toBe('PROCESSING');
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 6_000, total: 6_000 });
    const ledger = await ledgerEventTypes(testApp.databaseUrl, owner.usd.id);
    expect(ledger.map((event) => event.type)).toEqual(['InternalAccountOpened', 'FundsCredited', 'HoldVoided', 'FundsHeld', 'HoldSettled']);
    expect(ledger[3].data.holdId).toBe(holdIdFor(quote.id, 2));
  });

  it('an attempt refused after expiresAt leaves the quote EXPIRED (the expiry is checked again)', async () => {
    const owner = await fundedCustomer(api(), 1_000);
    const quote = await quoteToSuffix(api(), owner, '789', 1_000);
    const ref = { quoteId: quote.id, transactionId: quote.transactionId, platformId: testApp.platform.platformId };
    await events.append(
      streamNameFor(quote.id),
      [
        {
          type: 'QuoteExecutionRequested',
          data: { ...ref, attempt: 1, holdId: holdIdFor(quote.id, 1), sourceAccountId: owner.usd.id, amount: 1_000, scaFactor: null, requestedAt: new Date().toISOString() },
        },
      ],
      0,
      platformMetadata(),
    );
    // The account empties before the resume task holds: the attempt is refused, after expiresAt.
    const drain = await quoteToSuffix(api(), owner, '789', 1_000);
    await api().post(`/quotes/${drain.id}/execute`).expect(200);
    await quoteWithStatus(api(), quote.id, 'EXPIRED', 15_000);
    const types = (await events.readStream(streamNameFor(quote.id))).map((event) => event.type);
    expect(types).toEqual(['QuoteCreated', 'QuoteExecutionRequested', 'QuoteExecutionRejected', 'QuoteExpired']);
  });
});

describe('quotes: execute checks the clock when the expiry task has not run', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // No worker role: scheduled tasks never run, so only the clock check can expire the quote.
    testApp = await startTestApp({ env: { SANDBOX_QUOTE_LIFETIME_MS: '300' }, roles: ['api', 'projector'] });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('409 QUOTE_EXPIRED, and the quote and its transaction say EXPIRED from then on', async () => {
    const api = testApp.platform.api;
    const owner = await fundedCustomer(api, 10_000);
    const quote = await quoteToSuffix(api, owner, '789', 1_000);
    await sleep(Date.parse(quote.expiresAt) - Date.now() + 50);
    expect((await api.get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING');
    expect((await api.post(`/quotes/${quote.id}/execute`).expect(409)).body.details.reason).toBe('QUOTE_EXPIRED');
    expect((await api.get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('EXPIRED');
    expect((await api.get(`/transactions/${quote.transactionId}`).expect(200)).body.status).toBe('EXPIRED');
    expect(await balances(api, owner.usd.id)).toEqual({ available: 10_000, total: 10_000 });
  });
});
