import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { streamNameFor } from '../../../src/infra/ids';
import { toWireJson } from '../../../src/infra/http/wire-json';
import { quoteWebhooks } from '../../../src/quotes/quote-webhooks';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { FundedCustomer, accountQuoteBody, balances, fundedCustomer, quoteToSuffix, quoteWithStatus, transactionWithStatus } from '../../support/quote-fixtures';

/** The transaction's refund; `reason` from the contract's Refund enum. An unsettled refund has no settledAt. */
const refundOf = (transactionId: string, status: string, reason: string, settled: boolean) => ({
  reference: `${transactionId}:refund`,
  initiatedAt: expect.any(String),
  ...(settled ? { settledAt: expect.any(String) } : {}),
  status,
  reason,
});

/** The transaction once its refund has `status` (a failure starts it PENDING; it ends SANDBOX_REFUND_DELAY_MS later). */
const withRefund = (api: TestApp['platform']['api'], transactionId: string, status: string): Promise<any> =>
  eventually(async () => {
    const response = await api.get(`/transactions/${transactionId}`);
    return response.status === 200 && response.body.refund?.status === status && response.body;
  });

/** The refunds end this long after the failure here: long enough to see them PENDING. */
const REFUND_DELAY_MS = 1_000;

/** A value as it goes on the wire (null-valued fields dropped), to compare mapped webhooks with GET answers. */
const onWire = (value: unknown): unknown => JSON.parse(toWireJson(value));

/**
 * Sandbox settlement after execute (DECISIONS.md section 5): every external-account suffix, the
 * UMA test addresses, internal destinations, `POST /sandbox/send` for REALTIME_FUNDING quotes,
 * with the transaction, its refund and the balances after each (a failure's refund PENDING, the
 * money where the failure left it, then the refund's end moving it); and the OUTGOING_PAYMENT.*
 * webhook mapping equal to the GET of each moment.
 */
