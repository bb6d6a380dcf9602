import { rateBucketAt, rateSnapshotById } from '../../../src/quotes/pricing/rate-table';
import { receivingEstimate } from '../../../src/quotes/pricing/receiving-estimate';
import { TestApp, startTestApp } from '../../support/test-app';
import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { FundedCustomer, accountQuoteBody, fundedCustomer } from '../../support/quote-fixtures';

const LOOKUP_ID = /^LookupRequest:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MAX_AMOUNT = 9_000_000_000_000_000;
const EUR = { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 };
const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const UMA_PAYER_DATA = [{ name: 'IDENTIFIER', mandatory: true }, { name: 'FULL_NAME', mandatory: false }];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const umaPath = (address: string) => `/receiver/uma/${encodeURIComponent(address)}`;

/** The recorded lookup event, from the audit history (its rate snapshot makes the expected estimate exact). */
async function lookupEvent(testApp: TestApp, lookupId: string): Promise<any> {
  const history = (await testApp.platform.api.get('/audit/events').query({ resourceId: lookupId }).expect(200)).body;
  expect(history.data.map((entry: { type: string }) => entry.type)).toEqual(['ReceiverLookedUp']);
  return history.data[0];
}

/** What the lookup must show for a USD sender on the default sandbox platform (no fees, limits 1..9e15). */
function expectedEstimate(rateSnapshotId: string, receivingCurrency: string, rail: 'UMA' | 'ACH') {
  const snapshot = rateSnapshotById(rateSnapshotId)!;
  return receivingEstimate({ snapshot, sendingCurrency: 'USD', receivingCurrency, rail, platformFee: null }, { minAmount: 1, maxAmount: MAX_AMOUNT });
}

/**
 * Receiver lookups (issue 23 part 1): `GET /receiver/uma/{address}` and
 * `GET /receiver/external-account/{id}` answer the receiver's currency with the estimate POST
 * /quotes would price now, record the lookup (audit history), and POST /quotes accepts the
 * `lookupId` only for the same platform and destination before it expires.
 */
