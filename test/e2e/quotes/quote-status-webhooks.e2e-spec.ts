import { TestApp, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { fundedCustomer, quoteToSuffix, quoteWithStatus, transactionWithStatus } from '../../support/quote-fixtures';
import { SMS_CODE } from '../../support/sca-client';
import { europeanSender, quoteTo } from '../../support/sca-quote-fixtures';

const LIFETIME_MS = 1_500;

/**
 * The OUTGOING_PAYMENT.* webhooks of the quote status moves not covered by quote-webhooks: a quote
 * that expires unexecuted (OUTGOING_PAYMENT.EXPIRED, DECISIONS.md section 2) and an SCA quote
 * (PENDING_AUTHORIZATION, then released). Each carries the transaction as GET showed it then.
 */
describe('quotes: OUTGOING_PAYMENT webhooks of expiry and SCA', () => {
  async function startWithReceiver(env: Record<string, string> = {}): Promise<{ testApp: TestApp; receiver: WebhookReceiver }> {
    const testApp = await startTestApp({ env });
    const receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
    return { testApp, receiver };
  }

  const typesFor = (receiver: WebhookReceiver, transactionId: string) =>
    receiver.received.filter((entry) => entry.body.data?.id === transactionId).map((entry) => entry.body.type);

  describe('expiry', () => {
    let testApp: TestApp;
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      ({ testApp, receiver } = await startWithReceiver({ SANDBOX_QUOTE_LIFETIME_MS: String(LIFETIME_MS) }));
    });

    afterAll(async () => {
      await testApp?.close();
      await receiver?.close();
    });

    it('a quote never executed: OUTGOING_PAYMENT.PENDING, then OUTGOING_PAYMENT.EXPIRED with the EXPIRED transaction', async () => {
      const api = testApp.platform.api;
      const owner = await fundedCustomer(api, 10_000);
      const quote = await quoteToSuffix(api, owner, '789', 1_000);
      await quoteWithStatus(api, quote.id, 'EXPIRED');
      const transaction = await transactionWithStatus(api, quote.transactionId, 'EXPIRED');
      const expired = await receiver.waitFor((entry) => entry.body.type === 'OUTGOING_PAYMENT.EXPIRED' && entry.body.data.id === quote.transactionId);
      expect(expired.body.data).toEqual(transaction);
      expect(expired.signatureValid).toBe(true);
      expect(typesFor(receiver, quote.transactionId)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.EXPIRED']);
    });
  });

  describe('SCA', () => {
    let testApp: TestApp;
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      ({ testApp, receiver } = await startWithReceiver());
    });

    afterAll(async () => {
      await testApp?.close();
      await receiver?.close();
    });

    it('execute: OUTGOING_PAYMENT.PENDING_AUTHORIZATION (nothing moved); the last authorization releases it to PROCESSING, then COMPLETED', async () => {
      const api = testApp.platform.api;
      const sender = await europeanSender(api);
      const quote = await quoteTo(api, sender, sender.usdPayee);
      const executed = (await api.post(`/quotes/${quote.id}/execute`).expect(200)).body;
      expect(executed.status).toBe('PENDING_AUTHORIZATION');
      const waiting = await receiver.waitFor((entry) => entry.body.type === 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION' && entry.body.data.id === quote.transactionId);
      expect(waiting.body.data).toEqual(expect.objectContaining({ id: quote.transactionId, quoteId: quote.id, status: 'PENDING_AUTHORIZATION' }));
      expect(waiting.body.data).not.toHaveProperty('settledAt');
      expect((await api.post(`/quotes/${quote.id}/authorize`).send({ code: SMS_CODE }).expect(200)).body.status).toBe('PROCESSING');
      const completed = await transactionWithStatus(api, quote.transactionId, 'COMPLETED');
      const done = await receiver.waitFor((entry) => entry.body.type === 'OUTGOING_PAYMENT.COMPLETED' && entry.body.data.id === quote.transactionId);
      expect(done.body.data).toEqual(completed);
      const types = typesFor(receiver, quote.transactionId);
      expect(types[0]).toBe('OUTGOING_PAYMENT.PENDING');
      expect(types[1]).toBe('OUTGOING_PAYMENT.PENDING_AUTHORIZATION');
      expect(types).toContain('OUTGOING_PAYMENT.PROCESSING');
      expect(types[types.length - 1]).toBe('OUTGOING_PAYMENT.COMPLETED');
    });

    it('authorize/resend of another platform\'s quote or an unknown quote: 404 QUOTE_NOT_FOUND, and the quote still waits', async () => {
      const api = testApp.platform.api;
      const sender = await europeanSender(api);
      const quote = await quoteTo(api, sender, sender.usdPayee);
      await api.post(`/quotes/${quote.id}/execute`).expect(200);
      const stranger = await testApp.createPlatform();
      const notFound = { status: 404, code: 'QUOTE_NOT_FOUND', message: 'Quote not found' };
      expect((await stranger.api.post(`/quotes/${quote.id}/authorize/resend`).send().expect(404)).body).toEqual(notFound);
      expect((await stranger.api.post(`/quotes/${quote.id}/authorize`).send({ code: SMS_CODE }).expect(404)).body).toEqual(notFound);
      expect((await stranger.api.post(`/quotes/${quote.id}/execute`).send().expect(404)).body).toEqual(notFound);
      expect((await api.post('/quotes/Quote:0195f000-0000-7000-8000-000000000000/authorize/resend').send().expect(404)).body).toEqual(notFound);
      expect((await api.get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING_AUTHORIZATION');
      expect((await api.post(`/quotes/${quote.id}/authorize`).send({ code: SMS_CODE }).expect(200)).body.status).toBe('PROCESSING');
    });
  });
});
