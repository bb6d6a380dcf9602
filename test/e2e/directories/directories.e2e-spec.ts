import { accountsByCurrency, createIndividual } from '../../support/customer-fixtures';
import { TestApp, TestPlatform, anonymousClient, startTestApp } from '../../support/test-app';

/**
 * The directories (issue 23, part 6): `GET /uma-providers`, `GET /vasps`, `GET /discoveries` and
 * `POST /crypto/estimate-withdrawal-fee`, from the sandbox tables (docs/directories.md).
 */
const currency = (code: string, name: string, symbol: string, decimals = 2) => ({ code, name, symbol, decimals });
const USD = currency('USD', 'United States Dollar', '$');
const EUR = currency('EUR', 'Euro', '€');
const KES = currency('KES', 'Kenyan Shilling', 'KSh');
const NGN = currency('NGN', 'Nigerian Naira', '₦');
const PHP = currency('PHP', 'Philippine Peso', '₱');
const USDT = currency('USDT', 'Tether USD', 'USDT', 6);
const SANDBOX_CURRENCIES = [
  USD, EUR, currency('GBP', 'British Pound', '£'), currency('MXN', 'Mexican Peso', '$'), currency('BRL', 'Brazilian Real', 'R$'),
  currency('INR', 'Indian Rupee', '₹'), NGN, currency('CAD', 'Canadian Dollar', '$'), PHP, KES,
  currency('USDC', 'USD Coin', 'USDC', 6), USDT, currency('USDB', 'USDB', 'USDB', 6), currency('BTC', 'Bitcoin', '₿', 8),
];
const SANDBOX_UMA = {
  name: 'Sandbox UMA',
  supportedRegions: ['BR', 'CA', 'DE', 'GB', 'IN', 'KE', 'MX', 'NG', 'PH', 'US'],
  domain: 'sandbox.uma.money',
  logoUrl: 'https://sandbox.uma.money/logo.png',
  supportedCurrencies: SANDBOX_CURRENCIES,
  allowListStatus: true,
};
const LAKESIDE = {
  name: 'Lakeside Wallet', supportedRegions: ['KE', 'NG'], domain: 'lakeside.example', logoUrl: 'https://lakeside.example/logo.png',
  supportedCurrencies: [KES, NGN, USDT], allowListStatus: false,
};
const RHINE = {
  name: 'Rhine Money', supportedRegions: ['DE', 'FR', 'NL'], domain: 'rhinemoney.example', logoUrl: 'https://rhinemoney.example/logo.png',
  supportedCurrencies: [EUR], allowListStatus: false,
};
const HARBOR = {
  name: 'Harbor Remit', supportedRegions: ['PH', 'US'], domain: 'harborremit.example', logoUrl: 'https://harborremit.example/logo.png',
  supportedCurrencies: [PHP, USD], allowListStatus: true,
};

const SOLANA_ADDRESS = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
const EVM_ADDRESS = `0x${'5a'.repeat(20)}`;
const SPARK_ADDRESS = `sp1${'q'.repeat(40)}`;

