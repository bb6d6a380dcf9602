import { balances, ledgerEventTypes, quoteWithStatus, transactionWithStatus } from '../../support/quote-fixtures';
import { SCA_PLATFORM_CONFIG, SMS_CODE, scaLogin } from '../../support/sca-client';
import { europeanSender, quoteTo } from '../../support/sca-quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Lifetimes of quote authorization, shortened (challenges 8 s, sessions 4 s: long enough for the steps
 * before them on a busy machine, the session ending well before the challenge): an expired
 * challenge fails the transaction with SCA_NOT_COMPLETED and nothing moved; an expired session is
 * 409 SCA_SESSION_REQUIRED on authorize. With the OUTGOING_PAYMENT webhooks of those transitions.
 */
describe('SCA: expired challenges and sessions on quotes', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;

  /**
   * Each case mostly waits for a challenge or a session to run out (4 to 8 s), on its own
   * customer: they all start at once, and each test awaits its own outcome.
   */
  let scenarios: Record<'expiredChallenge' | 'lateProof' | 'sessionRanOut' | 'realtimeLapsed', Promise<void>>;

  beforeAll(async () => {
    testApp = await startTestApp({ platformConfig: SCA_PLATFORM_CONFIG, env: { SCA_CHALLENGE_TTL_MS: '8000', SCA_SESSION_TTL_MS: '4000' } });
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
    const started = (scenario: () => Promise<void>) => {
      const outcome = scenario();
      outcome.catch(() => undefined); // reported by its own test
      return outcome;
    };
    scenarios = {
      expiredChallenge: started(expiredChallenge),
      lateProof: started(lateProof),
      sessionRanOut: started(sessionRanOut),
      realtimeLapsed: started(realtimeLapsed),
    };
  });

  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  const api = () => testApp.platform.api;
  const authorize = (quoteId: string) => api().post(`/quotes/${quoteId}/authorize`).send({ code: SMS_CODE });
  const webhookTypes = (transactionId: string) =>
    receiver.received.filter((entry) => entry.body.data?.id === transactionId).map((entry) => entry.body.type);

  it('an expired challenge fails the transaction at expiresAt: FAILED, SCA_NOT_COMPLETED, nothing moved', async () => {
    await scenarios.expiredChallenge;
  });

  it('a late proof is refused with 409 and the quote is FAILED when the answer goes out', async () => {
    await scenarios.lateProof;
  });

  it('authorize after the SCA session ran out: 409 SCA_SESSION_REQUIRED, then a new login lets it through', async () => {
    await scenarios.sessionRanOut;
  });

  it('a REALTIME_FUNDING quote whose challenge lapsed fails the same way', async () => {
    await scenarios.realtimeLapsed;
  });

  async function expiredChallenge(): Promise<void> {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.usdPayee);
    const executed = (await api().post(`/quotes/${quote.id}/execute`).expect(200)).body;
    const failed = await quoteWithStatus(api(), quote.id, 'FAILED', 15_000);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(executed.scaChallenge.expiresAt));
    const { scaChallenge: _challenge, ...terms } = executed;
    expect(failed).toEqual({ ...terms, status: 'FAILED' });
    const transaction = await transactionWithStatus(api(), quote.transactionId, 'FAILED');
    expect(transaction.failureReason).toBe('SCA_NOT_COMPLETED');
    expect(transaction).not.toHaveProperty('refund');
    expect(transaction).not.toHaveProperty('settledAt');
    expect(await balances(api(), sender.usd.id)).toEqual({ available: 1_000_000, total: 1_000_000 });
    expect((await ledgerEventTypes(testApp.databaseUrl, sender.usd.id)).map((event) => event.type)).not.toContain('FundsHeld');

    await scaLogin(api(), sender.customer.id);
    expect((await authorize(quote.id).expect(409)).body.details).toEqual({ reason: 'QUOTE_NOT_PENDING_AUTHORIZATION', status: 'FAILED' });
    expect((await api().post(`/quotes/${quote.id}/execute`).expect(409)).body.details).toEqual({ reason: 'QUOTE_ALREADY_EXECUTED', status: 'FAILED' });

    const failedWebhook = await receiver.waitFor((entry) => entry.body.type === 'OUTGOING_PAYMENT.FAILED' && entry.body.data.id === quote.transactionId);
    expect(failedWebhook.body.data).toEqual(transaction);
    expect(webhookTypes(quote.transactionId)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION', 'OUTGOING_PAYMENT.FAILED']);
  }

  async function lateProof(): Promise<void> {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.eurPayee);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    // The conversion in time, then the payout challenge left to lapse.
    const payout = (await authorize(quote.id).expect(200)).body.scaChallenge;
    expect(payout.purpose).toBe('PAYOUT');
    await sleep(Date.parse(payout.expiresAt) - Date.now() + 20);
    await scaLogin(api(), sender.customer.id);
    const late = await authorize(quote.id).expect(409);
    expect(['SCA_CHALLENGE_EXPIRED', 'QUOTE_NOT_PENDING_AUTHORIZATION']).toContain(late.body.details.reason);
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('FAILED');
    expect((await api().get(`/transactions/${quote.transactionId}`).expect(200)).body.failureReason).toBe('SCA_NOT_COMPLETED');
    expect(await balances(api(), sender.usd.id)).toEqual({ available: 1_000_000, total: 1_000_000 });
  }

  async function sessionRanOut(): Promise<void> {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.usdPayee);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    await sleep(4100);
    const refused = await authorize(quote.id).expect(409);
    expect(refused.body.code).toBe('SCA_SESSION_REQUIRED');
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING_AUTHORIZATION');
    await scaLogin(api(), sender.customer.id);
    expect((await authorize(quote.id).expect(200)).body.status).toBe('PROCESSING');
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    await receiver.waitFor((entry) => entry.body.type === 'OUTGOING_PAYMENT.COMPLETED' && entry.body.data.id === quote.transactionId);
    expect(webhookTypes(quote.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION', 'OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED',
    ]);
  }

  async function realtimeLapsed(): Promise<void> {
    const sender = await europeanSender(api(), 0);
    const created = (await api().post('/quotes').send({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: sender.customer.id },
      destination: { destinationType: 'ACCOUNT', accountId: sender.usdPayee.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000,
    }).expect(202)).body;
    const failed = await quoteWithStatus(api(), created.id, 'FAILED', 15_000);
    expect(failed).not.toHaveProperty('scaChallenge');
    expect((await api().get(`/transactions/${created.transactionId}`).expect(200)).body.failureReason).toBe('SCA_NOT_COMPLETED');
    // POST /sandbox/send declares no 409: a quote that can no longer be funded is a bad quoteId.
    const late = await api().post('/sandbox/send').send({ quoteId: created.id, currencyCode: 'USD' }).expect(400);
    expect(late.body.code).toBe('INVALID_INPUT');
    expect(late.body.details).toMatchObject({ reason: 'QUOTE_ALREADY_FUNDED', errors: [{ field: 'quoteId', constraint: {}, message: late.body.message }] });
  }
});
