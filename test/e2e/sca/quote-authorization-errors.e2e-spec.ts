import { createIndividual, createUsdExternalAccount } from '../../support/customer-fixtures';
import { balances, fundedCustomer, ledgerEventTypes, quoteToSuffix, quoteWithStatus, transactionWithStatus } from '../../support/quote-fixtures';
import { END_USER_IP, SCA_PLATFORM_CONFIG, SMS_CODE, enrollPasskey, newAuthenticator, scaLogin } from '../../support/sca-client';
import { europeanSender, quoteTo } from '../../support/sca-quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every refusal around quote authorization: sessions, factors, regions, states, the lock, resend
 * and its rate limit, concurrent proofs, a hold refused at release, and REALTIME_FUNDING quotes.
 */
describe('SCA: quote authorization refusals, races and real-time funding', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ platformConfig: SCA_PLATFORM_CONFIG, env: { SCA_RESEND_INTERVAL_MS: '1000', SCA_MAX_RESENDS: '2' } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const authorize = (quoteId: string, body: Record<string, unknown> = { code: SMS_CODE }) => api().post(`/quotes/${quoteId}/authorize`).send(body);
  const resend = (quoteId: string) => api().post(`/quotes/${quoteId}/authorize/resend`);

  it('execute and authorize need a live SCA session: 409 SCA_SESSION_REQUIRED, the quote stays PENDING', async () => {
    const sender = await europeanSender(api(), 1_000_000, { login: false });
    const quote = await quoteTo(api(), sender, sender.usdPayee);
    const refused = await api().post(`/quotes/${quote.id}/execute`).expect(409);
    expect(refused.body).toEqual({
      status: 409,
      code: 'SCA_SESSION_REQUIRED',
      message: 'The customer has no live SCA session: complete an SCA login (POST /sca/login/start, /sca/login/complete) first',
    });
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING');
    await scaLogin(api(), sender.customer.id);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
  });

  it('scaFactor: PASSKEY needs an enrolled passkey (409), TOTP is 400 INVALID_INPUT', async () => {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.usdPayee);
    const noPasskey = await api().post(`/quotes/${quote.id}/execute`).send({ scaFactor: 'PASSKEY' }).expect(409);
    expect(noPasskey.body).toEqual({ status: 409, code: 'CONFLICT', message: 'The customer has no enrolled PASSKEY factor', details: { reason: 'FACTOR_NOT_ENROLLED', factor: 'PASSKEY' } });
    const totp = await api().post(`/quotes/${quote.id}/execute`).send({ scaFactor: 'TOTP' }).expect(400);
    expect(totp.body.details.errors).toEqual([
      { field: 'scaFactor', constraint: { enum: ['SMS_OTP', 'PASSKEY'] }, message: 'TOTP cannot authorize a transfer (it cannot carry dynamic linking); use SMS_OTP or PASSKEY' },
    ]);
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING');
  });

  it('customers outside SCA regions: no challenge on execute, 409 from authorize and resend', async () => {
    const american = await fundedCustomer(api(), 100_000, { region: 'US' });
    const quote = await quoteToSuffix(api(), american, '789', 1_000);
    const expected = { status: 409, code: 'CONFLICT', message: 'Strong Customer Authentication does not apply to this customer', details: { reason: 'SCA_NOT_REQUIRED' } };
    expect((await authorize(quote.id).expect(409)).body).toEqual(expected);
    expect((await resend(quote.id).expect(409)).body).toEqual(expected);
    const executed = (await api().post(`/quotes/${quote.id}/execute`).send({ scaFactor: 'PASSKEY' }).expect(200)).body;
    expect(executed.status).toBe('PROCESSING');
    expect(executed).not.toHaveProperty('scaChallenge');
  });

  it('authorize and resend: unknown, malformed, another platform\'s, not pending, bad bodies', async () => {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.usdPayee);
    const notPending = await authorize(quote.id).expect(409);
    expect(notPending.body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'The quote is not waiting for SCA authorization',
      details: { reason: 'QUOTE_NOT_PENDING_AUTHORIZATION', status: 'PENDING' },
    });
    await resend(quote.id).expect(409);
    expect((await authorize('Quote:0195f000-0000-7000-8000-000000000000').expect(404)).body.code).toBe('QUOTE_NOT_FOUND');
    await authorize('Quote:nope').expect(400);
    // Resend declares no 400: an id that cannot name a quote is an unknown quote.
    expect((await resend('Quote:nope').expect(404)).body.code).toBe('QUOTE_NOT_FOUND');
    const other = await testApp.createPlatform();
    await other.api.post(`/quotes/${quote.id}/authorize`).send({ code: SMS_CODE }).expect(404);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    const bad = await authorize(quote.id, { code: 123456, passkeyAssertion: 'x', endUserIpAddress: 'localhost', surprise: true }).expect(400);
    expect(bad.body.details.errors.map((error: { field: string; constraint: object }) => [error.field, error.constraint]).sort()).toEqual([
      ['code', {}],
      ['endUserIpAddress', { format: 'ip' }],
      ['passkeyAssertion', {}],
      ['surprise', {}],
    ]);
    const none = await authorize(quote.id, {}).expect(400);
    expect(none.body.details.errors).toEqual([{ field: 'code', constraint: {}, message: 'code is required for an SMS_OTP challenge' }]);
    // Resend has no body: whatever is sent is not read (no 400 is declared); here the code was just sent, so 429.
    await api().post(`/quotes/${quote.id}/authorize/resend`).send({ extra: 1 }).expect(429);
    // None of these counted as a wrong proof, so the right code still works at once.
    expect((await authorize(quote.id).expect(200)).body.status).toBe('PROCESSING');
  });

  it('five wrong codes lock SCA: 423 ACCOUNT_LOCKED on authorize and on the right code; execute (no 423 declared) answers 409 with the lock as reason', async () => {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.usdPayee);
    const next = await quoteTo(api(), sender, sender.usdPayee);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const wrong = await authorize(quote.id, { code: '654321', endUserIpAddress: END_USER_IP }).expect(400);
      expect(wrong.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'The code is not valid for this challenge',
        details: {
          errors: [{ field: 'code', constraint: {}, message: 'The code is not valid for this challenge' }],
          reason: 'WRONG_CODE',
          failedAttempts: attempt,
          remainingAttempts: 5 - attempt,
        },
      });
    }
    const locked = await authorize(quote.id, { code: '654321' }).expect(423);
    expect(locked.body).toEqual({
      status: 423,
      code: 'ACCOUNT_LOCKED',
      message: 'Strong Customer Authentication is locked for this customer after too many wrong proofs',
      details: { suspended: true, lockedUntil: expect.any(String), failedAttempts: 5 },
    });
    expect((await authorize(quote.id).expect(423)).body.details).toEqual(locked.body.details);
    expect((await api().post(`/quotes/${next.id}/execute`).expect(409)).body).toMatchObject({ code: 'CONFLICT', details: { reason: 'ACCOUNT_LOCKED', suspended: true } });
    // Resend declares no 423: the lock is a 409 there, with the lock's details.
    expect((await resend(quote.id).expect(409)).body).toEqual({ status: 409, code: 'CONFLICT', message: locked.body.message, details: { reason: 'ACCOUNT_LOCKED', ...locked.body.details } });
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING_AUTHORIZATION');
    expect(await balances(api(), sender.usd.id)).toEqual({ available: 1_000_000, total: 1_000_000 });
  });

  it('resend: 204 keeping expiresAt; too soon or too often 429 RATE_LIMITED with Retry-After; PASSKEY 409', async () => {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.usdPayee);
    const challenge = (await api().post(`/quotes/${quote.id}/execute`).expect(200)).body.scaChallenge;
    const early = await resend(quote.id).expect(429);
    expect(early.body).toEqual({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'The SMS code was sent too recently or too often; retry later',
      details: { reason: 'RESEND_TOO_SOON', retryAfterSeconds: 1 },
    });
    expect(early.headers['retry-after']).toBe('1');
    for (let round = 1; round <= 2; round++) {
      await sleep(1050);
      const sent = await resend(quote.id).expect(204);
      expect(sent.text).toBe('');
    }
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.scaChallenge).toEqual(challenge);
    await sleep(1050);
    const exhausted = await resend(quote.id).expect(429);
    expect(exhausted.body.details.reason).toBe('RESEND_LIMIT_REACHED');
    expect(Number(exhausted.headers['retry-after'])).toBeGreaterThan(200);
    expect((await authorize(quote.id).expect(200)).body.status).toBe('PROCESSING');

    await enrollPasskey(api(), sender.customer.id, newAuthenticator());
    const passkeyQuote = await quoteTo(api(), sender, sender.usdPayee);
    await api().post(`/quotes/${passkeyQuote.id}/execute`).send({ scaFactor: 'PASSKEY' }).expect(200);
    const passkey = await resend(passkeyQuote.id).expect(409);
    expect(passkey.body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'Only SMS_OTP challenges can be resent; a PASSKEY challenge has no code to send',
      details: { reason: 'RESEND_NOT_AVAILABLE' },
    });
  });

  it('authorize: past 10 calls a minute for one challenge sequence 429 RATE_LIMITED with Retry-After, even for the right code; other quotes unaffected', async () => {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.usdPayee);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    for (let call = 1; call <= 10; call++) expect((await authorize(quote.id, {}).expect(400)).body.code).toBe('INVALID_INPUT');
    const limited = await authorize(quote.id).expect(429);
    expect(limited.body).toEqual({
      status: 429,
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many authorize calls for this challenge; retry after \d+ seconds$/),
      details: { reason: 'AUTHORIZE_LIMIT_REACHED', retryAfterSeconds: expect.any(Number) },
    });
    expect(Number(limited.headers['retry-after'])).toBe(limited.body.details.retryAfterSeconds);
    expect(limited.body.details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(limited.body.details.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING_AUTHORIZATION');
    const other = await quoteTo(api(), sender, sender.usdPayee);
    await api().post(`/quotes/${other.id}/execute`).expect(200);
    expect((await authorize(other.id).expect(200)).body.status).toBe('PROCESSING');
  });

  it('concurrent authorize calls with the same code release the transfer once', async () => {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.usdPayee, 40_000);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    const responses = await Promise.all(Array.from({ length: 6 }, () => authorize(quote.id)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    expect(responses.find((response) => response.status === 200)!.body.status).toBe('PROCESSING');
    for (const response of responses.filter((candidate) => candidate.status === 409)) {
      expect(['SCA_CHALLENGE_ALREADY_AUTHORIZED', 'QUOTE_NOT_PENDING_AUTHORIZATION']).toContain(response.body.details.reason);
    }
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    const ledger = await ledgerEventTypes(testApp.databaseUrl, sender.usd.id);
    expect(ledger.filter((event) => event.type === 'FundsHeld')).toHaveLength(1);
    expect(await balances(api(), sender.usd.id)).toEqual({ available: 960_000, total: 960_000 });
  });

  it('concurrent proofs on a cross-currency send satisfy the conversion once: the payout still waits for its own', async () => {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.eurPayee);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    const responses = await Promise.all(Array.from({ length: 5 }, () => authorize(quote.id)));
    // Each challenge is satisfied once. A proof is judged against the challenge the quote showed
    // when its call arrived: calls racing the winner get 409; on a loaded machine a call may only
    // arrive once the quote shows the PAYOUT challenge, and the sandbox code (the same for every
    // step) then satisfies that one, at most once.
    const conversion = responses.filter((response) => response.status === 200 && response.body.status === 'PENDING_AUTHORIZATION');
    const payout = responses.filter((response) => response.status === 200 && response.body.status === 'PROCESSING');
    const refused = responses.filter((response) => response.status === 409);
    expect(conversion).toHaveLength(1);
    expect(payout.length).toBeLessThanOrEqual(1);
    expect(refused).toHaveLength(5 - 1 - payout.length);
    for (const response of refused) {
      expect(['SCA_CHALLENGE_ALREADY_AUTHORIZED', 'QUOTE_NOT_PENDING_AUTHORIZATION']).toContain(response.body.details.reason);
    }
    const winner = conversion[0].body;
    expect(winner).toMatchObject({ status: 'PENDING_AUTHORIZATION', scaChallenge: { purpose: 'PAYOUT' } });
    if (payout.length === 0) {
      expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.scaChallenge).toEqual(winner.scaChallenge);
      expect(await balances(api(), sender.usd.id)).toEqual({ available: 1_000_000, total: 1_000_000 });
      expect((await authorize(quote.id).expect(200)).body.status).toBe('PROCESSING');
    }
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    const ledger = await ledgerEventTypes(testApp.databaseUrl, sender.usd.id);
    expect(ledger.filter((event) => event.type === 'FundsHeld')).toHaveLength(1);
  });

  it('a hold refused at release: 400 INVALID_AMOUNT (reason INSUFFICIENT_FUNDS) and the quote is PENDING again, to execute anew', async () => {
    const sender = await europeanSender(api(), 10_000);
    const first = await quoteTo(api(), sender, sender.usdPayee, 8_000);
    const second = await quoteTo(api(), sender, sender.usdPayee, 8_000);
    await api().post(`/quotes/${first.id}/execute`).expect(200);
    await api().post(`/quotes/${second.id}/execute`).expect(200);
    expect((await authorize(first.id).expect(200)).body.status).toBe('PROCESSING');
    const refused = await authorize(second.id).expect(400);
    expect(refused.body).toEqual({
      status: 400,
      code: 'INVALID_AMOUNT',
      message: 'The account balance is too low for this quote',
      details: { reason: 'INSUFFICIENT_FUNDS', accountId: sender.usd.id, available: 10_000 - first.totalSendingAmount, requested: second.totalSendingAmount },
    });
    expect((await api().get(`/quotes/${second.id}`).expect(200)).body.status).toBe('PENDING');
    const again = (await api().post(`/quotes/${second.id}/execute`).expect(200)).body;
    expect(again.status).toBe('PENDING_AUTHORIZATION');
  });

  it('execute replays by Idempotency-Key: the same challenge, not a second one', async () => {
    const sender = await europeanSender(api());
    const quote = await quoteTo(api(), sender, sender.usdPayee);
    const key = '3f2b8c1e-9a7d-4e6f-8b5c-1d2e3f4a5b6c';
    const first = await api().post(`/quotes/${quote.id}/execute`).set('Idempotency-Key', key).expect(200);
    const replay = await api().post(`/quotes/${quote.id}/execute`).set('Idempotency-Key', key).expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
  });

  describe('REALTIME_FUNDING for a customer in an SCA region', () => {
    const realtime = (customerId: string, payeeId: string) =>
      api().post('/quotes').send({
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId },
        destination: { destinationType: 'ACCOUNT', accountId: payeeId },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 25_000,
      });

    it('is created 202 PENDING_AUTHORIZATION, instructions withheld; authorized it is PENDING with them, then funded and settled', async () => {
      const sender = await europeanSender(api(), 0);
      const created = await realtime(sender.customer.id, sender.usdPayee.id).expect(202);
      expect(created.body).toMatchObject({ status: 'PENDING_AUTHORIZATION', scaChallenge: { factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: 'TRANSFER' } });
      expect(created.body).not.toHaveProperty('paymentInstructions');
      expect((await api().get(`/quotes/${created.body.id}`).expect(200)).body).toEqual(created.body);
      // POST /sandbox/send declares no 409: a quote that cannot be funded yet is a bad quoteId.
      const early = await api().post('/sandbox/send').send({ quoteId: created.body.id, currencyCode: 'USD' }).expect(400);
      expect(early.body.code).toBe('INVALID_INPUT');
      expect(early.body.details).toMatchObject({ reason: 'QUOTE_PENDING_AUTHORIZATION', errors: [{ field: 'quoteId', constraint: {}, message: early.body.message }] });
      expect((await api().post(`/quotes/${created.body.id}/execute`).expect(400)).body.code).toBe('INVALID_INPUT');

      const authorized = (await authorize(created.body.id).expect(200)).body;
      const { scaChallenge: _challenge, ...terms } = created.body;
      expect(authorized).toEqual({ ...terms, status: 'PENDING', paymentInstructions: expect.any(Array) });
      expect(authorized.paymentInstructions[0].accountOrWalletInfo.accountType).toBe('USD_ACCOUNT');
      expect(Object.keys(authorized).indexOf('paymentInstructions')).toBeLessThan(Object.keys(authorized).indexOf('transactionId'));
      expect((await api().get(`/quotes/${created.body.id}`).expect(200)).body).toEqual(authorized);
      await api().post('/sandbox/send').send({ quoteId: created.body.id, currencyCode: 'USD' }).expect(200);
      await transactionWithStatus(api(), created.body.transactionId, 'COMPLETED');
    });

    it('needs a live SCA session to be created; outside SCA regions it is created 201 PENDING as before', async () => {
      const sender = await europeanSender(api(), 0, { login: false });
      expect((await realtime(sender.customer.id, sender.usdPayee.id).expect(409)).body.code).toBe('SCA_SESSION_REQUIRED');
      const american = await createIndividual(api(), { region: 'US' });
      const payee = await createUsdExternalAccount(api(), american.id);
      const plain = (await realtime(american.id, payee.id).expect(201)).body;
      expect(plain.status).toBe('PENDING');
      expect(plain.paymentInstructions).toHaveLength(1);
    });
  });
});
