import { assertLedgerInvariant, balances, quoteWithStatus, transactionWithStatus } from '../../support/quote-fixtures';
import { END_USER_IP, SCA_OTHER_ALLOWED_ORIGIN, SCA_PLATFORM_CONFIG, SCA_RP_ID, SMS_CODE, assertFor, challengeHexOf, enrollPasskey, newAuthenticator } from '../../support/sca-client';
import { EuropeanSender, europeanSender, linkedChallengeHex, quoteTo } from '../../support/sca-quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { SoftwareAuthenticator } from '../../support/webauthn-authenticator';

/**
 * "Done when" of issue 6: an EU customer's same-currency and cross-currency sends, with SMS and
 * with a passkey, go from execute through every challenge to settlement over HTTP.
 */
describe('SCA: quotes from execute through every challenge to settlement', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ platformConfig: SCA_PLATFORM_CONFIG });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const authorize = (quoteId: string, body: Record<string, unknown>) => api().post(`/quotes/${quoteId}/authorize`).send(body);
  const smsChallenge = (purpose: string) => ({
    id: expect.stringMatching(/^ScaChallenge:[0-9a-f-]{36}$/),
    expiresAt: expect.any(String),
    factor: 'SMS_OTP',
    availableFactors: ['SMS_OTP'],
    purpose,
  });

  async function settled(sender: EuropeanSender, quote: any, amount: number): Promise<void> {
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    expect(await balances(api(), sender.usd.id)).toEqual({ available: 1_000_000 - amount, total: 1_000_000 - amount });
    await assertLedgerInvariant(testApp.databaseUrl, api(), [sender.usd.id]);
  }

  it('same currency, SMS: PENDING_AUTHORIZATION with one TRANSFER challenge, nothing held; authorize releases it', async () => {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.usdPayee);
    const before = Date.now();
    const executed = await api().post(`/quotes/${quote.id}/execute`).expect(200);
    const { status: _status, ...terms } = quote;
    expect(executed.body).toEqual({ ...terms, status: 'PENDING_AUTHORIZATION', scaChallenge: smsChallenge('TRANSFER') });
    expect(Object.keys(executed.body)[1]).toBe('status');
    const lifetimeMs = Date.parse(executed.body.scaChallenge.expiresAt) - before;
    expect(lifetimeMs).toBeGreaterThan(4.9 * 60 * 1000);
    expect(lifetimeMs).toBeLessThanOrEqual(5 * 60 * 1000 + 5000);
    expect(await balances(api(), sender.usd.id)).toEqual({ available: 1_000_000, total: 1_000_000 });
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body).toEqual(executed.body);
    expect((await api().get('/quotes').query({ status: 'PENDING_AUTHORIZATION', customerId: sender.customer.id }).expect(200)).body.data).toEqual([executed.body]);
    expect((await api().get(`/transactions/${quote.transactionId}`).expect(200)).body.status).toBe('PENDING_AUTHORIZATION');

    const again = await api().post(`/quotes/${quote.id}/execute`).expect(409);
    expect(again.body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'The quote is waiting for SCA authorization: POST /quotes/{quoteId}/authorize',
      details: { reason: 'QUOTE_PENDING_AUTHORIZATION', status: 'PENDING_AUTHORIZATION' },
    });

    const released = await authorize(quote.id, { code: SMS_CODE, endUserIpAddress: END_USER_IP }).expect(200);
    expect(released.body).toEqual({ ...terms, status: 'PROCESSING' });
    expect(await balances(api(), sender.usd.id)).toEqual({ available: 1_000_000 - quote.totalSendingAmount, total: 1_000_000 });
    await settled(sender, quote, quote.totalSendingAmount);
    const transaction = await transactionWithStatus(api(), quote.transactionId, 'COMPLETED');
    expect(transaction).not.toHaveProperty('failureReason');
    // The code was accepted once: the quote no longer waits for a proof.
    const late = await authorize(quote.id, { code: SMS_CODE }).expect(409);
    expect(late.body.details).toEqual({ reason: 'QUOTE_NOT_PENDING_AUTHORIZATION', status: 'COMPLETED' });
  });

  it('cross currency, SMS: CURRENCY_CONVERSION then PAYOUT, each with a new id, then settlement', async () => {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.eurPayee);
    expect(quote.receivingCurrency.code).toBe('EUR');
    const executed = (await api().post(`/quotes/${quote.id}/execute`).send({ scaFactor: 'SMS_OTP' }).expect(200)).body;
    expect(executed.scaChallenge).toEqual(smsChallenge('CURRENCY_CONVERSION'));

    const second = (await authorize(quote.id, { code: SMS_CODE }).expect(200)).body;
    expect(second.status).toBe('PENDING_AUTHORIZATION');
    expect(second.scaChallenge).toEqual(smsChallenge('PAYOUT'));
    expect(second.scaChallenge.id).not.toBe(executed.scaChallenge.id);
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body).toEqual(second);
    expect(await balances(api(), sender.usd.id)).toEqual({ available: 1_000_000, total: 1_000_000 });

    const released = (await authorize(quote.id, { code: SMS_CODE, endUserIpAddress: '2001:db8::7' }).expect(200)).body;
    expect(released.status).toBe('PROCESSING');
    expect(released).not.toHaveProperty('scaChallenge');
    await settled(sender, quote, quote.totalSendingAmount);

    const history = (await api().get('/audit/events').query({ resourceId: quote.id }).expect(200)).body.data.map((entry: { type: string }) => entry.type);
    expect(history).toEqual([
      'QuoteCreated', 'QuoteAuthorizationRequested', 'QuoteScaChallengeIssued', 'QuoteAuthorized', 'QuoteExecutionRequested', 'QuoteFundsHeld', 'QuoteCompleted',
    ]);
  });

  describe('with a passkey', () => {
    let sender: EuropeanSender;
    let authenticator: SoftwareAuthenticator;

    beforeAll(async () => {
      sender = await europeanSender(api());
      authenticator = newAuthenticator();
      await enrollPasskey(api(), sender.customer.id, authenticator);
    });

    const passkeyChallenge = (purpose: string) => ({
      id: expect.stringMatching(/^ScaChallenge:/),
      expiresAt: expect.any(String),
      factor: 'PASSKEY',
      availableFactors: ['SMS_OTP', 'PASSKEY'],
      purpose,
      passkeyAssertionOptions: {
        rpId: SCA_RP_ID,
        challenge: expect.any(String),
        allowCredentials: [{ type: 'public-key', id: authenticator.credentialId, transports: ['internal'] }],
        userVerification: 'preferred',
        timeout: 300000,
      },
    });
    const prove = (quoteId: string, assertion: unknown, origin: string) => authorize(quoteId, { passkeyAssertion: assertion, origin, endUserIpAddress: END_USER_IP });

    it('same currency: the challenge links quote, amount, currency and payee; wrong amount, wrong origin refused; then settlement', async () => {
      const quote = await quoteTo(api(), sender, sender.usdPayee, 20_000);
      const executed = (await api().post(`/quotes/${quote.id}/execute`).send({ scaFactor: 'PASSKEY' }).expect(200)).body;
      expect(executed.scaChallenge).toEqual(passkeyChallenge('TRANSFER'));
      // Per-transaction challenges never carry allowed origins (those of the enrollment apply).
      expect(executed.scaChallenge).not.toHaveProperty('passkeyAllowedOrigins');
      const challenge = executed.scaChallenge;
      expect(challengeHexOf(challenge)).toBe(linkedChallengeHex(quote, challenge.id, 'SENDING'));

      const otherAmount = linkedChallengeHex({ ...quote, totalSendingAmount: quote.totalSendingAmount + 1 }, challenge.id, 'SENDING');
      const forOtherAmount = await prove(quote.id, authenticator.assert({ challenge: { hex: otherAmount } }), authenticator.origin).expect(400);
      expect(forOtherAmount.body.details).toMatchObject({ reason: 'CHALLENGE_MISMATCH', failedAttempts: 1 });
      expect(forOtherAmount.body.details.errors).toEqual([{ field: 'passkeyAssertion', constraint: {}, message: expect.any(String) }]);
      const otherPayee = linkedChallengeHex({ ...quote, destination: { accountId: sender.eurPayee.id } }, challenge.id, 'SENDING');
      expect((await prove(quote.id, authenticator.assert({ challenge: { hex: otherPayee } }), authenticator.origin).expect(400)).body.details.reason).toBe('CHALLENGE_MISMATCH');
      const evil = await prove(quote.id, assertFor(authenticator, challenge, { origin: 'https://evil.example' }), 'https://evil.example').expect(400);
      expect(evil.body.details).toMatchObject({ reason: 'ORIGIN_NOT_ALLOWED', failedAttempts: 3, errors: [{ field: 'origin' }] });
      const code = await authorize(quote.id, { code: SMS_CODE }).expect(400);
      expect(code.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['passkeyAssertion', 'origin', 'code']);

      const released = await prove(quote.id, assertFor(authenticator, challenge, { origin: SCA_OTHER_ALLOWED_ORIGIN }), SCA_OTHER_ALLOWED_ORIGIN).expect(200);
      expect(released.body.status).toBe('PROCESSING');
      await quoteWithStatus(api(), quote.id, 'COMPLETED');
    });

    it('cross currency: the PAYOUT challenge links the receiving amount; a replayed assertion is refused', async () => {
      const quote = await quoteTo(api(), sender, sender.eurPayee, 30_000);
      const executed = (await api().post(`/quotes/${quote.id}/execute`).send({ scaFactor: 'PASSKEY' }).expect(200)).body;
      expect(executed.scaChallenge).toEqual(passkeyChallenge('CURRENCY_CONVERSION'));
      expect(challengeHexOf(executed.scaChallenge)).toBe(linkedChallengeHex(quote, executed.scaChallenge.id, 'SENDING'));
      const conversionAssertion = assertFor(authenticator, executed.scaChallenge);
      const payout = (await prove(quote.id, conversionAssertion, authenticator.origin).expect(200)).body.scaChallenge;
      expect(payout).toEqual(passkeyChallenge('PAYOUT'));
      expect(challengeHexOf(payout)).toBe(linkedChallengeHex(quote, payout.id, 'RECEIVING'));

      // The conversion's assertion sent again: its challenge is spent, so it no longer matches.
      const replayed = await prove(quote.id, conversionAssertion, authenticator.origin).expect(400);
      expect(replayed.body.details.reason).toBe('CHALLENGE_MISMATCH');
      // A fresh signature over the right challenge with a counter already seen (a cloned authenticator).
      const cloned = await prove(quote.id, assertFor(authenticator, payout, { counter: authenticator.counter }), authenticator.origin).expect(400);
      expect(cloned.body.details.reason).toBe('COUNTER_NOT_INCREASING');

      expect((await prove(quote.id, assertFor(authenticator, payout), authenticator.origin).expect(200)).body.status).toBe('PROCESSING');
      await quoteWithStatus(api(), quote.id, 'COMPLETED');
    });
  });
});