describe('quotes: settlement', () => {
  let testApp: TestApp;
  let events: EventStoreService;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SANDBOX_REFUND_DELAY_MS: String(REFUND_DELAY_MS) } });
    events = testApp.app.get(EventStoreService);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  const executeToSuffix = async (suffix: string): Promise<{ owner: FundedCustomer; quote: any }> => {
    const owner = await fundedCustomer(api(), 50_000);
    const quote = await quoteToSuffix(api(), owner, suffix, 10_000);
    expect((await api().post(`/quotes/${quote.id}/execute`).expect(200)).body.status).toBe('PROCESSING');
    return { owner, quote };
  };

  it.each(['789', '000', '102', '999'])('suffix %s: COMPLETED, the hold settled (money left)', async (suffix) => {
    const { owner, quote } = await executeToSuffix(suffix);
    const transaction = await transactionWithStatus(api(), quote.transactionId, 'COMPLETED');
    expect(transaction).toEqual(expect.objectContaining({ settledAt: transaction.updatedAt }));
    for (const absent of ['failureReason', 'refund']) expect(transaction).not.toHaveProperty(absent);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 40_000 });
  });

  it.each([
    ['002', 'QUOTE_EXECUTION_FAILED', 'TRANSACTION_FAILED'],
    ['004', 'ACCOUNT_CANNOT_RECEIVE', 'TRANSACTION_FAILED'],
    // The contract has no failure reason for a cancellation: the refund says it.
    ['006', 'QUOTE_EXECUTION_FAILED', 'USER_CANCELLATION'],
  ])('suffix %s: FAILED %s, its refund (%s) PENDING with the hold kept, then COMPLETED: the hold released', async (suffix, reason, refundReason) => {
    const { owner, quote } = await executeToSuffix(suffix);
    const failed = await transactionWithStatus(api(), quote.transactionId, 'FAILED');
    expect(failed).toEqual(expect.objectContaining({ failureReason: reason, refund: refundOf(quote.transactionId, 'PENDING', refundReason, false) }));
    expect(failed).not.toHaveProperty('settledAt');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 50_000 });

    const refunded = await withRefund(api(), quote.transactionId, 'COMPLETED');
    // Only the refund moves: the transaction stays FAILED (the reference's refund webhooks show it so).
    expect(refunded).toEqual({ ...failed, refund: { ...failed.refund, status: 'COMPLETED', settledAt: refunded.updatedAt }, updatedAt: expect.any(String) });
    expect(Date.parse(refunded.refund.settledAt) - Date.parse(refunded.refund.initiatedAt)).toBeGreaterThanOrEqual(REFUND_DELAY_MS);
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('FAILED');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 50_000, total: 50_000 });
  });

  it('suffix 003: a long payment stays PROCESSING (about 6 minutes; 2 s in tests), then COMPLETED', async () => {
    const { owner, quote } = await executeToSuffix('003');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await api().get(`/transactions/${quote.transactionId}`).expect(200)).body.status).toBe('PROCESSING');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 50_000 });
    await transactionWithStatus(api(), quote.transactionId, 'COMPLETED');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 40_000 });
  });

  it('suffix 005: COMPLETED, then returned: FAILED PAYOUT_RETURNED, its refund PENDING (the money gone), then COMPLETED: credited back', async () => {
    const { owner, quote } = await executeToSuffix('005');
    const completed = await transactionWithStatus(api(), quote.transactionId, 'COMPLETED');
    const returned = await transactionWithStatus(api(), quote.transactionId, 'FAILED');
    expect(returned).toEqual({
      ...completed,
      status: 'FAILED',
      failureReason: 'PAYOUT_RETURNED',
      refund: refundOf(quote.transactionId, 'PENDING', 'TRANSACTION_FAILED', false),
      updatedAt: expect.any(String),
    });
    expect(returned.settledAt).toBe(completed.settledAt);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 40_000 });

    const refunded = await withRefund(api(), quote.transactionId, 'COMPLETED');
    expect(refunded).toEqual({ ...returned, refund: { ...returned.refund, status: 'COMPLETED', settledAt: refunded.updatedAt }, updatedAt: expect.any(String) });
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 50_000, total: 50_000 });
  });

  it('suffix 007: FAILED QUOTE_EXECUTION_FAILED, its refund PENDING (the hold kept), then FAILED: never settled, the money gone', async () => {
    const { owner, quote } = await executeToSuffix('007');
    const failed = await transactionWithStatus(api(), quote.transactionId, 'FAILED');
    expect(failed).toEqual(expect.objectContaining({ failureReason: 'QUOTE_EXECUTION_FAILED', refund: refundOf(quote.transactionId, 'PENDING', 'TRANSACTION_FAILED', false) }));
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 50_000 });

    const unrefunded = await withRefund(api(), quote.transactionId, 'FAILED');
    expect(unrefunded).toEqual({ ...failed, refund: { ...failed.refund, status: 'FAILED' }, updatedAt: expect.any(String) });
    expect(unrefunded.refund).not.toHaveProperty('settledAt');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 40_000 });
  });

  it.each([
    ['$success.usd@sandbox.uma.money', 'COMPLETED', null, 40_000],
    ['$pending.long.usd@sandbox.uma.money', 'COMPLETED', null, 40_000],
    ['$fail.compliance.usd@sandbox.uma.money', 'FAILED', 'COMPLIANCE_REJECTED', 50_000],
  ])('UMA %s: %s %s', async (umaAddress, status, reason, left) => {
    const owner = await fundedCustomer(api(), 50_000);
    const quote = (await api().post('/quotes').send({
      source: { sourceType: 'ACCOUNT', accountId: owner.usd.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    }).expect(201)).body;
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    if (umaAddress.startsWith('$pending')) {
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PROCESSING');
    }
    const transaction = await transactionWithStatus(api(), quote.transactionId, status);
    expect(transaction.failureReason).toBe(reason ?? undefined);
    expect(transaction.refund).toEqual(reason ? refundOf(quote.transactionId, 'PENDING', 'TRANSACTION_FAILED', false) : undefined);
    if (reason) {
      expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 50_000 });
      expect((await withRefund(api(), quote.transactionId, 'COMPLETED')).refund).toEqual(refundOf(quote.transactionId, 'COMPLETED', 'TRANSACTION_FAILED', true));
    }
    expect(await balances(api(), owner.usd.id)).toEqual({ available: left, total: left });
  });

  it('an internal destination in another currency is credited the receiving amount at completion', async () => {
    const owner = await fundedCustomer(api(), 50_000);
    const peer = await fundedCustomer(api(), 0);
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, peer.accounts.USDC.id, 10_000)).expect(201)).body;
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 40_000 });
    expect(await balances(api(), peer.accounts.USDC.id)).toEqual({ available: quote.totalReceivingAmount, total: quote.totalReceivingAmount });
  });

  describe('POST /sandbox/send (REALTIME_FUNDING)', () => {
    const realtimeQuote = async (destinationAccountId: string, customerId?: string) =>
      (await api().post('/quotes').send({
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', ...(customerId ? { customerId } : {}) },
        destination: { destinationType: 'ACCOUNT', accountId: destinationAccountId },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 25_000,
      }).expect(201)).body;

    it('200 with the transaction PROCESSING, then COMPLETED; the internal destination is credited', async () => {
      const peer = await fundedCustomer(api(), 0);
      const quote = await realtimeQuote(peer.accounts.USDC.id, peer.customer.id);
      const pending = (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body;
      const response = await api().post('/sandbox/send').send({ quoteId: quote.id, currencyCode: 'USD', currencyAmount: 25_000 }).expect(200);
      expect(response.body).toEqual({ ...pending, status: 'PROCESSING', updatedAt: expect.any(String) });
      expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toMatch(/^(PROCESSING|COMPLETED)$/);
      await transactionWithStatus(api(), quote.transactionId, 'COMPLETED');
      expect(await balances(api(), peer.accounts.USDC.id)).toEqual({ available: quote.totalReceivingAmount, total: quote.totalReceivingAmount });
    });

    it('a failing destination fails the funded quote with its refund (to the payer, outside the ledger): PENDING, then COMPLETED', async () => {
      const owner = await fundedCustomer(api(), 0);
      const external = await createUsdExternalAccount(api(), owner.customer.id, '004');
      const quote = await realtimeQuote(external.id, owner.customer.id);
      await api().post('/sandbox/send').send({ quoteId: quote.id, currencyCode: 'USD' }).expect(200);
      const transaction = await transactionWithStatus(api(), quote.transactionId, 'FAILED');
      expect(transaction.refund).toEqual(refundOf(quote.transactionId, 'PENDING', 'TRANSACTION_FAILED', false));
      expect((await withRefund(api(), quote.transactionId, 'COMPLETED')).refund).toEqual(refundOf(quote.transactionId, 'COMPLETED', 'TRANSACTION_FAILED', true));
    });

    it('wrong currency or amount 400 (every field), unknown quote 404, an ACCOUNT quote 400, a second send 400 (no 409 declared); replay by key', async () => {
      const owner = await fundedCustomer(api(), 10_000);
      const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
      const quote = await realtimeQuote(external.id);
      const wrong = await api().post('/sandbox/send').send({ quoteId: quote.id, currencyCode: 'EUR', currencyAmount: 1 }).expect(400);
      expect(wrong.body.details.errors).toEqual([
        { field: 'currencyCode', constraint: { enum: ['USD'] }, message: 'The quote is funded in USD, not EUR' },
        { field: 'currencyAmount', constraint: {}, message: 'The quote needs exactly 25000 (minor units of USD)' },
      ]);
      const shape = await api().post('/sandbox/send').send({ quoteId: 'nope', currencyCode: 'XYZ', currencyAmount: -5, more: 1 }).expect(400);
      expect(shape.body.details.errors.map((error: any) => [error.field, error.constraint]).sort()).toEqual([
        ['currencyAmount', {}], ['currencyCode', { enum: expect.arrayContaining(['USD', 'EUR', 'MXN', 'BTC']) }], ['more', {}], ['quoteId', { format: 'Quote-id' }],
      ]);
      expect((await api().post('/sandbox/send').send({}).expect(400)).body.details.errors.map((error: any) => error.field).sort()).toEqual(['currencyCode', 'quoteId']);
      expect((await api().post('/sandbox/send').send({ quoteId: 'Quote:0195f0a0-0000-7000-8000-000000000000', currencyCode: 'USD' }).expect(404)).body.code).toBe('QUOTE_NOT_FOUND');
      const prefunded = await quoteToSuffix(api(), owner, '789', 1_000);
      expect((await api().post('/sandbox/send').send({ quoteId: prefunded.id, currencyCode: 'USD' }).expect(400)).body.code).toBe('INVALID_INPUT');
      expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING');

      const key = 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e';
      const first = await api().post('/sandbox/send').set('Idempotency-Key', key).send({ quoteId: quote.id, currencyCode: 'USD' }).expect(200);
      const replay = await api().post('/sandbox/send').set('Idempotency-Key', key).send({ quoteId: quote.id, currencyCode: 'USD' }).expect(200);
      expect(replay.text).toBe(first.text);
      expect((await api().post('/sandbox/send').send({ quoteId: quote.id, currencyCode: 'USD' }).expect(400)).body).toEqual({
        status: 400, code: 'INVALID_INPUT', message: 'The quote was already funded',
        details: {
          reason: 'QUOTE_ALREADY_FUNDED', status: expect.stringMatching(/^(PROCESSING|COMPLETED)$/),
          errors: [{ field: 'quoteId', constraint: {}, message: 'The quote was already funded' }],
        },
      });
    });
  });

  it('OUTGOING_PAYMENT.* webhooks: one per status change, data equal to GET /transactions/{id} at that moment', async () => {
    const owner = await fundedCustomer(api(), 50_000);
    const quote = await quoteToSuffix(api(), owner, '003', 10_000);
    const pending = (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body;
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    const processing = (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body;
    const completed = await transactionWithStatus(api(), quote.transactionId, 'COMPLETED');
    const stream = await events.readStream(streamNameFor(quote.id));
    expect(stream.map((event) => event.type)).toEqual(['QuoteCreated', 'QuoteExecutionRequested', 'QuoteFundsHeld', 'QuoteCompleted']);
    const mapped = stream.map((event, index) => quoteWebhooks(event, stream.slice(0, index + 1)));
    expect(onWire(mapped)).toEqual([
      [{ type: 'OUTGOING_PAYMENT.PENDING', data: pending }],
      [],
      [{ type: 'OUTGOING_PAYMENT.PROCESSING', data: processing }],
      [{ type: 'OUTGOING_PAYMENT.COMPLETED', data: completed }],
    ]);

    // A return: FAILED and the refund's start from one event (told apart by type and key), then the refund's end.
    const returnedQuote = (await executeToSuffix('005')).quote;
    const returned = await transactionWithStatus(api(), returnedQuote.transactionId, 'FAILED');
    const refunded = await withRefund(api(), returnedQuote.transactionId, 'COMPLETED');
    const returnedStream = await eventually(async () => {
      const recorded = await events.readStream(streamNameFor(returnedQuote.id));
      return recorded.length === 6 && recorded;
    });
    expect(returnedStream.slice(3).map((event) => event.type)).toEqual(['QuoteCompleted', 'QuoteFailed', 'QuoteRefundCompleted']);
    expect(quoteWebhooks(returnedStream[3], returnedStream.slice(0, 4))[0].type).toBe('OUTGOING_PAYMENT.COMPLETED');
    const key = `${returnedQuote.transactionId}:refund`;
    expect(onWire(quoteWebhooks(returnedStream[4], returnedStream.slice(0, 5)))).toEqual([
      { type: 'OUTGOING_PAYMENT.FAILED', data: returned },
      { type: 'OUTGOING_PAYMENT.REFUND_PENDING', data: returned, key },
    ]);
    expect(onWire(quoteWebhooks(returnedStream[5], returnedStream))).toEqual([{ type: 'OUTGOING_PAYMENT.REFUND_COMPLETED', data: refunded, key }]);
  });
});
