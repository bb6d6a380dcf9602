import { quoteInvariantViolations } from '../../../src/quotes/pricing/invariants';
import { TestApp, TestPlatform, anonymousClient, startTestApp } from '../../support/test-app';

interface Entry {
  sourceCurrency: { code: string; name: string; symbol: string; decimals: number };
  destinationCurrency: { code: string; name: string; symbol: string; decimals: number };
  destinationPaymentRail: string;
  sendingAmount: number;
  minSendingAmount: number;
  maxSendingAmount: number;
  receivingAmount: number;
  exchangeRate: number;
  fees: { fixed: number; variable: number; total: number };
  feesIncluded: number;
  platformFeesIncluded: number;
  rateDetails: {
    counterpartyMultiplier: number; counterpartyFixedFee: number; gridApiMultiplier: number; gridApiFixedFee: number;
    gridApiVariableFeeRate: number; gridApiVariableFeeAmount: number;
  };
  rateSnapshotId: string;
  updatedAt: string;
  expiresAt: string;
}

const ENTRY_KEYS = [
  'destinationCurrency', 'destinationPaymentRail', 'exchangeRate', 'expiresAt', 'fees', 'feesIncluded', 'maxSendingAmount', 'minSendingAmount',
  'platformFeesIncluded', 'rateDetails', 'rateSnapshotId', 'receivingAmount', 'sendingAmount', 'sourceCurrency', 'updatedAt',
].sort();

function violationsOf(entry: Entry): string[] {
  return quoteInvariantViolations({
    sendingCurrency: entry.sourceCurrency.code,
    receivingCurrency: entry.destinationCurrency.code,
    totalSendingAmount: entry.sendingAmount,
    totalReceivingAmount: entry.receivingAmount,
    exchangeRate: entry.exchangeRate,
    feesIncluded: entry.feesIncluded,
    platformFeesIncluded: entry.platformFeesIncluded,
    rateDetails: entry.rateDetails,
  });
}

/** Two reads of one platform, retried once if they straddle a five-minute snapshot boundary. */
async function sameSnapshotPair(first: TestPlatform, second: TestPlatform, path: string): Promise<[Entry[], Entry[]]> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const one = await first.api.get(path).expect(200);
    const two = await second.api.get(path).expect(200);
    if (one.body.data[0].rateSnapshotId === two.body.data[0].rateSnapshotId) return [one.body.data, two.body.data];
  }
  throw new Error('Could not read two responses from one snapshot');
}

