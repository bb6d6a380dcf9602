import { TestApp, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { fundedCustomer, quoteToSuffix, transactionWithStatus } from '../../support/quote-fixtures';

/**
 * OUTGOING_PAYMENT.* webhooks of quotes, delivered for real through the webhooks registry: one per
 * status change of the quote's transaction, signed, each carrying the transaction exactly as
 * GET /transactions/{id} answered at that moment.
 */
describe('quotes: OUTGOING_PAYMENT webhooks', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
  });

  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  const api = () => testApp.platform.api;
  const ofType = (type: string, transactionId: string) =>
    receiver.waitFor((entry) => entry.body.type === type && entry.body.data.id === transactionId);

  it('PENDING at creation, PROCESSING at execute, COMPLETED, then FAILED for a return (suffix 005)', async () => {
    const owner = await fundedCustomer(api(), 50_000);
    const quote = await quoteToSuffix(api(), owner, '005', 10_000);
    const pending = (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body;
    expect((await ofType('OUTGOING_PAYMENT.PENDING', quote.transactionId)).body.data).toEqual(pending);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    const processing = await ofType('OUTGOING_PAYMENT.PROCESSING', quote.transactionId);
    expect(processing.body.data).toEqual({ ...pending, status: 'PROCESSING', updatedAt: processing.body.data.updatedAt });
    const failed = await transactionWithStatus(api(), quote.transactionId, 'FAILED');
    const completed = await ofType('OUTGOING_PAYMENT.COMPLETED', quote.transactionId);
    const { failureReason: _reason, refund: _refund, ...beforeReturn } = failed;
    expect(completed.body.data).toEqual({ ...beforeReturn, status: 'COMPLETED', updatedAt: failed.settledAt });
    for (const absent of ['failureReason', 'refund']) expect(completed.body.data).not.toHaveProperty(absent);
    expect((await ofType('OUTGOING_PAYMENT.FAILED', quote.transactionId)).body.data).toEqual(failed);
    const mine = receiver.received.filter((entry) => entry.body.data?.id === quote.transactionId);
    expect(mine.map((entry) => entry.body.type)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED', 'OUTGOING_PAYMENT.FAILED']);
    for (const entry of mine) expect(entry.signatureValid).toBe(true);
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
    const forShort = receiver.received.filter((entry) => entry.body.data?.id === short.transactionId).map((entry) => entry.body.type);
    expect(forShort).toEqual(['OUTGOING_PAYMENT.PENDING']);
  });
});
