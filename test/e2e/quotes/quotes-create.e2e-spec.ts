import { quoteInvariantViolations } from '../../../src/quotes/pricing/invariants';
import { fundingReference } from '../../../src/quotes/pricing/payment-instructions';
import { buildQuoteExecutionPayload } from '../../../src/shared/wallet-payloads';
import { TestApp, startTestApp } from '../../support/test-app';
import { createBusiness, createIndividual, createUsdExternalAccount, germanIban } from '../../support/customer-fixtures';
import { FundedCustomer, accountQuoteBody, fundedCustomer } from '../../support/quote-fixtures';

const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MINUTE_MS = 60_000;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The hint of a currency field: every supported code (the list is long; these must be in it). */
/** The contract's PaymentRail enum: the only rail names a quote accepts and shows. */
const WIRE_RAILS = [
  'ACH', 'ACH_COLOMBIA', 'BANK_TRANSFER', 'BRE_B', 'CIPS', 'FAST', 'FASTER_PAYMENTS', 'FEDNOW', 'INSTAPAY', 'MOBILE_MONEY', 'NEFT', 'PAYNOW',
  'PESONET', 'PIX', 'RTGS', 'RTP', 'SEPA', 'SEPA_INSTANT', 'SPEI', 'SWIFT', 'UNIONPAY', 'UPI', 'WIRE',
];
const CURRENCY_ENUM = { enum: expect.arrayContaining(['USD', 'EUR', 'GBP', 'MXN', 'BRL', 'USDC', 'BTC']) };

function violations(quote: any): string[] {
  return quoteInvariantViolations({
    sendingCurrency: quote.sendingCurrency.code,
    receivingCurrency: quote.receivingCurrency.code,
    totalSendingAmount: quote.totalSendingAmount,
    totalReceivingAmount: quote.totalReceivingAmount,
    exchangeRate: quote.exchangeRate,
    feesIncluded: quote.feesIncluded,
    platformFeesIncluded: quote.platformFeesIncluded,
    rateDetails: quote.rateDetails,
  });
}

function lifetimeMs(quote: any): number {
  return Date.parse(quote.expiresAt) - Date.parse(quote.createdAt);
}