describe('receiver lookups', () => {
  let testApp: TestApp;
  let owner: FundedCustomer;
  let external: any;

  beforeAll(async () => {
    testApp = await startTestApp();
    owner = await fundedCustomer(testApp.platform.api, 1_000_000);
    external = await createUsdExternalAccount(testApp.platform.api, owner.customer.id, '789');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const umaQuote = (umaAddress: string, extra: Record<string, unknown> = {}) => ({
    source: { sourceType: 'ACCOUNT', accountId: owner.usd.id },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
    ...extra,
  });

  it('GET /receiver/uma/{address}: the receiver\'s currency priced as a quote would be, the payer data asked, recorded in the audit history', async () => {
    const response = await api().get(umaPath('$success.eur@sandbox.uma.money')).query({ customerId: owner.customer.id }).expect(200);
    expect(response.body.lookupId).toMatch(LOOKUP_ID);
    const event = await lookupEvent(testApp, response.body.lookupId);
    expect(event.data).toEqual(expect.objectContaining({
      lookupId: response.body.lookupId,
      platformId: testApp.platform.platformId,
      customerId: owner.customer.id,
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.eur@sandbox.uma.money' },
      sendingCurrency: 'USD',
    }));
    expect(Date.parse(event.data.expiresAt) - Date.parse(event.data.lookedUpAt)).toBe(5 * 60 * 1000);
    const estimate = expectedEstimate(event.data.rateSnapshotId, 'EUR', 'UMA');
    expect(response.body).toEqual({
      lookupId: response.body.lookupId,
      receiverUmaAddress: '$success.eur@sandbox.uma.money',
      supportedCurrencies: [{ currency: EUR, estimatedExchangeRate: estimate.estimatedExchangeRate, min: estimate.min, max: estimate.max }],
      requiredPayerDataFields: UMA_PAYER_DATA,
    });
    expect(estimate.min).toBeGreaterThan(0);
    expect(estimate.max).toBeGreaterThan(estimate.min);
  });

  it('the sender by senderUmaAddress (case-insensitive), or both naming the same customer; the estimate is the quote\'s rate', async () => {
    const bucket = rateBucketAt(new Date());
    const bySender = (await api().get(umaPath('$Success.EUR@sandbox.uma.money')).query({ senderUmaAddress: owner.customer.umaAddress.toUpperCase() }).expect(200)).body;
    expect(bySender.receiverUmaAddress).toBe('$success.eur@sandbox.uma.money');
    expect((await lookupEvent(testApp, bySender.lookupId)).data.customerId).toBe(owner.customer.id);
    await api().get(umaPath('$success.eur@sandbox.uma.money')).query({ senderUmaAddress: owner.customer.umaAddress, customerId: owner.customer.id }).expect(200);
    const quote = (await api().post('/quotes').send(umaQuote('$success.eur@sandbox.uma.money', { lookupId: bySender.lookupId })).expect(201)).body;
    expect(quote.receivingCurrency).toEqual(EUR);
    // Same five-minute rate snapshot: the estimate is exactly the quote's rate.
    if (rateBucketAt(new Date()) === bucket) expect(quote.exchangeRate).toBe(bySender.supportedCurrencies[0].estimatedExchangeRate);
  });

  it('each sandbox UMA address behaves as on quotes: test receivers answer (currency from the address), unknown 404 UMA_NOT_FOUND, malformed 400 INVALID_UMA_ADDRESS', async () => {
    for (const address of ['$success.usd@sandbox.uma.money', '$pending.long.usd@sandbox.uma.money', '$fail.compliance.usd@sandbox.uma.money']) {
      const body = (await api().get(umaPath(address)).query({ customerId: owner.customer.id }).expect(200)).body;
      const estimate = expectedEstimate((await lookupEvent(testApp, body.lookupId)).data.rateSnapshotId, 'USD', 'UMA');
      expect(body).toEqual({
        lookupId: expect.stringMatching(LOOKUP_ID),
        receiverUmaAddress: address,
        supportedCurrencies: [{ currency: USD, ...estimate }],
        requiredPayerDataFields: UMA_PAYER_DATA,
      });
      // The quote names the lookup and pays the same receiver (its outcome follows the address).
      await api().post('/quotes').send(umaQuote(address, { lookupId: body.lookupId })).expect(201);
    }
    expect((await api().get(umaPath('$nobody@sandbox.uma.money')).query({ customerId: owner.customer.id }).expect(404)).body).toEqual({
      status: 404, code: 'UMA_NOT_FOUND', message: 'No UMA receiver answers at $nobody@sandbox.uma.money',
    });
    expect((await api().get(umaPath('$success.xyz@sandbox.uma.money')).query({ customerId: owner.customer.id }).expect(404)).body.code).toBe('UMA_NOT_FOUND');
    expect((await api().get(umaPath('alice@example.com')).query({ customerId: owner.customer.id }).expect(400)).body).toEqual({
      status: 400, code: 'INVALID_UMA_ADDRESS', message: 'UMA addresses must look like $user@domain.com',
      details: { errors: [{ field: 'receiverUmaAddress', constraint: { format: 'uma-address' }, message: 'receiverUmaAddress must look like $user@domain.com' }] },
    });
  });

  it('400 INVALID_INPUT listing every bad path and query field at once', async () => {
    const neither = (await api().get(umaPath('bad')).query({ limit: '5', extra: 'x' }).expect(400)).body;
    expect(neither).toEqual({
      status: 400, code: 'INVALID_INPUT', message: 'The request has invalid fields',
      details: {
        errors: [
          { field: 'extra', constraint: {}, message: 'Unknown query parameter extra' },
          { field: 'limit', constraint: {}, message: 'Unknown query parameter limit' },
          { field: 'customerId', constraint: {}, message: 'Give customerId or senderUmaAddress: who sends' },
          { field: 'senderUmaAddress', constraint: {}, message: 'Give customerId or senderUmaAddress: who sends' },
          { field: 'receiverUmaAddress', constraint: { format: 'uma-address' }, message: 'receiverUmaAddress must look like $user@domain.com' },
        ],
      },
    });
    const malformed = (await api().get('/receiver/external-account/nope').query({ customerId: 'Customer:1', senderUmaAddress: 'x' }).expect(400)).body;
    expect(malformed.code).toBe('INVALID_INPUT');
    expect(malformed.details.errors.map((error: { field: string }) => error.field)).toEqual(['customerId', 'senderUmaAddress', 'accountId']);
  });

  it('400 naming the sender field: unknown customer, unknown sender UMA address, the two naming different customers, a deleted customer', async () => {
    const path = umaPath('$success.usd@sandbox.uma.money');
    const fieldError = async (query: Record<string, string>) => (await api().get(path).query(query).expect(400)).body.details.errors;
    expect(await fieldError({ customerId: 'Customer:0195f0a0-0000-7000-8000-000000000009' })).toEqual([{ field: 'customerId', constraint: {}, message: 'No customer with this id' }]);
    expect(await fieldError({ senderUmaAddress: '$nobody@example.com' })).toEqual([
      { field: 'senderUmaAddress', constraint: {}, message: 'No customer of this platform has this UMA address' },
    ]);
    expect(await fieldError({ customerId: owner.customer.id, senderUmaAddress: '$someone.else@example.com' })).toEqual([
      { field: 'senderUmaAddress', constraint: {}, message: `senderUmaAddress is not the UMA address of ${owner.customer.id}` },
    ]);
    const gone = await fundedCustomer(api(), 0);
    await api().delete(`/customers/${gone.customer.id}`).expect(200);
    expect(await fieldError({ customerId: gone.customer.id })).toEqual([{ field: 'customerId', constraint: {}, message: 'The customer was deleted' }]);
  });

  it('GET /receiver/external-account/{id}: the account\'s currency on its default rail, no payer data asked; POST /quotes takes the lookupId', async () => {
    const body = (await api().get(`/receiver/external-account/${external.id}`).query({ customerId: owner.customer.id }).expect(200)).body;
    const event = await lookupEvent(testApp, body.lookupId);
    expect(event.data.destination).toEqual({ destinationType: 'ACCOUNT', accountId: external.id });
    // ACH is not instant: the lookup lives as long as an ACH quote.
    expect(Date.parse(event.data.expiresAt) - Date.parse(event.data.lookedUpAt)).toBe(15 * 60 * 1000);
    const estimate = expectedEstimate(event.data.rateSnapshotId, 'USD', 'ACH');
    expect(body).toEqual({ lookupId: body.lookupId, accountId: external.id, supportedCurrencies: [{ currency: USD, ...estimate }] });
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 10_000, { lookupId: body.lookupId })).expect(201)).body;
    expect(quote.exchangeRate).toBe(estimate.estimatedExchangeRate);
  });

  it('external account: unknown or another platform\'s 404 REFERENCE_NOT_FOUND; another customer\'s 400 on the sender field', async () => {
    const unknown = 'ExternalAccount:0195f0a0-0000-7000-8000-000000000009';
    expect((await api().get(`/receiver/external-account/${unknown}`).query({ customerId: owner.customer.id }).expect(404)).body).toEqual({
      status: 404, code: 'REFERENCE_NOT_FOUND', message: 'External account not found',
    });
    const other = await testApp.createPlatform();
    const stranger = await fundedCustomer(other.api, 0);
    expect((await other.api.get(`/receiver/external-account/${external.id}`).query({ customerId: stranger.customer.id }).expect(404)).body.code).toBe('REFERENCE_NOT_FOUND');
    const someoneElse = await fundedCustomer(api(), 0);
    expect((await api().get(`/receiver/external-account/${external.id}`).query({ senderUmaAddress: someoneElse.customer.umaAddress }).expect(400)).body.details.errors).toEqual([
      { field: 'senderUmaAddress', constraint: {}, message: `${external.id} belongs to another customer than the sender` },
    ]);
  });

  it('POST /quotes refuses a lookupId that is unknown, another platform\'s or for another destination: 400 LOOKUP_REQUEST_FAILED (no 404 declared)', async () => {
    const unknown = 'LookupRequest:0195f0a0-0000-7000-8000-000000000009';
    const notFound = (lookupId: string) => ({
      status: 400, code: 'LOOKUP_REQUEST_FAILED', message: `Lookup request ${lookupId} was not found; quote without lookupId or with a current lookup`, details: { lookupId },
    });
    expect((await api().post('/quotes').send(umaQuote('$success.usd@sandbox.uma.money', { lookupId: unknown })).expect(400)).body).toEqual(notFound(unknown));
    expect((await api().post('/quotes').send(umaQuote('$success.usd@sandbox.uma.money', { lookupId: 'not-a-lookup' })).expect(400)).body).toEqual(notFound('not-a-lookup'));

    const other = await testApp.createPlatform();
    const stranger = await fundedCustomer(other.api, 10_000);
    const theirs = (await other.api.get(umaPath('$success.usd@sandbox.uma.money')).query({ customerId: stranger.customer.id }).expect(200)).body.lookupId;
    expect((await api().post('/quotes').send(umaQuote('$success.usd@sandbox.uma.money', { lookupId: theirs })).expect(400)).body).toEqual(notFound(theirs));

    const forEur = (await api().get(umaPath('$success.eur@sandbox.uma.money')).query({ customerId: owner.customer.id }).expect(200)).body.lookupId;
    const mismatch = {
      status: 400, code: 'LOOKUP_REQUEST_FAILED', message: `Lookup request ${forEur} was made for another destination`,
      details: { lookupId: forEur, reason: 'DESTINATION_MISMATCH', lookupDestination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.eur@sandbox.uma.money' } },
    };
    expect((await api().post('/quotes').send(umaQuote('$success.usd@sandbox.uma.money', { lookupId: forEur })).expect(400)).body).toEqual(mismatch);
    expect((await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 1_000, { lookupId: forEur })).expect(400)).body).toEqual(mismatch);
  });
});

