import { Client } from 'pg';
import { TestApp, startTestApp } from '../../support/test-app';
import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { FundedCustomer, accountQuoteBody, balances, fundedCustomer } from '../../support/quote-fixtures';
import { SCA_PLATFORM_CONFIG, scaLogin } from '../../support/sca-client';

/** The QuoteCreated event of a quote, as stored. */
async function createdEvent(databaseUrl: string, quoteId: string): Promise<any> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ data: any }>(
      `SELECT data FROM events WHERE stream_name = $1 AND event_type = 'QuoteCreated'`,
      [`quote-${quoteId.slice('Quote:'.length)}`],
    );
    return result.rows[0]?.data;
  } finally {
    await client.end();
  }
}

/** An EU (SCA region) customer with a funded USD account and a USD payee, logged in for SCA unless told otherwise. */
async function europeanPayer(testApp: TestApp, login: boolean): Promise<{ payer: FundedCustomer; payee: any }> {
  const payer = await fundedCustomer(testApp.platform.api, 100_000, { region: 'DE' });
  const payee = await createUsdExternalAccount(testApp.platform.api, payer.customer.id, '789');
  if (login) await scaLogin(testApp.platform.api, payer.customer.id);
  return { payer, payee };
}

/**
 * `POST /quotes` fields of the production contract beyond source, destination and amount:
 * lookupId, immediatelyExecute, remittanceInformation, purposeOfPayment, platformFeeOverride,
 * scaFactor, senderCustomerInfo; and the rail names it accepts.
 */