/** `POST /quotes`, `GET /quotes/{id}`, `GET /quotes`: every variant, every refusal, idempotency, isolation. */
describe('quotes: creation and reads', () => {
  let testApp: TestApp;
  let owner: FundedCustomer;
  let external: any;

  beforeAll(async () => {
    testApp = await startTestApp({
      platformConfig: {
        supportedCurrencies: ['USD', 'USDC', 'USDB', 'EUR'].map((currencyCode) => ({
          currencyCode,
          minAmount: 1,
          maxAmount: currencyCode === 'USD' ? 50_000_000 : 9_000_000_000_000_000,
          requiredCounterpartyFields: currencyCode === 'EUR' ? ['FULL_NAME', 'NATIONALITY', 'BIRTH_DATE', 'TAX_ID'] : [],
        })),
        feeConfigs: [{ currencyCode: 'USDC', fixedFee: 5_000, variableFeeRate: 0.01 }],
      },
    });
    owner = await fundedCustomer(testApp.platform.api, 1_000_000);
    external = await createUsdExternalAccount(testApp.platform.api, owner.customer.id, '789');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  it('ACCOUNT -> external USD account: 201 PENDING with the exact resource, default rail, 15-minute lifetime, transaction PENDING', async () => {
    const response = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 10_000, { description: 'Rent' })).expect(201);
    const quote = response.body;
    expect(Object.keys(quote)).toEqual([
      'id', 'status', 'createdAt', 'expiresAt', 'source', 'destination', 'sendingCurrency', 'receivingCurrency', 'totalSendingAmount',
      'totalReceivingAmount', 'exchangeRate', 'feesIncluded', 'platformFeesIncluded', 'transactionId', 'rateDetails', 'description',
    ]);
    expect(quote).toEqual({
      id: expect.stringMatching(/^Quote:[0-9a-f-]{36}$/),
      status: 'PENDING',
      createdAt: expect.stringMatching(ISO),
      expiresAt: expect.stringMatching(ISO),
      source: { sourceType: 'ACCOUNT', accountId: owner.usd.id, customerId: owner.customer.id },
      destination: { destinationType: 'ACCOUNT', accountId: external.id, paymentRail: 'ACH' },
      sendingCurrency: USD,
      receivingCurrency: USD,
      totalSendingAmount: 10_000,
      totalReceivingAmount: 9_990,
      exchangeRate: 1,
      feesIncluded: 10,
      platformFeesIncluded: 0,
      transactionId: expect.stringMatching(/^Transaction:[0-9a-f-]{36}$/),
      rateDetails: {
        counterpartyMultiplier: expect.any(Number),
        counterpartyFixedFee: 0,
        gridApiMultiplier: expect.any(Number),
        gridApiFixedFee: 10,
        gridApiVariableFeeRate: 0,
        gridApiVariableFeeAmount: 0,
      },
      description: 'Rent',
    });
    expect(violations(quote)).toEqual([]);
    expect(lifetimeMs(quote)).toBe(15 * MINUTE_MS);
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body).toEqual(quote);
    const transaction = (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body;
    // The quote's part of the transaction (its other fields are the transactions view's).
    expect(transaction).toMatchObject({
      id: quote.transactionId,
      status: 'PENDING',
      type: 'OUTGOING',
      direction: 'DEBIT',
      source: { sourceType: 'ACCOUNT', accountId: owner.usd.id, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: external.id, currency: 'USD', paymentRail: 'ACH' },
      customerId: owner.customer.id,
      platformCustomerId: owner.customer.platformCustomerId,
      sentAmount: { amount: 10_000, currency: USD },
      receivedAmount: { amount: 9_990, currency: USD },
      exchangeRate: 1,
      fees: 10,
      quoteId: quote.id,
      description: 'Rent',
      createdAt: quote.createdAt,
      updatedAt: quote.createdAt,
    });
    for (const absent of ['failureReason', 'refund', 'settledAt']) expect(transaction).not.toHaveProperty(absent);
  });

  it('a rail the account supports is used (RTP: a 5-minute lifetime); one it does not is 400', async () => {
    const rtp = await createUsdExternalAccount(api(), owner.customer.id, '789', { paymentRails: ['ACH', 'RTP'] });
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, rtp.id, 5_000, {
      destination: { destinationType: 'ACCOUNT', accountId: rtp.id, paymentRail: 'RTP' },
    })).expect(201)).body;
    expect(quote.destination.paymentRail).toBe('RTP');
    expect(lifetimeMs(quote)).toBe(5 * MINUTE_MS);
    const refused = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 5_000, {
      destination: { destinationType: 'ACCOUNT', accountId: external.id, paymentRail: 'RTP' },
    })).expect(400);
    expect(refused.body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'The request has invalid fields',
      details: { errors: [{ field: 'destination.paymentRail', constraint: { enum: ['ACH', 'WIRE'] }, message: 'The destination account does not support RTP; supported rails: ACH, WIRE' }] },
    });
  });

  it('RECEIVING-locked: the receiving amount is exactly the locked amount', async () => {
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 20_000, { lockedCurrencySide: 'RECEIVING' })).expect(201)).body;
    expect(quote.totalReceivingAmount).toBe(20_000);
    expect(quote.totalSendingAmount).toBe(20_010);
    expect(violations(quote)).toEqual([]);
  });

  it('ACCOUNT -> internal account in another currency (USD -> USDC): a book transfer (no rail shown), FX fee, invariants', async () => {
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, owner.accounts.USDC.id, 10_000)).expect(201)).body;
    // The contract names no rail for a book transfer: paymentRail is omitted, and none may be named.
    expect(quote.destination).toEqual({ destinationType: 'ACCOUNT', accountId: owner.accounts.USDC.id });
    expect(quote.receivingCurrency.code).toBe('USDC');
    expect(quote.totalReceivingAmount).toBe(100_000_000 - 0);
    expect(quote.feesIncluded).toBe(0);
    expect(violations(quote)).toEqual([]);
  });

  it('platform fees from feeConfigs are included (USDC source), and part of feesIncluded', async () => {
    const usdc = owner.accounts.USDC;
    await api().post(`/sandbox/internal-accounts/${usdc.id}/fund`).send({ amount: 1_000_000_000 }).expect(200);
    const quote = (await api().post('/quotes').send(accountQuoteBody(usdc.id, owner.usd.id, 100_000_000)).expect(201)).body;
    expect(quote.platformFeesIncluded).toBe(5_000 + 1_000_000);
    expect(quote.feesIncluded).toBe(quote.platformFeesIncluded);
    expect(quote.totalReceivingAmount).toBe(9_899);
    expect(violations(quote)).toEqual([]);
  });

  it('an EMBEDDED_WALLET source carries the payloadToSign binding quote, amounts and destination; 5-minute lifetime', async () => {
    const wallet = owner.accounts.USDB;
    await api().post(`/sandbox/internal-accounts/${wallet.id}/fund`).send({ amount: 50_000_000 }).expect(200);
    const quote = (await api().post('/quotes').send(accountQuoteBody(wallet.id, owner.usd.id, 10_000_000)).expect(201)).body;
    expect(lifetimeMs(quote)).toBe(5 * MINUTE_MS);
    expect(quote.paymentInstructions).toEqual([
      {
        accountOrWalletInfo: {
          accountType: 'EMBEDDED_WALLET',
          payloadToSign: buildQuoteExecutionPayload({
            walletAccountId: wallet.id,
            quoteId: quote.id,
            totalSendingAmount: quote.totalSendingAmount,
            sendingCurrency: 'USDB',
            totalReceivingAmount: quote.totalReceivingAmount,
            receivingCurrency: 'USD',
            destination: quote.destination,
            quoteCreatedAtMs: Date.parse(quote.createdAt),
          }),
        },
        instructionsNotes: expect.stringContaining('Service-Wallet-Signature'),
        isPlatformAccount: false,
      },
    ]);
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body).toEqual(quote);
  });

  it('REALTIME_FUNDING in USD: RTP/FedNow instructions with a unique reference, on behalf of the platform', async () => {
    const quote = (await api().post('/quotes').send({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 25_000,
    }).expect(201)).body;
    expect(quote.source).toEqual({ sourceType: 'REALTIME_FUNDING', currency: 'USD' });
    expect(lifetimeMs(quote)).toBe(5 * MINUTE_MS);
    expect(quote.paymentInstructions).toEqual([
      {
        accountOrWalletInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: expect.stringMatching(/^\d{12}$/),
          routingNumber: expect.stringMatching(/^\d{9}$/),
          bankName: 'Sandbox Settlement Bank',
          paymentRails: ['RTP', 'FEDNOW'],
          reference: fundingReference(quote.id),
        },
        instructionsNotes: expect.stringContaining(fundingReference(quote.id)),
        isPlatformAccount: true,
      },
    ]);
    const transaction = (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body;
    expect(transaction.source).toEqual({ sourceType: 'REALTIME_FUNDING', currency: 'USD' });
    expect(quote.source).toEqual({ sourceType: 'REALTIME_FUNDING', currency: 'USD' });
  });

  it('REALTIME_FUNDING in BTC (Spark address and Lightning invoice) and USDC on Solana, for a customer', async () => {
    const btc = (await api().post('/quotes').send({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'BTC', customerId: owner.customer.id },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 50_000,
    }).expect(201)).body;
    expect(btc.source).toEqual({ sourceType: 'REALTIME_FUNDING', currency: 'BTC', customerId: owner.customer.id, cryptoNetwork: 'SPARK' });
    expect(btc.paymentInstructions[0].accountOrWalletInfo).toEqual({
      accountType: 'SPARK_WALLET', assetType: 'BTC', address: expect.stringMatching(/^spark/), invoice: expect.stringMatching(/^lnbcrt/),
    });
    expect(btc.paymentInstructions[0].isPlatformAccount).toBe(false);
    expect(btc.totalReceivingAmount).toBe(50_000);
    const usdc = (await api().post('/quotes').send({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USDC', cryptoNetwork: 'SOLANA' },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000_000,
    }).expect(201)).body;
    expect(usdc.paymentInstructions[0].accountOrWalletInfo).toEqual({ accountType: 'SOLANA_WALLET', assetType: 'USDC', address: expect.any(String) });
  });

  it('REALTIME_FUNDING refuses non-instant and incomplete methods with every field listed', async () => {
    const response = await api().post('/quotes').send({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USDC', cryptoNetwork: 'ETHEREUM' },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000_000,
    }).expect(400);
    expect(response.body.details.errors).toEqual([
      { field: 'source.cryptoNetwork', constraint: { enum: ['SOLANA', 'BASE', 'POLYGON', 'SPARK'] }, message: 'ETHEREUM is not an instant payment method; real-time funding in USDC accepts SOLANA, BASE, POLYGON, SPARK' },
    ]);
    const missing = await api().post('/quotes').send({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USDT' },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5_000_000,
    }).expect(400);
    expect(missing.body.details.errors).toEqual([{ field: 'source.cryptoNetwork', constraint: {}, message: 'source.cryptoNetwork is required when the currency is a stablecoin' }]);
  });

  it('UMA test addresses: currency from the address, no rail shown, 5 minutes; unknown 400 INVALID_RECEIVER, malformed 400 INVALID_UMA_ADDRESS, wrong currency 400', async () => {
    for (const address of ['$success.usd@sandbox.uma.money', '$pending.long.usd@sandbox.uma.money', '$fail.compliance.usd@sandbox.uma.money']) {
      const quote = (await api().post('/quotes').send({
        source: { sourceType: 'ACCOUNT', accountId: owner.usd.id },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: address },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      }).expect(201)).body;
      expect(quote.destination).toEqual({ destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'USD' });
      expect(lifetimeMs(quote)).toBe(5 * MINUTE_MS);
      const transaction = (await api().get(`/transactions/${quote.transactionId}`).expect(200)).body;
      expect(transaction.destination).toEqual({ destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'USD' });
    }
    const uma = (umaAddress: string, currency?: string) => api().post('/quotes').send({
      source: { sourceType: 'ACCOUNT', accountId: owner.usd.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress, ...(currency ? { currency } : {}) },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    // POST /quotes declares no 404: no receiver at a well-formed address is an invalid receiver.
    expect((await uma('$nobody@sandbox.uma.money').expect(400)).body).toEqual({
      status: 400, code: 'INVALID_RECEIVER', message: 'No UMA receiver answers at $nobody@sandbox.uma.money', details: { reason: 'UMA_NOT_FOUND' },
    });
    expect((await uma('alice@example.com').expect(400)).body.code).toBe('INVALID_UMA_ADDRESS');
    expect((await uma('$success.eur@sandbox.uma.money', 'USD').expect(400)).body.code).toBe('INVALID_CURRENCY');
  });

  it('counterpartyInformation when the platform requires fields for the receiving currency (only those available)', async () => {
    const eurExternal = (await api().post('/customers/external-accounts').send({
      customerId: owner.customer.id,
      currency: 'EUR',
      accountInfo: {
        accountType: 'EUR_ACCOUNT',
        iban: germanIban('789'),
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Marie Curie', birthDate: '1967-11-07', nationality: 'FR', countryOfResidence: 'FR' },
      },
    }).expect(201)).body;
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, eurExternal.id, 10_000)).expect(201)).body;
    expect(quote.counterpartyInformation).toEqual({ BIRTH_DATE: '1967-11-07', FULL_NAME: 'Marie Curie', NATIONALITY: 'FR' });
    expect(quote.destination.paymentRail).toBe('SEPA_INSTANT');
    expect(violations(quote)).toEqual([]);
    expect(quote.exchangeRate).toBeGreaterThan(1);
  });

  it('lists every bad and unknown field at once', async () => {
    const response = await api().post('/quotes').send({
      source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:nope', customerId: 7, extra: true },
      destination: { destinationType: 'ACCOUNT', accountId: 'Customer:0195f0a0-0000-7000-8000-000000000000', paymentRail: 'TELEGRAPH' },
      lockedCurrencySide: 'BOTH',
      lockedCurrencyAmount: 1.5,
      description: 42,
      surprise: 'x',
    }).expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(response.body.details.errors.map((error: any) => [error.field, error.constraint]).sort()).toEqual([
      ['description', {}],
      ['destination.accountId', { pattern: `^(ExternalAccount|InternalAccount):${UUID}$` }],
      ['destination.paymentRail', { enum: WIRE_RAILS }],
      ['lockedCurrencyAmount', {}],
      ['lockedCurrencySide', { enum: ['SENDING', 'RECEIVING'] }],
      ['source.accountId', { format: 'InternalAccount-id' }],
      ['source.customerId', {}],
      ['source.extra', {}],
      ['surprise', {}],
    ]);
  });

  it.each([
    ['an empty body', {}, [['destination', {}], ['lockedCurrencyAmount', {}], ['lockedCurrencySide', {}], ['source', {}]]],
    ['a non-object body', [1], [['body', {}]]],
    ['variants missing their discriminators', { source: {}, destination: {}, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1 }, [['destination.destinationType', {}], ['source.sourceType', {}]]],
    ['unknown discriminators', { source: { sourceType: 'CARD' }, destination: { destinationType: 'IBAN' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1 }, [['destination.destinationType', { enum: ['ACCOUNT', 'UMA_ADDRESS'] }], ['source.sourceType', { enum: ['ACCOUNT', 'REALTIME_FUNDING'] }]]],
    ['amounts out of range', { source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:0195f0a0-0000-7000-8000-000000000000' }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: 'nope', currency: 'XXX' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 0 }, [['destination.currency', CURRENCY_ENUM], ['destination.umaAddress', { format: 'uma-address' }], ['lockedCurrencyAmount', {}]]],
    ['fields of the other variant', { source: { sourceType: 'REALTIME_FUNDING', accountId: 'x', currency: 'ZZZ' }, destination: { destinationType: 'UMA_ADDRESS', accountId: 'x' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 9_000_000_000_000_001 }, [['destination.accountId', {}], ['destination.umaAddress', {}], ['lockedCurrencyAmount', {}], ['source.accountId', {}], ['source.currency', CURRENCY_ENUM]]],
  ])('400 INVALID_INPUT for %s', async (_name, body, expected) => {
    const response = await api().post('/quotes').send(body).expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(response.body.details.errors.map((error: any) => [error.field, error.constraint]).sort()).toEqual(expected);
  });

  it('refuses what cannot be quoted: unknown accounts and customers 400 (no 404 declared), 403 not approved, other customers, FBO without customer, same account, amounts, funds', async () => {
    const unknownInternal = 'InternalAccount:0195f0a0-0000-7000-8000-000000000000';
    const unknownExternal = 'ExternalAccount:0195f0a0-0000-7000-8000-000000000000';
    const invalid = (field: string, message: string) => ({
      status: 400, code: 'INVALID_INPUT', message: 'The request has invalid fields', details: { errors: [{ field, constraint: {}, message }] },
    });
    expect((await api().post('/quotes').send(accountQuoteBody(unknownInternal, external.id)).expect(400)).body).toEqual(invalid('source.accountId', 'No internal account with this id'));
    expect((await api().post('/quotes').send(accountQuoteBody(owner.usd.id, unknownExternal)).expect(400)).body).toEqual(invalid('destination.accountId', 'No external account with this id'));
    expect((await api().post('/quotes').send(accountQuoteBody(owner.usd.id, unknownInternal)).expect(400)).body).toEqual(invalid('destination.accountId', 'No internal account with this id'));

    const realtimeFor = (customerId: string) => ({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect((await api().post('/quotes').send(realtimeFor('Customer:0195f0a0-0000-7000-8000-000000000000')).expect(400)).body).toEqual(invalid('source.customerId', 'No customer with this id'));
    const pending = await createIndividual(api(), { fullName: 'Pat Pending001' });
    expect((await api().post('/quotes').send(realtimeFor(pending.id)).expect(403)).body).toEqual({
      status: 403, code: 'FORBIDDEN', message: 'The customer is not approved to transact', details: { reason: 'CUSTOMER_NOT_APPROVED', kycStatus: 'PENDING' },
    });
    const business = await createBusiness(api());
    expect((await api().post('/quotes').send(realtimeFor(business.id)).expect(403)).body.details).toEqual({ reason: 'CUSTOMER_NOT_APPROVED', kybStatus: 'UNVERIFIED' });
    const leaving = await fundedCustomer(api(), 10_000);
    await api().delete(`/customers/${leaving.customer.id}`).expect(200);
    expect((await api().post('/quotes').send(accountQuoteBody(leaving.usd.id, external.id, 1_000)).expect(400)).body).toEqual(invalid('source.accountId', 'The customer was deleted'));

    const other = await fundedCustomer(api(), 10_000);
    const crossed = await api().post('/quotes').send(accountQuoteBody(other.usd.id, external.id, 1_000)).expect(400);
    expect(crossed.body.details.errors).toEqual([{ field: 'destination.accountId', constraint: {}, message: "The external account belongs to another customer than the quote's" }]);
    const wrongCustomer = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 1_000, {
      source: { sourceType: 'ACCOUNT', accountId: owner.usd.id, customerId: other.customer.id },
    })).expect(400);
    expect(wrongCustomer.body.details.errors[0].field).toBe('source.customerId');

    const platformUsd = (await api().get('/internal-accounts').query({ currency: 'USD' }).expect(200)).body.data.find((account: any) => !account.customerId);
    const fbo = await api().post('/quotes').send(accountQuoteBody(platformUsd.id, external.id, 1_000)).expect(400);
    expect(fbo.body.details.errors).toEqual([{ field: 'source.customerId', constraint: {}, message: 'source.customerId is required when funding from a platform (FBO) account' }]);

    expect((await api().post('/quotes').send(accountQuoteBody(owner.usd.id, owner.usd.id, 1_000)).expect(400)).body.code).toBe('SELF_PAYMENT');
    expect((await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 5)).expect(400)).body.code).toBe('AMOUNT_OUT_OF_RANGE');
    const tooMuch = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 60_000_000)).expect(400);
    expect(tooMuch.body).toEqual({
      status: 400, code: 'AMOUNT_OUT_OF_RANGE', message: 'totalSendingAmount must be from 1 to 50000000 for USD',
      details: { minAmount: 1, maxAmount: 50_000_000, totalSendingAmount: 60_000_000 },
    });
    const short = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 2_000_000)).expect(400);
    expect(short.body).toEqual({
      status: 400, code: 'INVALID_AMOUNT', message: 'The account balance is too low for this quote',
      details: { reason: 'INSUFFICIENT_FUNDS', accountId: owner.usd.id, available: expect.any(Number), requested: 2_000_000 },
    });
  });

  it('Idempotency-Key: the same request replays the first 201 byte for byte; another request under the key is 400', async () => {
    const key = '3f0c9a52-7b1e-4c8d-9e2f-5a6b7c8d9e0f';
    const body = accountQuoteBody(owner.usd.id, external.id, 3_000);
    const first = await api().post('/quotes').set('Idempotency-Key', key).send(body).expect(201);
    const replay = await api().post('/quotes').set('Idempotency-Key', key).send(body).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    const listed = await api().get('/quotes').query({ transactionId: first.body.transactionId }).expect(200);
    expect(listed.body.totalCount).toBe(1);
    const other = await api().post('/quotes').set('Idempotency-Key', key).send({ ...body, lockedCurrencyAmount: 3_001 }).expect(400);
    expect(other.body.details).toEqual({
      reason: 'IDEMPOTENCY_KEY_REUSED',
      errors: [{ field: 'Idempotency-Key', constraint: {}, message: 'This Idempotency-Key was used for a different request' }],
    });
  });

  it('GET /quotes/{id}: malformed or unknown 404 QUOTE_NOT_FOUND (no 400 declared); another platform gets 404 for every quote route', async () => {
    expect((await api().get('/quotes/not-a-quote').expect(404)).body).toEqual({ status: 404, code: 'QUOTE_NOT_FOUND', message: 'Quote not found' });
    expect((await api().get('/quotes/Quote:0195f0a0-0000-7000-8000-000000000000').expect(404)).body).toEqual({ status: 404, code: 'QUOTE_NOT_FOUND', message: 'Quote not found' });
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 2_000)).expect(201)).body;
    const stranger = await testApp.createPlatform();
    expect((await stranger.api.get(`/quotes/${quote.id}`).expect(404)).body.code).toBe('QUOTE_NOT_FOUND');
    expect((await stranger.api.post(`/quotes/${quote.id}/execute`).expect(404)).body.code).toBe('QUOTE_NOT_FOUND');
    expect((await stranger.api.post('/sandbox/send').send({ quoteId: quote.id, currencyCode: 'USD' }).expect(404)).body.code).toBe('QUOTE_NOT_FOUND');
    expect((await stranger.api.get(`/transactions/${quote.transactionId}`).expect(404)).body.code).toBe('TRANSACTION_NOT_FOUND');
    expect((await stranger.api.get('/quotes').expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect((await stranger.api.post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 2_000)).expect(400)).body.details.errors[0].field).toBe('source.accountId');
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING');
  });

  it('GET /quotes: newest first, filters, pagination, every bad parameter listed', async () => {
    const mine = await fundedCustomer(api(), 100_000);
    const theirs = await createUsdExternalAccount(api(), mine.customer.id, '789');
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) {
      ids.push((await api().post('/quotes').send(accountQuoteBody(mine.usd.id, theirs.id, 1_000 + index)).expect(201)).body.id);
    }
    const first = (await api().get('/quotes').query({ customerId: mine.customer.id, limit: 2 }).expect(200)).body;
    expect(first.data.map((quote: any) => quote.id)).toEqual([ids[2], ids[1]]);
    expect([first.hasMore, first.totalCount]).toEqual([true, 3]);
    const second = (await api().get('/quotes').query({ customerId: mine.customer.id, limit: 2, cursor: first.nextCursor }).expect(200)).body;
    expect(second.data.map((quote: any) => quote.id)).toEqual([ids[0]]);
    expect(second.hasMore).toBe(false);
    expect((await api().get('/quotes').query({ customerId: mine.customer.id, status: 'COMPLETED' }).expect(200)).body.totalCount).toBe(0);
    expect((await api().get('/quotes').query({ customerId: mine.customer.id, status: 'PENDING', createdAfter: '2000-01-01' }).expect(200)).body.totalCount).toBe(3);
    expect((await api().get('/quotes').query({ customerId: mine.customer.id, createdBefore: '2000-01-01' }).expect(200)).body.totalCount).toBe(0);
    const bad = await api().get('/quotes').query({ customerId: 'x', status: 'DONE', limit: 0, createdAfter: 'yesterday', colour: 'red' }).expect(400);
    expect(bad.body.details.errors.map((error: any) => error.field).sort()).toEqual(['colour', 'createdAfter', 'customerId', 'limit', 'status']);
    // Cursors that decode but name no position of this list (forged, or another list's) are 400, never a 500.
    const cardCursor = Buffer.from(JSON.stringify({ createdAt: '2026-01-01T00:00:00.000Z', id: 'Card:0195f000-0000-7000-8000-000000000000' })).toString('base64url');
    for (const cursor of [Buffer.from('{"x":1}').toString('base64url'), Buffer.from('{"createdAt":"soon","id":"Quote:0195f000-0000-7000-8000-000000000000"}').toString('base64url'), cardCursor, '!!!']) {
      expect((await api().get('/quotes').query({ cursor }).expect(400)).body.details.errors).toEqual([
        { field: 'cursor', constraint: {}, message: 'cursor is not a cursor this service issued' },
      ]);
    }
    const transactions = (await api().get('/transactions').query({ customerId: mine.customer.id, type: 'OUTGOING', status: 'PENDING' }).expect(200)).body;
    expect(transactions.totalCount).toBe(3);
  });
});