describe('receiver lookups: expiry', () => {
  const LIFETIME_MS = 1_000;
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SANDBOX_QUOTE_LIFETIME_MS: String(LIFETIME_MS) } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('a lookup lives as long as a quote (SANDBOX_QUOTE_LIFETIME_MS here); after expiresAt POST /quotes is 400 LOOKUP_REQUEST_FAILED, LOOKUP_REQUEST_EXPIRED', async () => {
    const api = testApp.platform.api;
    const owner = await fundedCustomer(api, 10_000);
    const lookupId = (await api.get(umaPath('$success.usd@sandbox.uma.money')).query({ customerId: owner.customer.id }).expect(200)).body.lookupId;
    const event = await lookupEvent(testApp, lookupId);
    expect(Date.parse(event.data.expiresAt) - Date.parse(event.data.lookedUpAt)).toBe(LIFETIME_MS);
    await sleep(Math.max(0, Date.parse(event.data.expiresAt) - Date.now()) + 50);
    expect((await api.post('/quotes').send({
      lookupId,
      source: { sourceType: 'ACCOUNT', accountId: owner.usd.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    }).expect(400)).body).toEqual({
      status: 400, code: 'LOOKUP_REQUEST_FAILED', message: `Lookup request ${lookupId} expired at ${event.data.expiresAt}; look the receiver up again`,
      details: { lookupId, reason: 'LOOKUP_REQUEST_EXPIRED', expiresAt: event.data.expiresAt },
    });
  });
});
