import { TestApp, anonymousClient, eventually, startTestApp } from '../../support/test-app';
import { createUsdExternalAccount, fund } from '../../support/customer-fixtures';
import { accountQuoteBody, balances, fundedCustomer, quoteToSuffix, quoteWithStatus } from '../../support/quote-fixtures';
import { generateClientKeyPair, stampPayload } from '../../support/wallet-client';
import { WalletApi } from '../../../src/wallet-auth/client';

/**
 * `POST /quotes/{quoteId}/execute`, row by row of SPEC.md's execute response table and the quote
 * state table (the SCA rows belong to the SCA issue: here EU customers behave like everyone else).
 */
describe('quotes: execute', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  it('200: PENDING -> PROCESSING, the sending amount held; then COMPLETED and the hold leaves', async () => {
    const owner = await fundedCustomer(api(), 50_000);
    const quote = await quoteToSuffix(api(), owner, '789', 10_000);
    const response = await api().post(`/quotes/${quote.id}/execute`).expect(200);
    expect(response.body).toEqual({ ...quote, status: 'PROCESSING' });
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 50_000 });
    const transaction = (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body;
    expect(transaction.status === 'PROCESSING' || transaction.status === 'COMPLETED').toBe(true);
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 40_000, total: 40_000 });
    const settled = (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body;
    expect(settled).toEqual(expect.objectContaining({ status: 'COMPLETED', settledAt: expect.any(String) }));
    for (const absent of ['failureReason', 'refund']) expect(settled).not.toHaveProperty(absent);
  });

  it('400 for a malformed quote id; 404 QUOTE_NOT_FOUND for an unknown one; 401 without platform credentials', async () => {
    expect((await api().post('/quotes/Quote:123/execute').expect(400)).body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'The request has invalid fields',
      details: { errors: [{ field: 'quoteId', constraint: { format: 'Quote-id' }, message: 'quoteId must be a Quote:<uuid> id' }] },
    });
    expect((await api().post('/quotes/Quote:0195f0a0-0000-7000-8000-000000000000/execute').expect(404)).body).toEqual({
      status: 404, code: 'QUOTE_NOT_FOUND', message: 'Quote not found',
    });
    const owner = await fundedCustomer(api(), 1_000);
    const quote = await quoteToSuffix(api(), owner, '789', 1_000);
    expect((await anonymousClient(testApp.baseUrl).post(`/quotes/${quote.id}/execute`).expect(401)).body.code).toBe('UNAUTHORIZED');
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING');
  });

  it('400 INVALID_INPUT for a REALTIME_FUNDING quote (it is funded, not executed)', async () => {
    const owner = await fundedCustomer(api(), 0);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const quote = (await api().post('/quotes').send({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: owner.customer.id },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    }).expect(201)).body;
    const response = await api().post(`/quotes/${quote.id}/execute`).expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'A REALTIME_FUNDING quote cannot be executed: pay its paymentInstructions (in the sandbox, POST /sandbox/send)',
      details: { errors: [{ field: 'quoteId', constraint: {}, message: 'A REALTIME_FUNDING quote is funded by its payment instructions, not executed' }] },
    });
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING');
  });

  it('400 INVALID_AMOUNT (reason INSUFFICIENT_FUNDS) leaves the quote PENDING with nothing held; after funding, execute succeeds', async () => {
    const owner = await fundedCustomer(api(), 10_000);
    const first = await quoteToSuffix(api(), owner, '789', 8_000);
    const second = await quoteToSuffix(api(), owner, '789', 8_000);
    await api().post(`/quotes/${first.id}/execute`).expect(200);
    await quoteWithStatus(api(), first.id, 'COMPLETED');
    const refused = await api().post(`/quotes/${second.id}/execute`).expect(400);
    expect(refused.body).toEqual({
      status: 400, code: 'INVALID_AMOUNT', message: 'The account balance is too low for this quote',
      details: { reason: 'INSUFFICIENT_FUNDS', accountId: owner.usd.id, available: 2_000, requested: 8_000 },
    });
    expect((await api().get(`/quotes/${second.id}`).expect(200)).body).toEqual(second);
    expect((await api().get(`/transactions/${second.transactionId}`).expect(200)).body.status).toBe('PENDING');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 2_000, total: 2_000 });
    await fund(api(), owner.usd.id, 6_000);
    expect((await api().post(`/quotes/${second.id}/execute`).expect(200)).body.status).toBe('PROCESSING');
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 0, total: 8_000 });
  });

  it('409 when already executed (PROCESSING), COMPLETED or FAILED; the quote is unchanged', async () => {
    const owner = await fundedCustomer(api(), 30_000);
    const quote = await quoteToSuffix(api(), owner, '789', 1_000);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    const again = await api().post(`/quotes/${quote.id}/execute`).expect(409);
    expect(again.body).toEqual({
      status: 409, code: 'CONFLICT', message: 'The quote was already executed', details: { reason: 'QUOTE_ALREADY_EXECUTED', status: expect.stringMatching(/^(PROCESSING|COMPLETED)$/) },
    });
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    expect((await api().post(`/quotes/${quote.id}/execute`).expect(409)).body.details).toEqual({ reason: 'QUOTE_ALREADY_EXECUTED', status: 'COMPLETED' });
    const failing = await quoteToSuffix(api(), owner, '002', 1_000);
    await api().post(`/quotes/${failing.id}/execute`).expect(200);
    await quoteWithStatus(api(), failing.id, 'FAILED');
    expect((await api().post(`/quotes/${failing.id}/execute`).expect(409)).body.details).toEqual({ reason: 'QUOTE_ALREADY_EXECUTED', status: 'FAILED' });
    // The failure's refund gives its hold back SANDBOX_REFUND_DELAY_MS later.
    await eventually(async () => (await balances(api(), owner.usd.id)).available === 29_000);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 29_000, total: 29_000 });
  });

  it('Idempotency-Key: a repeated execute replays the first 200 (executed once); another quote under the key is 400', async () => {
    const owner = await fundedCustomer(api(), 10_000);
    const quote = await quoteToSuffix(api(), owner, '789', 4_000);
    const key = '7d1f2e3a-4b5c-4d6e-8f90-a1b2c3d4e5f6';
    const first = await api().post(`/quotes/${quote.id}/execute`).set('Idempotency-Key', key).expect(200);
    const replay = await api().post(`/quotes/${quote.id}/execute`).set('Idempotency-Key', key).expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    expect((await balances(api(), owner.usd.id)).total - (await balances(api(), owner.usd.id)).available).toBeLessThanOrEqual(4_000);
    const other = await quoteToSuffix(api(), owner, '789', 1_000);
    expect((await api().post(`/quotes/${other.id}/execute`).set('Idempotency-Key', key).expect(400)).body.details).toEqual({
      reason: 'IDEMPOTENCY_KEY_REUSED',
      errors: [{ field: 'Idempotency-Key', constraint: {}, message: 'This Idempotency-Key was used for a different request' }],
    });
    // A refusal is replayed too: the same key answers the same 409 even after the state changes.
    const refusedKey = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const refused = await api().post(`/quotes/${quote.id}/execute`).set('Idempotency-Key', refusedKey).expect(409);
    const refusedAgain = await api().post(`/quotes/${quote.id}/execute`).set('Idempotency-Key', refusedKey).expect(409);
    expect(refusedAgain.text).toBe(refused.text);
  });

  it('scaFactor: SMS_OTP and PASSKEY are accepted and ignored outside SCA regions; TOTP and others are 400 (SCA regions: test/e2e/sca)', async () => {
    const owner = await fundedCustomer(api(), 10_000, { region: 'US' });
    const sms = await quoteToSuffix(api(), owner, '789', 1_000);
    expect((await api().post(`/quotes/${sms.id}/execute`).send({ scaFactor: 'SMS_OTP' }).expect(200)).body.status).toBe('PROCESSING');
    const passkey = await quoteToSuffix(api(), owner, '789', 1_000);
    expect((await api().post(`/quotes/${passkey.id}/execute`).send({ scaFactor: 'PASSKEY' }).expect(200)).body).not.toHaveProperty('scaChallenge');
    const other = await quoteToSuffix(api(), owner, '789', 1_000);
    expect((await api().post(`/quotes/${other.id}/execute`).send({ scaFactor: 'TOTP' }).expect(400)).body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'The request has invalid fields',
      details: { errors: [{ field: 'scaFactor', constraint: { enum: ['SMS_OTP', 'PASSKEY'] }, message: 'TOTP cannot authorize a transfer (it cannot carry dynamic linking); use SMS_OTP or PASSKEY' }] },
    });
    expect((await api().post(`/quotes/${other.id}/execute`).send({ scaFactor: 'EMAIL_OTP' }).expect(400)).body.details.errors[0]).toEqual({
      field: 'scaFactor', constraint: { enum: ['SMS_OTP', 'PASSKEY'] }, message: 'scaFactor must be one of SMS_OTP, PASSKEY',
    });
    expect((await api().post(`/quotes/${other.id}/execute`).send({ scaFactor: 3, note: 'x' }).expect(400)).body.details.errors.map((error: any) => error.field).sort()).toEqual(['note', 'scaFactor']);
    expect((await api().get(`/quotes/${other.id}`).expect(200)).body.status).toBe('PENDING');
    expect((await api().post(`/quotes/${other.id}/execute`).send({}).expect(200)).body.status).toBe('PROCESSING');
  });

  describe('EMBEDDED_WALLET source: Service-Wallet-Signature over payloadToSign', () => {
    const walletQuote = async () => {
      const owner = await fundedCustomer(api(), 0);
      await fund(api(), owner.accounts.USDB.id, 20_000_000);
      const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
      const quote = (await api().post('/quotes').send(accountQuoteBody(owner.accounts.USDB.id, external.id, 5_000_000)).expect(201)).body;
      return { owner, quote, payloadToSign: quote.paymentInstructions[0].accountOrWalletInfo.payloadToSign as string };
    };

    it('401 WALLET_SIGNATURE_MISSING, _MALFORMED, _INVALID (signed over another payload); nothing held', async () => {
      const { owner, quote } = await walletQuote();
      expect((await api().post(`/quotes/${quote.id}/execute`).expect(401)).body).toEqual({
        status: 401, code: 'WALLET_SIGNATURE_MISSING', message: 'Service-Wallet-Signature header is missing', details: { reason: 'Service-Wallet-Signature header is missing' },
      });
      expect((await api().post(`/quotes/${quote.id}/execute`).set('Service-Wallet-Signature', 'not base64url!').expect(401)).body.code).toBe('WALLET_SIGNATURE_MALFORMED');
      const key = generateClientKeyPair();
      const wrong = await stampPayload('{"another":"payload"}', key);
      expect((await api().post(`/quotes/${quote.id}/execute`).set('Service-Wallet-Signature', wrong).expect(401)).body).toEqual({
        status: 401, code: 'WALLET_SIGNATURE_INVALID', message: 'Wallet signature does not verify over payloadToSign', details: { reason: 'Wallet signature does not verify over payloadToSign' },
      });
      expect(await balances(api(), owner.accounts.USDB.id)).toEqual({ available: 20_000_000, total: 20_000_000 });
      expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING');
    });

    /** Logs the wallet in by email OTP (its initial credential) and answers the session key. */
    const walletSessionKey = async (walletAccountId: string) => {
      const client = new WalletApi({ baseUrl: testApp.baseUrl, clientId: testApp.platform.clientId, clientSecret: testApp.platform.clientSecret });
      const [credential] = await client.listCredentials(walletAccountId);
      return (await client.loginWithOtp(credential.id)).sessionKey;
    };

    it('a stamp over the exact payloadToSign (real ApiKeyStamper) by a live session key executes; so does the sandbox literal', async () => {
      const { owner, quote, payloadToSign } = await walletQuote();
      const stranger = await stampPayload(payloadToSign, generateClientKeyPair());
      expect((await api().post(`/quotes/${quote.id}/execute`).set('Service-Wallet-Signature', stranger).expect(401)).body.code).toBe('WALLET_SIGNATURE_INVALID');
      const stamp = await stampPayload(payloadToSign, await walletSessionKey(owner.accounts.USDB.id));
      expect((await api().post(`/quotes/${quote.id}/execute`).set('Service-Wallet-Signature', stamp).expect(200)).body.status).toBe('PROCESSING');
      expect(await balances(api(), owner.accounts.USDB.id)).toEqual({ available: 15_000_000, total: 20_000_000 });
      const literal = await walletQuote();
      await walletSessionKey(literal.owner.accounts.USDB.id);
      expect((await api().post(`/quotes/${literal.quote.id}/execute`).set('Service-Wallet-Signature', 'sandbox-valid-signature').expect(200)).body.status).toBe('PROCESSING');
    });

    it('other sources ignore the header', async () => {
      const owner = await fundedCustomer(api(), 5_000);
      const quote = await quoteToSuffix(api(), owner, '789', 1_000);
      expect((await api().post(`/quotes/${quote.id}/execute`).set('Service-Wallet-Signature', 'garbage').expect(200)).body.status).toBe('PROCESSING');
    });
  });
});
