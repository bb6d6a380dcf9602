import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { balances, fundedCustomer, quoteToSuffix, transactionWithStatus } from '../../support/quote-fixtures';

/**
 * OUTGOING_PAYMENT.* webhooks of quotes, delivered for real through the webhooks registry: one per
 * status change of the quote's transaction and of its refund, signed, each carrying the
 * transaction exactly as GET /transactions/{id} answered at that moment. One delivery slot per
 * platform here, so webhooks arrive in the order their events were recorded.
 */
describe('quotes: OUTGOING_PAYMENT webhooks', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { WEBHOOK_PLATFORM_CONCURRENCY: '1' } });
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
  });

  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  const api = () => testApp.platform.api;
  const ofType = (type: string, transactionId: string) =>
    receiver.waitFor((entry) => entry.body.type === type && entry.body.data.id === transactionId);
  const typesOf = (transactionId: string) => receiver.received.filter((entry) => entry.body.data?.id === transactionId).map((entry) => entry.body.type);

  it('PENDING at creation, PROCESSING at execute, COMPLETED, then FAILED and REFUND_PENDING for a return (suffix 005), REFUND_COMPLETED once credited', async () => {
    const owner = await fundedCustomer(api(), 50_000);
    const quote = await quoteToSuffix(api(), owner, '005', 10_000);
    const pending = (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body;
    expect((await ofType('OUTGOING_PAYMENT.PENDING', quote.transactionId)).body.data).toEqual(pending);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    const processing = await ofType('OUTGOING_PAYMENT.PROCESSING', quote.transactionId);
    expect(processing.body.data).toEqual({ ...pending, status: 'PROCESSING', updatedAt: processing.body.data.updatedAt });
    const refunded = await eventually(async () => {
      const response = await api().get(`/transactions/${quote.transactionId}`).expect(200);
      return response.body.refund?.status === 'COMPLETED' && response.body;
    });
    const completed = await ofType('OUTGOING_PAYMENT.COMPLETED', quote.transactionId);
    const { failureReason: _reason, refund: _refund, ...beforeReturn } = refunded;
    expect(completed.body.data).toEqual({ ...beforeReturn, status: 'COMPLETED', updatedAt: refunded.settledAt });
    for (const absent of ['failureReason', 'refund']) expect(completed.body.data).not.toHaveProperty(absent);
    // The return and its refund's start are one moment: the same transaction, refund PENDING.
    const failed = (await ofType('OUTGOING_PAYMENT.FAILED', quote.transactionId)).body.data;
    expect(failed).toEqual({ ...refunded, refund: { ...refunded.refund, status: 'PENDING', settledAt: undefined }, updatedAt: refunded.refund.initiatedAt });
    expect(failed.refund).not.toHaveProperty('settledAt');
    expect((await ofType('OUTGOING_PAYMENT.REFUND_PENDING', quote.transactionId)).body.data).toEqual(failed);
    expect((await ofType('OUTGOING_PAYMENT.REFUND_COMPLETED', quote.transactionId)).body.data).toEqual(refunded);
    expect(typesOf(quote.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED',
      'OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.REFUND_COMPLETED',
    ]);
    for (const entry of receiver.received.filter((candidate) => candidate.body.data?.id === quote.transactionId)) expect(entry.signatureValid).toBe(true);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 50_000, total: 50_000 });
  });

  it('a payout whose refund fails too (suffix 007): FAILED, REFUND_PENDING, then REFUND_FAILED, the money gone', async () => {
    const owner = await fundedCustomer(api(), 50_000);
    const quote = await quoteToSuffix(api(), owner, '007', 10_000);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    const lost = await eventually(async () => {
      const response = await api().get(`/transactions/${quote.transactionId}`).expect(200);
      return response.body.refund?.status === 'FAILED' && response.body;
    });
    const failed = (await ofType('OUTGOING_PAYMENT.FAILED', quote.transactionId)).body.data;
    expect(failed).toEqual({ ...lost, refund: { ...lost.refund, status: 'PENDING' }, updatedAt: lost.refund.initiatedAt });
    expect((await ofType('OUTGOING_PAYMENT.REFUND_PENDING', quote.transactionId)).body.data).toEqual(failed);
    expect((await ofType('OUTGOING_PAYMENT.REFUND_FAILED', quote.transactionId)).body.data).toEqual(lost);
    expect(lost.refund).not.toHaveProperty('settledAt');
    expect(typesOf(quote.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.REFUND_FAILED',
    ]);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 40_000 });
  });

  it('PROCESSING when a REALTIME_FUNDING quote is paid; a refused execute sends nothing', async () => {
    const owner = await fundedCustomer(api(), 1_000);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const realtime = (await api().post('/quotes').send({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 2_000,
    }).expect(201)).body;
    const sent = (await api().post('/sandbox/send').send({ quoteId: realtime.id, currencyCode: 'USD' }).expect(200)).body;
    expect((await ofType('OUTGOING_PAYMENT.PROCESSING', realtime.transactionId)).body.data).toEqual(sent);
    await ofType('OUTGOING_PAYMENT.COMPLETED', realtime.transactionId);

    const short = await quoteToSuffix(api(), owner, '789', 1_000);
    const drain = await quoteToSuffix(api(), owner, '789', 1_000);
    await api().post(`/quotes/${drain.id}/execute`).expect(200);
    await api().post(`/quotes/${short.id}/execute`).expect(400);
    await ofType('OUTGOING_PAYMENT.COMPLETED', drain.transactionId);
    expect(typesOf(short.transactionId)).toEqual(['OUTGOING_PAYMENT.PENDING']);
  });
});