describe('quotes: request fields of the contract', () => {
  let testApp: TestApp;
  let owner: FundedCustomer;
  let external: any;
  const api = () => testApp.platform.api;

  beforeAll(async () => {
    testApp = await startTestApp({ platformConfig: SCA_PLATFORM_CONFIG });
    owner = await fundedCustomer(api(), 1_000_000);
    external = await createUsdExternalAccount(api(), owner.customer.id, '789');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('remittanceInformation, purposeOfPayment and senderCustomerInfo are accepted and stored with the quote (the Quote shows none)', async () => {
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 2_000, {
      remittanceInformation: 'Invoice 2024-117',
      purposeOfPayment: 'GOODS_OR_SERVICES',
      senderCustomerInfo: { FULL_NAME: 'Ada Lovelace', address: { country: 'GB' } },
    })).expect(201)).body;
    for (const field of ['remittanceInformation', 'purposeOfPayment', 'senderCustomerInfo']) expect(quote).not.toHaveProperty(field);
    const stored = await createdEvent(testApp.databaseUrl, quote.id);
    expect([stored.remittanceInformation, stored.purposeOfPayment, stored.senderCustomerInfo]).toEqual([
      'Invoice 2024-117', 'GOODS_OR_SERVICES', { FULL_NAME: 'Ada Lovelace', address: { country: 'GB' } },
    ]);
  });

  it('refuses bad values of the new fields, every one listed', async () => {
    const response = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 2_000, {
      remittanceInformation: 'x'.repeat(81),
      purposeOfPayment: 'BRIBE',
      senderCustomerInfo: ['not', 'an', 'object'],
      immediatelyExecute: 'yes',
      lookupId: 7,
      scaFactor: 'TOTP',
      platformFeeOverride: { platformFixedFee: { amount: -1, currency: 'XYZ' }, platformVariableFeeBps: 10_001, extra: 1 },
    })).expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(response.body.details.errors.map((error: any) => [error.field, error.constraint]).sort()).toEqual([
      ['immediatelyExecute', {}],
      ['lookupId', {}],
      ['platformFeeOverride.extra', {}],
      ['platformFeeOverride.platformFixedFee.amount', {}],
      ['platformFeeOverride.platformFixedFee.currency', { enum: expect.arrayContaining(['USD', 'EUR']) }],
      ['platformFeeOverride.platformVariableFeeBps', {}],
      ['purposeOfPayment', { enum: expect.arrayContaining(['GIFT', 'GOODS_OR_SERVICES', 'OTHER']) }],
      ['remittanceInformation', { maxLength: 80 }],
      ['scaFactor', { enum: ['SMS_OTP', 'PASSKEY'] }],
      ['senderCustomerInfo', {}],
    ]);
  });

  it('lookupId: an id no lookup recorded is 400 LOOKUP_REQUEST_FAILED (the operation declares no 404)', async () => {
    const lookupId = 'LookupRequest:0195f0a0-0000-7000-8000-000000000009';
    const response = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 2_000, { lookupId })).expect(400);
    expect(response.body).toEqual({
      status: 400, code: 'LOOKUP_REQUEST_FAILED', message: `Lookup request ${lookupId} was not found; quote without lookupId or with a current lookup`, details: { lookupId },
    });
  });

  it('platformFeeOverride replaces the platform fee for the quote (USD sources, fee in the sending currency)', async () => {
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 10_000, {
      platformFeeOverride: { platformFixedFee: { amount: 25, currency: 'USD' }, platformVariableFeeBps: 100 },
    })).expect(201)).body;
    // 25 fixed + 1% of 10_000; the service's own 10 on top; same currency, so the rest arrives.
    expect([quote.platformFeesIncluded, quote.feesIncluded, quote.totalReceivingAmount]).toEqual([125, 135, 9_865]);
    expect((await createdEvent(testApp.databaseUrl, quote.id)).platformFeeOverride).toEqual({ fixedFee: 25, currency: 'USD', variableFeeBps: 100 });

    const inEur = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 10_000, {
      platformFeeOverride: { platformFixedFee: { amount: 25, currency: 'EUR' }, platformVariableFeeBps: 0 },
    })).expect(400);
    expect(inEur.body.details.errors).toEqual([
      { field: 'platformFeeOverride.platformFixedFee.currency', constraint: { enum: ['USD'] }, message: 'The fixed fee must be in the sending currency USD' },
    ]);
    const everything = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 10_000, {
      platformFeeOverride: { platformFixedFee: { amount: 0, currency: 'USD' }, platformVariableFeeBps: 10_000 },
    })).expect(400);
    expect(everything.body.code).toBe('AMOUNT_OUT_OF_RANGE');
    const fromUsdc = await api().post('/quotes').send(accountQuoteBody(owner.accounts.USDC.id, owner.usd.id, 1_000_000, {
      platformFeeOverride: { platformFixedFee: { amount: 1, currency: 'USDC' }, platformVariableFeeBps: 0 },
    })).expect(400);
    expect(fromUsdc.body.details.errors).toEqual([
      { field: 'platformFeeOverride', constraint: {}, message: 'platformFeeOverride is supported for USD sources only, not USDC' },
    ]);
  });

  it('immediatelyExecute: created and executed in one call (201 PROCESSING, funds held); a short balance is 400 INVALID_AMOUNT naming the quote', async () => {
    const payer = await fundedCustomer(api(), 50_000);
    const payee = await createUsdExternalAccount(api(), payer.customer.id, '789');
    const quote = (await api().post('/quotes').send(accountQuoteBody(payer.usd.id, payee.id, 20_000, { immediatelyExecute: true })).expect(201)).body;
    expect(quote.status).toBe('PROCESSING');
    expect(await balances(api(), payer.usd.id)).toEqual({ available: 30_000, total: 50_000 });
    expect((await api().post(`/quotes/${quote.id}/execute`).expect(409)).body.details.reason).toBe('QUOTE_ALREADY_EXECUTED');

    const ordinary = (await api().post('/quotes').send(accountQuoteBody(payer.usd.id, payee.id, 20_000, { immediatelyExecute: false })).expect(201)).body;
    expect(ordinary.status).toBe('PENDING');
  });

  it('immediatelyExecute is refused for an EMBEDDED_WALLET source (it needs a signature over payloadToSign), and does nothing more for REALTIME_FUNDING', async () => {
    const wallet = owner.accounts.USDB;
    await api().post(`/sandbox/internal-accounts/${wallet.id}/fund`).send({ amount: 50_000_000 }).expect(200);
    const refused = await api().post('/quotes').send(accountQuoteBody(wallet.id, owner.usd.id, 10_000_000, { immediatelyExecute: true })).expect(400);
    expect(refused.body.details.errors).toEqual([
      { field: 'immediatelyExecute', constraint: {}, message: "An EMBEDDED_WALLET source is executed with POST /quotes/{quoteId}/execute and a Service-Wallet-Signature over the quote's payloadToSign" },
    ]);
    const realtime = (await api().post('/quotes').send({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: owner.customer.id },
      destination: { destinationType: 'ACCOUNT', accountId: external.id },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 1_000,
      immediatelyExecute: true,
    }).expect(201)).body;
    // Funded by its payment instructions (in the sandbox, POST /sandbox/send): nothing to execute.
    expect(realtime.status).toBe('PENDING');
    expect(realtime.paymentInstructions).toHaveLength(1);
  });

  it('immediatelyExecute for an SCA customer: 202 PENDING_AUTHORIZATION with the challenge (scaFactor honoured); without an SCA login 409 SCA_SESSION_REQUIRED (SPEC.md)', async () => {
    const { payer, payee } = await europeanPayer(testApp, true);
    const quote = await api().post('/quotes').send(accountQuoteBody(payer.usd.id, payee.id, 5_000, { immediatelyExecute: true, scaFactor: 'SMS_OTP' })).expect(202);
    expect(quote.body.status).toBe('PENDING_AUTHORIZATION');
    expect(quote.body.scaChallenge).toMatchObject({ factor: 'SMS_OTP', availableFactors: expect.arrayContaining(['SMS_OTP']) });
    expect(await balances(api(), payer.usd.id)).toEqual({ available: 100_000, total: 100_000 });

    const unlogged = await europeanPayer(testApp, false);
    const refused = await api().post('/quotes').send(accountQuoteBody(unlogged.payer.usd.id, unlogged.payee.id, 5_000, { immediatelyExecute: true })).expect(409);
    expect(refused.body).toMatchObject({ status: 409, code: 'SCA_SESSION_REQUIRED', details: { quoteId: expect.stringMatching(/^Quote:/) } });
  });

  it("destination.paymentRail takes the contract's rail names only; a wallet or book transfer takes none", async () => {
    const internalName = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 2_000, {
      destination: { destinationType: 'ACCOUNT', accountId: external.id, paymentRail: 'LIGHTNING' },
    })).expect(400);
    expect(internalName.body.details.errors).toEqual([
      { field: 'destination.paymentRail', constraint: { enum: expect.arrayContaining(['ACH', 'SEPA_INSTANT', 'NEFT', 'SWIFT']) }, message: expect.stringContaining('must be one of') },
    ]);
    const book = await api().post('/quotes').send(accountQuoteBody(owner.usd.id, owner.accounts.USDC.id, 2_000, {
      destination: { destinationType: 'ACCOUNT', accountId: owner.accounts.USDC.id, paymentRail: 'ACH' },
    })).expect(400);
    expect(book.body.details.errors).toEqual([
      { field: 'destination.paymentRail', constraint: { enum: [] }, message: 'The destination account takes no paymentRail; omit destination.paymentRail' },
    ]);
    const wire = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 2_000, {
      destination: { destinationType: 'ACCOUNT', accountId: external.id, paymentRail: 'WIRE' },
    })).expect(201)).body;
    expect(wire.destination).toEqual({ destinationType: 'ACCOUNT', accountId: external.id, paymentRail: 'WIRE' });
  });
});