/** `GET /exchange-rates`: cached rate snapshots with the service's and the platform's fees included. */
describe('exchange rates', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('prices one corridor for a sending amount, with every fee and the snapshot window', async () => {
    const response = await testApp.platform.api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR&sendingAmount=100000').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(response.body)).toEqual(['data']);
    expect(response.body.data).toHaveLength(1);
    const entry: Entry = response.body.data[0];
    expect(Object.keys(entry).sort()).toEqual(ENTRY_KEYS);
    expect(entry.sourceCurrency).toEqual({ code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 });
    expect(entry.destinationCurrency).toEqual({ code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 });
    expect(entry.destinationPaymentRail).toBe('SEPA_INSTANT');
    expect(entry.sendingAmount).toBe(100_000);
    // USD per EUR: the sandbox's base value of 1.16 within the 0.5% drift band.
    expect(Math.abs(entry.exchangeRate / 1.16 - 1)).toBeLessThanOrEqual(0.005);
    expect(entry.rateDetails).toEqual({
      counterpartyMultiplier: expect.any(Number), counterpartyFixedFee: 0, gridApiMultiplier: expect.any(Number), gridApiFixedFee: 10,
      gridApiVariableFeeRate: 0.001, gridApiVariableFeeAmount: 100,
    });
    expect(entry.platformFeesIncluded).toBe(0);
    expect(entry.feesIncluded).toBe(110);
    expect(entry.fees).toEqual({ fixed: 10, variable: 100, total: 110 });
    expect(entry.receivingAmount).toBe(Math.floor(99_890 / entry.exchangeRate));
    expect(violationsOf(entry)).toEqual([]);
    expect(entry.minSendingAmount).toBeGreaterThan(0);
    expect(entry.maxSendingAmount).toBe(9_000_000_000_000_000);
    expect(entry.rateSnapshotId).toMatch(/^rates-\d+$/);
    expect(Date.parse(entry.expiresAt) - Date.parse(entry.updatedAt)).toBe(5 * 60 * 1000);
    expect(Date.parse(entry.updatedAt)).toBeLessThanOrEqual(Date.now());
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(response.headers['cache-control'])?.[1]);
    expect(maxAge).toBeGreaterThanOrEqual(0);
    expect(maxAge).toBeLessThanOrEqual(300);
  });

  it('applies decimals across 2, 6 and 8 decimal currencies', async () => {
    const fromUsdc = await testApp.platform.api.get('/exchange-rates?sourceCurrency=USDC&destinationCurrency=USD&sendingAmount=100000000').expect(200);
    const [usdc]: Entry[] = fromUsdc.body.data;
    expect([usdc.destinationPaymentRail, usdc.exchangeRate]).toEqual(['ACH', 1]);
    expect(usdc.receivingAmount).toBe(Math.floor((100_000_000 - usdc.feesIncluded) / 10_000));
    const fromBtc = await testApp.platform.api.get('/exchange-rates?sourceCurrency=BTC&destinationCurrency=USD&sendingAmount=100000').expect(200);
    const [btc]: Entry[] = fromBtc.body.data;
    // Sending units (BTC) per receiving unit (USD): about 1/100_000 in the sandbox table.
    expect(Math.abs(btc.exchangeRate * 100_000 - 1)).toBeLessThanOrEqual(0.005);
    expect(Math.abs(btc.receivingAmount - ((100_000 - btc.feesIncluded) / 1e8 / btc.exchangeRate) * 100)).toBeLessThanOrEqual(1);
    for (const entry of [usdc, btc]) expect(violationsOf(entry)).toEqual([]);
  });

  it("lists only corridors whose payout rail the contract names: crypto payouts (Lightning, Spark, on-chain) are quoted, not listed", async () => {
    const response = await testApp.platform.api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=BTC,USDC,EUR').expect(200);
    expect(response.body.data.map((entry: Entry) => [entry.destinationCurrency.code, entry.destinationPaymentRail])).toEqual([['EUR', 'SEPA_INSTANT']]);
    expect((await testApp.platform.api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=BTC').expect(200)).body).toEqual({ data: [] });
  });

  it('lists every corridor by default, each priced consistently from one snapshot', async () => {
    const response = await testApp.platform.api.get('/exchange-rates').expect(200);
    const data: Entry[] = response.body.data;
    // 47 fiat destinations (the 10 supported ones and the 37 payout-only ones; the 4 crypto ones
    // have no contract rail) from each of 14 sources, but not to itself (10 sources are fiat).
    expect(data).toHaveLength(47 * 14 - 10);
    const pairs = new Set(data.map((entry) => `${entry.sourceCurrency.code}>${entry.destinationCurrency.code}`));
    expect(pairs.size).toBe(47 * 14 - 10);
    for (const entry of data) {
      expect([entry.sourceCurrency.code, entry.destinationCurrency.code, violationsOf(entry)]).toEqual([entry.sourceCurrency.code, entry.destinationCurrency.code, []]);
      expect(entry.sendingAmount).toBe(Math.max(10_000, entry.minSendingAmount));
      expect(entry.sendingAmount).toBeLessThanOrEqual(entry.maxSendingAmount);
    }
    // One request reads one snapshot.
    expect(new Set(data.map((entry) => entry.rateSnapshotId)).size).toBe(1);
    const fromUsd = await testApp.platform.api.get('/exchange-rates?sourceCurrency=USD').expect(200);
    expect(fromUsd.body.data.map((entry: Entry) => entry.destinationCurrency.code)).toEqual([
      'EUR', 'GBP', 'MXN', 'BRL', 'INR', 'NGN', 'CAD', 'PHP', 'KES',
      'AED', 'BDT', 'BWP', 'CNY', 'COP', 'DKK', 'EGP', 'GHS', 'GTQ', 'HKD', 'HTG', 'IDR', 'JMD', 'MWK', 'MYR', 'PKR', 'RWF', 'SGD', 'THB', 'TZS',
      'UGX', 'VND', 'XAF', 'XOF', 'ZAR', 'ZMW', 'AUD', 'CHF', 'CZK', 'ILS', 'JPY', 'KRW', 'NOK', 'NZD', 'PLN', 'SAR', 'SEK',
    ]);
    const repeated = await testApp.platform.api.get('/exchange-rates?sourceCurrency=GBP&destinationCurrency=EUR&destinationCurrency=MXN,BRL').expect(200);
    expect(repeated.body.data.map((entry: Entry) => [entry.destinationCurrency.code, entry.destinationPaymentRail])).toEqual([
      ['EUR', 'SEPA_INSTANT'], ['MXN', 'SPEI'], ['BRL', 'PIX'],
    ]);
  });

  it('lists the payout-only currencies of the external account types as destinations, never as sources', async () => {
    const response = await testApp.platform.api.get('/exchange-rates?sourceCurrency=EUR&destinationCurrency=DKK,SGD,VND,XOF,CHF&sendingAmount=100000').expect(200);
    const data: Entry[] = response.body.data;
    expect(data.map((entry) => [entry.destinationCurrency, entry.destinationPaymentRail])).toEqual([
      [{ code: 'DKK', name: 'Danish Krone', symbol: 'kr', decimals: 2 }, 'SEPA_INSTANT'],
      [{ code: 'SGD', name: 'Singapore Dollar', symbol: 'S$', decimals: 2 }, 'FAST'],
      [{ code: 'VND', name: 'Vietnamese Dong', symbol: '₫', decimals: 0 }, 'BANK_TRANSFER'],
      [{ code: 'XOF', name: 'West African CFA Franc', symbol: 'CFA', decimals: 0 }, 'MOBILE_MONEY'],
      [{ code: 'CHF', name: 'Swiss Franc', symbol: 'CHF', decimals: 2 }, 'SWIFT'],
    ]);
    for (const entry of data) expect([entry.destinationCurrency.code, violationsOf(entry)]).toEqual([entry.destinationCurrency.code, []]);
    // About 26300 dong per dollar in the sandbox table: one euro buys about 30500.
    const vnd = data[2];
    expect(Math.abs(vnd.exchangeRate * 30_526 - 1)).toBeLessThanOrEqual(0.02);
    const source = await testApp.platform.api.get('/exchange-rates?sourceCurrency=DKK').expect(400);
    expect(source.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['sourceCurrency']);
  });

  it('serves the same rates for every read within a snapshot', async () => {
    const [first, second] = await sameSnapshotPair(testApp.platform, testApp.platform, '/exchange-rates?sourceCurrency=EUR&sendingAmount=123456');
    expect(second).toEqual(first);
  });

  it('includes the platform fees from its configuration, and only that platform\'s', async () => {
    const withFees = await testApp.createPlatform();
    await withFees.api
      .patch('/config')
      .send({ feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 100, fixedFee: { amount: 50, currency: 'USD' } }] })
      .expect(200);
    const path = '/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN&sendingAmount=100000';
    const [charged, plain] = await sameSnapshotPair(withFees, testApp.platform, path);
    expect(charged[0].platformFeesIncluded).toBe(50 + 1000);
    expect(plain[0].platformFeesIncluded).toBe(0);
    expect(charged[0].feesIncluded - plain[0].feesIncluded).toBe(1050);
    expect(charged[0].exchangeRate).toBe(plain[0].exchangeRate);
    expect(charged[0].receivingAmount).toBeLessThan(plain[0].receivingAmount);
    expect(violationsOf(charged[0])).toEqual([]);
    // Fees for another sending currency do not apply.
    const euro = await withFees.api.get('/exchange-rates?sourceCurrency=EUR&destinationCurrency=MXN&sendingAmount=100000').expect(200);
    expect(euro.body.data[0].platformFeesIncluded).toBe(0);
  });

  it('honours the platform limits of the sending currency', async () => {
    const limited = await testApp.createPlatform({
      supportedCurrencies: [{ currencyCode: 'USD', minAmount: 500, maxAmount: 1_000_000, requiredCounterpartyFields: [] }],
    });
    const listed = await limited.api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR').expect(200);
    expect(listed.body.data[0]).toMatchObject({ minSendingAmount: 500, maxSendingAmount: 1_000_000, sendingAmount: 10_000 });
    const tooLarge = await limited.api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR&sendingAmount=1000001').expect(400);
    expect(tooLarge.body).toMatchObject({ status: 400, code: 'AMOUNT_OUT_OF_RANGE' });
  });

  it('answers 400 AMOUNT_OUT_OF_RANGE when the amount cannot cover the fees', async () => {
    const response = await testApp.platform.api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR&sendingAmount=5').expect(400);
    expect(response.body).toEqual({
      status: 400, code: 'AMOUNT_OUT_OF_RANGE', message: 'No requested corridor can price this sending amount', details: { sendingAmount: 5 },
    });
    // In a wider listing, corridors the amount cannot price are left out.
    const wide = await testApp.platform.api.get('/exchange-rates?sourceCurrency=USD&sendingAmount=15').expect(200);
    const listed = wide.body.data.map((entry: Entry) => entry.destinationCurrency.code);
    expect(listed).toContain('EUR');
    expect(listed).not.toContain('NGN');
    // 0 is a valid sendingAmount (the contract's minimum) that no corridor can price.
    expect((await testApp.platform.api.get('/exchange-rates?sourceCurrency=USD&sendingAmount=0').expect(400)).body.code).toBe('AMOUNT_OUT_OF_RANGE');
  });

  it('lists every bad and unknown query parameter in one 400', async () => {
    const response = await testApp.platform.api.get('/exchange-rates?sourceCurrency=XXX&destinationCurrency=EUR,YYY&sendingAmount=abc&surprise=1').expect(400);
    expect(response.body.status).toBe(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    const currencies = { enum: expect.arrayContaining(['USD', 'EUR', 'GBP', 'MXN', 'USDC', 'BTC']) };
    expect(response.body.details.errors.map((error: { field: string; constraint: object }) => [error.field, error.constraint]).sort()).toEqual([
      ['destinationCurrency', currencies], ['sendingAmount', {}], ['sourceCurrency', currencies], ['surprise', {}],
    ]);
    const cases: Array<[string, string, object]> = [
      ['sendingAmount=9000000000000001', 'sendingAmount', {}],
      ['sendingAmount=-5', 'sendingAmount', {}],
      ['sendingAmount=1.5', 'sendingAmount', {}],
      ['sourceCurrency=USD&sourceCurrency=EUR', 'sourceCurrency', {}],
      ['sourceCurrency=USD&destinationCurrency=USD', 'destinationCurrency', {}],
    ];
    for (const [query, field, constraint] of cases) {
      const bad = await testApp.platform.api.get(`/exchange-rates?${query}`).expect(400);
      expect([query, bad.body.code, bad.body.details.errors.map((error: { field: string; constraint: object }) => [error.field, error.constraint])]).toEqual([
        query, 'INVALID_INPUT', [[field, constraint]],
      ]);
    }
  });

  it('requires platform credentials', async () => {
    const response = await anonymousClient(testApp.baseUrl).get('/exchange-rates').expect(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
  });
});