describe('directories', () => {
  let t: TestApp;
  let accounts: Record<string, any>;

  beforeAll(async () => {
    t = await startTestApp();
    const customer = await createIndividual(t.platform.api);
    accounts = await accountsByCurrency(t.platform.api, customer.id);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('401 UNAUTHORIZED without credentials, on every directory', async () => {
    const anonymous = anonymousClient(t.baseUrl);
    for (const response of [
      await anonymous.get('/uma-providers'), await anonymous.get('/vasps'), await anonymous.get('/discoveries'),
      await anonymous.post('/crypto/estimate-withdrawal-fee').send({}),
    ]) {
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    }
  });

  describe('GET /uma-providers', () => {
    it('filters by region, currency and allow list, newest-first order being Z to A by name', async () => {
      const kenya = await t.platform.api.get('/uma-providers?countryCode=KE').expect(200);
      expect(kenya.body).toEqual({ data: [SANDBOX_UMA, LAKESIDE], hasMore: false, totalCount: 2 });
      const allowed = await t.platform.api.get('/uma-providers?countryCode=KE&hasBlockedProviders=false').expect(200);
      expect(allowed.body).toEqual({ data: [SANDBOX_UMA], hasMore: false, totalCount: 1 });
      const euro = await t.platform.api.get('/uma-providers?currencyCode=EUR&sortOrder=asc&hasBlockedProviders=true').expect(200);
      expect(euro.body).toEqual({ data: [RHINE, SANDBOX_UMA], hasMore: false, totalCount: 2 });
      const pesos = await t.platform.api.get('/uma-providers?countryCode=PH&currencyCode=PHP').expect(200);
      expect(pesos.body).toEqual({ data: [SANDBOX_UMA, HARBOR], hasMore: false, totalCount: 2 });
      const nobody = await t.platform.api.get('/uma-providers?countryCode=FR&currencyCode=JPY').expect(200);
      expect(nobody.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    });

    it('pages by name with limit and cursor, in either order', async () => {
      const names = async (query: string) => {
        const pages: string[][] = [];
        let cursor: string | undefined;
        do {
          const response = await t.platform.api.get(`/uma-providers?${query}${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
          expect(response.body.totalCount).toBe(7);
          expect(response.body.hasMore).toBe(response.body.nextCursor !== undefined);
          pages.push(response.body.data.map((provider: { name: string }) => provider.name));
          cursor = response.body.nextCursor;
        } while (cursor);
        return pages;
      };
      expect(await names('limit=3')).toEqual([
        ['Sandbox UMA', 'Saffron Pay', 'Rhine Money'], ['Maple Ledger', 'Lakeside Wallet', 'Harbor Remit'], ['Andes Pay'],
      ]);
      expect(await names('limit=4&sortOrder=asc')).toEqual([
        ['Andes Pay', 'Harbor Remit', 'Lakeside Wallet', 'Maple Ledger'], ['Rhine Money', 'Saffron Pay', 'Sandbox UMA'],
      ]);
      const all = await t.platform.api.get('/uma-providers').expect(200);
      expect(all.body.data).toHaveLength(7);
      expect(all.body.hasMore).toBe(false);
    });

    it('400 INVALID_INPUT listing every bad or unknown parameter', async () => {
      const vaspCursor = (await t.platform.api.get('/vasps?limit=1').expect(200)).body.nextCursor;
      const response = await t.platform.api
        .get(`/uma-providers?countryCode=ph&currencyCode=US$&hasBlockedProviders=yes&sortOrder=up&limit=0&cursor=${vaspCursor}&region=US`)
        .expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'The request has invalid fields',
        details: {
          errors: [
            { field: 'region', constraint: {}, message: 'Unknown query parameter region' },
            { field: 'countryCode', constraint: { format: 'iso3166-1-alpha-2', pattern: '^[A-Z]{2}$' }, message: 'countryCode must be an ISO 3166-1 alpha-2 country code such as PH' },
            { field: 'currencyCode', constraint: { format: 'iso4217', pattern: '^[A-Z]{3,4}$' }, message: 'currencyCode must be a currency code such as PHP or USDC' },
            { field: 'hasBlockedProviders', constraint: { enum: ['true', 'false'] }, message: 'hasBlockedProviders must be true or false' },
            { field: 'sortOrder', constraint: { enum: ['asc', 'desc'] }, message: 'sortOrder must be one of asc, desc' },
            { field: 'limit', constraint: {}, message: 'limit must be at least 1' },
            { field: 'cursor', constraint: {}, message: 'cursor is not a cursor this service issued' },
          ],
        },
      });
    });
  });

  describe('GET /vasps', () => {
    it('lists the directory by name, 20 a page by default', async () => {
      const first = await t.platform.api.get('/vasps').expect(200);
      expect(first.body.data).toHaveLength(20);
      expect(first.body.data.slice(0, 3)).toEqual([
        { vaspName: 'Binance', url: 'https://www.binance.com' },
        { vaspName: 'Bitfinex', url: 'https://www.bitfinex.com' },
        { vaspName: 'Bitget', url: 'https://www.bitget.com' },
      ]);
      expect(first.body.hasMore).toBe(true);
      const second = await t.platform.api.get(`/vasps?cursor=${first.body.nextCursor}`).expect(200);
      expect(second.body).toEqual({
        data: [
          { vaspName: 'Upbit', url: 'https://upbit.com' },
          { vaspName: 'Uphold', url: 'https://uphold.com' },
          { vaspName: 'VALR', url: 'https://www.valr.com' },
        ],
        hasMore: false,
      });
      const short = await t.platform.api.get('/vasps?limit=2').expect(200);
      expect(short.body).toEqual({
        data: [{ vaspName: 'Binance', url: 'https://www.binance.com' }, { vaspName: 'Bitfinex', url: 'https://www.bitfinex.com' }],
        hasMore: true,
        nextCursor: expect.any(String),
      });
      const wide = await t.platform.api.get('/vasps?limit=100').expect(200);
      expect({ count: wide.body.data.length, hasMore: wide.body.hasMore }).toEqual({ count: 23, hasMore: false });
    });

    it('400 INVALID_INPUT for a bad limit, a cursor it did not issue and an unknown parameter', async () => {
      const providerCursor = (await t.platform.api.get('/uma-providers?limit=1').expect(200)).body.nextCursor;
      const response = await t.platform.api.get(`/vasps?limit=101&cursor=not*a*cursor&country=US`).expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'The request has invalid fields',
        details: {
          errors: [
            { field: 'country', constraint: {}, message: 'Unknown query parameter country' },
            { field: 'limit', constraint: {}, message: 'limit must be at most 100' },
            { field: 'cursor', constraint: {}, message: 'cursor is not a cursor this service issued' },
          ],
        },
      });
      const foreign = await t.platform.api.get(`/vasps?cursor=${providerCursor}`).expect(400);
      expect(foreign.body.details.errors).toEqual([{ field: 'cursor', constraint: {}, message: 'cursor is not a cursor this service issued' }]);
    });
  });

  describe('GET /discoveries', () => {
    it('answers the institutions of a corridor, by country, currency or both', async () => {
      const philippines = await t.platform.api.get('/discoveries?country=PH&currency=PHP').expect(200);
      expect(philippines.body).toEqual({
        data: [
          { bankName: 'BDO Unibank', displayName: 'BDO Unibank', country: 'PH', currency: 'PHP' },
          { bankName: 'BPI', displayName: 'Bank of the Philippine Islands', country: 'PH', currency: 'PHP' },
          { bankName: 'Metrobank', displayName: 'Metropolitan Bank and Trust', country: 'PH', currency: 'PHP' },
        ],
      });
      const dollars = await t.platform.api.get('/discoveries?currency=USD').expect(200);
      expect(dollars.body.data.map((entry: any) => `${entry.country} ${entry.bankName}`)).toEqual([
        'SV Banco Agricola', 'SV Banco Cuscatlan', 'US Bank of America', 'US Citibank', 'US JPMorgan Chase', 'US Wells Fargo',
      ]);
      const japan = await t.platform.api.get('/discoveries?country=JP').expect(200);
      expect(japan.body).toEqual({
        data: [
          { bankName: 'MUFG Bank', displayName: 'MUFG Bank', country: 'JP', currency: 'JPY' },
          { bankName: 'Mizuho Bank', displayName: 'Mizuho Bank', country: 'JP', currency: 'JPY' },
        ],
      });
      expect((await t.platform.api.get('/discoveries?country=PH&currency=USD').expect(200)).body).toEqual({ data: [] });
      const all = await t.platform.api.get('/discoveries').expect(200);
      expect(all.body.data.length).toBe(68);
      expect(all.body.data[0]).toEqual({ bankName: 'Commonwealth Bank', displayName: 'Commonwealth Bank of Australia', country: 'AU', currency: 'AUD' });
    });

    it('answers bank names POST /customers/external-accounts takes for the corridor', async () => {
      const customer = await createIndividual(t.platform.api);
      const [bank] = (await t.platform.api.get('/discoveries?country=PH&currency=PHP').expect(200)).body.data;
      const created = await t.platform.api.post('/customers/external-accounts').send({
        customerId: customer.id,
        currency: 'PHP',
        accountInfo: { accountType: 'PHP_ACCOUNT', bankName: bank.bankName, accountNumber: '0012345678', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Juan dela Cruz' } },
      }).expect(201);
      expect(created.body.accountInfo.bankName).toBe('BDO Unibank');
    });

    it('400 INVALID_INPUT for malformed codes, and for paging it does not do', async () => {
      const response = await t.platform.api.get('/discoveries?country=ph&currency=pesos&limit=5').expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'The request has invalid fields',
        details: {
          errors: [
            { field: 'limit', constraint: {}, message: 'Unknown query parameter limit' },
            { field: 'country', constraint: { format: 'iso3166-1-alpha-2', pattern: '^[A-Z]{2}$' }, message: 'country must be an ISO 3166-1 alpha-2 country code such as PH' },
            { field: 'currency', constraint: { format: 'iso4217', pattern: '^[A-Z]{3,4}$' }, message: 'currency must be a currency code such as PHP or USDC' },
          ],
        },
      });
      const repeated = await t.platform.api.get('/discoveries?country=PH&country=US').expect(400);
      expect(repeated.body.details.errors).toEqual([{ field: 'country', constraint: {}, message: 'country must be given once, as text' }]);
    });
  });

  describe('POST /crypto/estimate-withdrawal-fee', () => {
    const estimate = (body: Record<string, unknown>, platform: TestPlatform = t.platform) => platform.api.post('/crypto/estimate-withdrawal-fee').send(body);
    const usdc = (fields: Record<string, unknown> = {}) => ({
      internalAccountId: accounts.USDC.id, currency: 'USDC', cryptoNetwork: 'SOLANA', amount: 10_000_000, destinationAddress: SOLANA_ADDRESS, ...fields,
    });

    it('prices the network fee of the fee schedule, in the chain asset and in the withdrawal currency', async () => {
      expect((await estimate(usdc()).expect(200)).body).toEqual({
        networkFee: 50_000, networkFeeAsset: 'SOL', applicationFee: 0, totalFee: 10_000, netAmount: 9_990_000,
      });
      expect((await estimate(usdc({ cryptoNetwork: 'ETHEREUM', destinationAddress: EVM_ADDRESS })).expect(200)).body).toEqual({
        networkFee: 400_000_000_000_000, networkFeeAsset: 'ETH', applicationFee: 0, totalFee: 1_000_000, netAmount: 9_000_000,
      });
      expect((await estimate(usdc({ cryptoNetwork: 'TRON', destinationAddress: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb' })).expect(200)).body).toEqual({
        networkFee: 2_000_000, networkFeeAsset: 'TRX', applicationFee: 0, totalFee: 500_000, netAmount: 9_500_000,
      });
      const spark = { internalAccountId: accounts.USDB.id, currency: 'USDB', cryptoNetwork: 'SPARK', amount: 2_500_000, destinationAddress: SPARK_ADDRESS };
      expect((await estimate(spark).expect(200)).body).toEqual({ networkFee: 0, networkFeeAsset: 'BTC', applicationFee: 0, totalFee: 0, netAmount: 2_500_000 });
    });

    it('records nothing: the account history and balance are untouched', async () => {
      const before = await t.platform.api.get(`/internal-accounts/${accounts.USDC.id}`).expect(200);
      await estimate(usdc()).expect(200);
      const after = await t.platform.api.get(`/internal-accounts/${accounts.USDC.id}`).expect(200);
      expect(after.body).toEqual(before.body);
    });

    it('400 INVALID_INPUT listing every bad field at once', async () => {
      const response = await estimate({ internalAccountId: 'InternalAccount:nope', currency: 'DOGE', cryptoNetwork: 'BITCOIN', amount: 0, destinationAddress: 5, memo: 'x' }).expect(400);
      expect(response.body.code).toBe('INVALID_INPUT');
      expect(response.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(
        ['amount', 'cryptoNetwork', 'currency', 'destinationAddress', 'internalAccountId', 'memo'],
      );
      expect(response.body.details.errors.find((error: { field: string }) => error.field === 'cryptoNetwork').constraint).toEqual({
        enum: ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'TRON', 'PLASMA', 'SPARK', 'LIGHTNING'],
      });
      const missing = await estimate({}).expect(400);
      expect(missing.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(
        ['amount', 'cryptoNetwork', 'currency', 'destinationAddress', 'internalAccountId'],
      );
    });

    it('400 INVALID_INPUT for a network that does not carry the currency, and an address not of the network', async () => {
      const response = await estimate(usdc({ currency: 'USDB', cryptoNetwork: 'PLASMA', destinationAddress: SOLANA_ADDRESS })).expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'The request has invalid fields',
        details: {
          errors: [
            { field: 'cryptoNetwork', constraint: { enum: ['SPARK'] }, message: 'PLASMA does not carry USDB; use one of SPARK' },
            { field: 'destinationAddress', constraint: { format: 'evm-address', pattern: '^0x[0-9a-fA-F]{40}$' }, message: 'destinationAddress is not an address on PLASMA' },
          ],
        },
      });
    });

    it('400 for an account that is not a crypto account in the currency', async () => {
      const fiat = await estimate(usdc({ internalAccountId: accounts.USD.id })).expect(400);
      expect(fiat.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: `${accounts.USD.id} holds USD: only crypto accounts withdraw to a blockchain address`,
        details: { errors: [{ field: 'internalAccountId', constraint: {}, message: `${accounts.USD.id} is not a crypto account` }] },
      });
      const other = await estimate(usdc({ currency: 'USDT' })).expect(400);
      expect(other.body).toEqual({
        status: 400,
        code: 'INVALID_CURRENCY',
        message: `${accounts.USDC.id} holds USDC, not USDT`,
        details: { errors: [{ field: 'currency', constraint: { enum: ['USDC'] }, message: 'The account holds USDC' }] },
      });
    });

    it('400 AMOUNT_OUT_OF_RANGE when the fee takes it all, or past the platform limit for the currency', async () => {
      const eaten = await estimate(usdc({ cryptoNetwork: 'ETHEREUM', destinationAddress: EVM_ADDRESS, amount: 1_000_000 })).expect(400);
      expect(eaten.body).toEqual({
        status: 400,
        code: 'AMOUNT_OUT_OF_RANGE',
        message: 'A USDC withdrawal on ETHEREUM must be from 1000001 to 9000000000000000 (minor units)',
        details: { minAmount: 1_000_001, maxAmount: 9_000_000_000_000_000, amount: 1_000_000 },
      });
      await estimate(usdc({ cryptoNetwork: 'ETHEREUM', destinationAddress: EVM_ADDRESS, amount: 1_000_001 })).expect(200);

      const limited = await t.createPlatform({
        supportedCurrencies: [{ currencyCode: 'USDC', minAmount: 1_000, maxAmount: 5_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['OUTGOING', 'INCOMING'] }],
      });
      const holder = await createIndividual(limited.api);
      const own = await accountsByCurrency(limited.api, holder.id);
      const over = await estimate(usdc({ internalAccountId: own.USDC.id, amount: 5_000_001 }), limited).expect(400);
      expect(over.body).toEqual({
        status: 400,
        code: 'AMOUNT_OUT_OF_RANGE',
        message: 'A USDC withdrawal on SOLANA must be from 10001 to 5000000 (minor units)',
        details: { minAmount: 10_001, maxAmount: 5_000_000, amount: 5_000_001 },
      });
    });

    it('404 REFERENCE_NOT_FOUND for an unknown account and for another platform\'s', async () => {
      const unknown = await estimate(usdc({ internalAccountId: 'InternalAccount:0199a000-0000-7000-8000-000000000aaa' })).expect(404);
      expect(unknown.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Internal account not found' });
      const other = await t.createPlatform();
      const foreigner = await createIndividual(other.api);
      const foreign = await accountsByCurrency(other.api, foreigner.id);
      await estimate(usdc({ internalAccountId: foreign.USDC.id }), other).expect(200);
      const response = await estimate(usdc({ internalAccountId: foreign.USDC.id })).expect(404);
      expect(response.body).toEqual(unknown.body);
    });
  });
});
