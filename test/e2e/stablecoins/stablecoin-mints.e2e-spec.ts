import { fund, uniqueId } from '../../support/customer-fixtures';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { balanceOf, linkProvider, operationInStatus, platformAccount, postWithKey, registerCoin, sparkWallet, usdBank } from './stablecoin-fixtures';

/** `POST /stablecoins/{id}/mints`: each funding kind through the sandbox provider, the ledger's holds and credits, refusals. */
describe('stablecoin mints', () => {
  let testApp: TestApp;
  let platform: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  beforeEach(async () => {
    platform = await testApp.createPlatform();
    await linkProvider(platform.api);
  });

  const mint = (coinId: string, body: Record<string, unknown>, key?: string) => postWithKey(platform.api, `/stablecoins/${coinId}/mints`, body, key);

  it('WIRE: PENDING_FUNDING with wire instructions and expiresAt, then PROCESSING once funded, then COMPLETED', async () => {
    const coin = await registerCoin(platform.api);
    const wallet = await sparkWallet(platform.api);
    const response = await mint(coin.id, { amount: '1000000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet.id }, description: 'Initial program funding mint' }).expect(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^StablecoinOperation:/),
      stablecoinId: coin.id,
      operationType: 'MINT',
      status: 'PENDING_FUNDING',
      amount: '1000000',
      provider: 'BRALE',
      providerEnvironment: 'SANDBOX',
      stablecoinProviderAccountId: coin.stablecoinProviderAccountId,
      source: { type: 'WIRE' },
      destination: { accountId: wallet.id },
      fundingInstructions: {
        rail: 'WIRE',
        bankName: 'Sandbox Trust Bank',
        beneficiaryName: 'Sandbox Stablecoin Provider',
        accountNumber: '000987654321',
        routingNumber: '021000021',
        reference: expect.stringMatching(/^MINT-[0-9A-F]{12}$/),
        amount: '100',
        currency: 'USD',
      },
      expiresAt: expect.any(String),
      description: 'Initial program funding mint',
      createdAt: expect.any(String),
      updatedAt: response.body.createdAt,
    });
    expect(Date.parse(response.body.expiresAt) - Date.parse(response.body.createdAt)).toBe(7 * 24 * 60 * 60 * 1000);
    expect((await platform.api.get(`/stablecoin-operations/${response.body.id}`).expect(200)).body).toEqual(response.body);
    const completed = await operationInStatus(platform.api, response.body.id, 'COMPLETED');
    const { fundingInstructions: _gone, expiresAt: _over, ...kept } = response.body;
    expect(completed).toEqual({ ...kept, status: 'COMPLETED', updatedAt: expect.any(String) });
    const history = (await platform.api.get('/audit/events').query({ resourceId: response.body.id }).expect(200)).body.data;
    expect(history.map((entry: any) => entry.type)).toEqual(['StablecoinOperationCreated', 'StablecoinOperationFunded', 'StablecoinOperationCompleted']);
    expect(history[0].metadata.actor).toBe(`platform:${platform.clientId}`);
    const supply = (await platform.api.get('/audit/events').query({ resourceId: coin.id }).expect(200)).body.data;
    expect(supply.map((entry: any) => entry.type)).toEqual(['StablecoinRegistered', 'StablecoinOperationOpened', 'StablecoinSupplyChanged']);
    expect(supply[2].data).toMatchObject({ minted: 1_000_000, burned: 0, outstanding: 1_000_000 });
  });

  it('ACH_DEBIT from a USD bank account: PENDING_PROVIDER, then COMPLETED', async () => {
    const coin = await registerCoin(platform.api);
    const wallet = await sparkWallet(platform.api);
    const bank = await usdBank(platform.api);
    const response = await mint(coin.id, { amount: '20000', fundingSource: { type: 'SAME_DAY_ACH_DEBIT', externalAccountId: bank.id }, destination: { accountId: wallet.id } }).expect(201);
    expect(response.body).toMatchObject({ status: 'PENDING_PROVIDER', source: { type: 'SAME_DAY_ACH_DEBIT', externalAccountId: bank.id } });
    expect(response.body.fundingInstructions).toBeUndefined();
    expect(response.body.expiresAt).toBeUndefined();
    await operationInStatus(platform.api, response.body.id, 'COMPLETED');
  });

  it('GRID_INTERNAL_ACCOUNT into an internal account: the USD is held while pending, then settled, and the coin credited', async () => {
    const coin = await registerCoin(platform.api, 'usdb');
    const usd = await platformAccount(platform.api, 'USD');
    const usdb = await platformAccount(platform.api, 'USDB');
    await fund(platform.api, usd.id, 10_000);
    const response = await mint(coin.id, { amount: '25000000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id }, destination: { accountId: usdb.id }, description: 'slow 001' }).expect(201);
    expect(response.body).toMatchObject({ status: 'PENDING_PROVIDER', source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id }, destination: { accountId: usdb.id } });
    // The provider never answers this one (001): the 2,500 cents stay held.
    expect(await balanceOf(platform.api, usd.id)).toEqual({ available: 7_500, total: 10_000 });

    const settled = await mint(coin.id, { amount: '30000000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id }, destination: { accountId: usdb.id } }).expect(201);
    await operationInStatus(platform.api, settled.body.id, 'COMPLETED');
    // 3,000 cents settled out; the 2,500 of the unanswered mint still held.
    await eventually(async () => JSON.stringify(await balanceOf(platform.api, usd.id)) === JSON.stringify({ available: 4_500, total: 7_000 }));
    await eventually(async () => (await balanceOf(platform.api, usdb.id)).available === 30_000_000);
  });

  it('a failed mint (002) releases its hold; an expired wire mint (003) ends EXPIRED', async () => {
    const coin = await registerCoin(platform.api);
    const usd = await platformAccount(platform.api, 'USD');
    const wallet = await sparkWallet(platform.api);
    await fund(platform.api, usd.id, 1_000);
    const failing = await mint(coin.id, { amount: '10000000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id }, destination: { accountId: wallet.id }, description: 'fails 002' }).expect(201);
    expect(await balanceOf(platform.api, usd.id)).toEqual({ available: 0, total: 1_000 });
    const failed = await operationInStatus(platform.api, failing.body.id, 'FAILED');
    expect(failed.failureReason).toBe('PROVIDER_TRANSFER_FAILED');
    await eventually(async () => (await balanceOf(platform.api, usd.id)).available === 1_000);

    const expiring = await mint(coin.id, { amount: '10000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet.id }, description: 'never wired 003' }).expect(201);
    const expired = await operationInStatus(platform.api, expiring.body.id, 'EXPIRED');
    expect(expired.expiresAt).toBe(expiring.body.expiresAt);
    expect(expired.fundingInstructions).toBeUndefined();
    const history = (await platform.api.get('/audit/events').query({ resourceId: coin.id }).expect(200)).body.data;
    expect(history.filter((entry: any) => entry.type === 'StablecoinOperationAbandoned')).toHaveLength(2);
  });

  it('400 on amount when it does not convert to whole cents, or the balance is short; nothing recorded', async () => {
    const coin = await registerCoin(platform.api);
    const usd = await platformAccount(platform.api, 'USD');
    const wallet = await sparkWallet(platform.api);
    const cents = await mint(coin.id, { amount: '1000001', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet.id } }).expect(400);
    expect(cents.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'amount must convert exactly to whole USD minor units (a multiple of 10000)',
      details: { reason: 'AMOUNT_NOT_WHOLE_CENTS', errors: [{ field: 'amount', constraint: {}, message: 'amount must convert exactly to whole USD minor units (a multiple of 10000)' }] },
    });
    expect((await mint(coin.id, { amount: '0', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet.id } }).expect(400)).body.details.reason).toBe('AMOUNT_OUT_OF_RANGE');
    const short = await mint(coin.id, { amount: '10000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id }, destination: { accountId: wallet.id } }).expect(400);
    expect(short.body).toEqual({
      status: 400,
      code: 'INVALID_AMOUNT',
      message: 'The account balance is too low for this amount',
      details: { reason: 'INSUFFICIENT_FUNDS', accountId: usd.id, requested: 1 },
    });
    expect((await platform.api.get(`/stablecoins/${coin.id}/operations`).expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('400 naming the field for accounts of the wrong kind, 404 for unknown ones, 400 listing every bad field', async () => {
    const coin = await registerCoin(platform.api);
    const usdb = await platformAccount(platform.api, 'USDB');
    const bank = await usdBank(platform.api);
    const wallet = await sparkWallet(platform.api);
    const notEnabled = await mint(coin.id, { amount: '10000', fundingSource: { type: 'WIRE' }, destination: { accountId: usdb.id } }).expect(400);
    expect(notEnabled.body).toMatchObject({ code: 'INVALID_INPUT', details: { reason: 'STABLECOIN_NOT_ENABLED', errors: [{ field: 'destination.accountId' }] } });
    const notWallet = await mint(coin.id, { amount: '10000', fundingSource: { type: 'WIRE' }, destination: { accountId: bank.id } }).expect(400);
    expect(notWallet.body).toMatchObject({ code: 'INVALID_INPUT', details: { reason: 'ACCOUNT_INELIGIBLE', errors: [{ field: 'destination.accountId' }] } });
    const wrongCurrency = await mint(coin.id, { amount: '10000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdb.id }, destination: { accountId: wallet.id } }).expect(400);
    expect(wrongCurrency.body).toMatchObject({ code: 'INVALID_INPUT', details: { reason: 'ACCOUNT_INELIGIBLE', errors: [{ field: 'fundingSource.accountId' }] } });
    const walletAsBank = await mint(coin.id, { amount: '10000', fundingSource: { type: 'ACH_DEBIT', externalAccountId: wallet.id }, destination: { accountId: wallet.id } }).expect(400);
    expect(walletAsBank.body.details.errors[0].field).toBe('fundingSource.externalAccountId');
    const unknown = await mint(coin.id, { amount: '10000', fundingSource: { type: 'ACH_DEBIT', externalAccountId: 'ExternalAccount:0199a000-0000-7000-8000-0000000000ff' }, destination: { accountId: wallet.id } }).expect(404);
    expect(unknown.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'External account not found', details: { externalAccountId: 'ExternalAccount:0199a000-0000-7000-8000-0000000000ff' } });
    const unknownInternal = { type: 'GRID_INTERNAL_ACCOUNT', accountId: 'InternalAccount:0199a000-0000-7000-8000-0000000000ff' };
    expect((await mint(coin.id, { amount: '10000', fundingSource: unknownInternal, destination: { accountId: wallet.id } }).expect(404)).body.message).toBe('Internal account not found');
    const other = await testApp.createPlatform();
    const othersUsd = await platformAccount(other.api, 'USD');
    expect((await mint(coin.id, { amount: '10000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: othersUsd.id }, destination: { accountId: wallet.id } }).expect(404)).body.code).toBe('REFERENCE_NOT_FOUND');

    const bad = await mint(coin.id, { amount: '1.5', fundingSource: { type: 'CHEQUE' }, destination: { accountId: 'Card:x' }, description: 7 }).expect(400);
    expect(bad.body.details.errors.map((error: any) => error.field)).toEqual(['amount', 'description', 'fundingSource.type', 'destination.accountId']);
    const variant = await mint(coin.id, { amount: '10000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', externalAccountId: wallet.id }, destination: {} }).expect(400);
    expect(variant.body.details.errors.map((error: any) => error.field).sort()).toEqual(['destination.accountId', 'fundingSource.accountId', 'fundingSource.externalAccountId']);
    expect((await postWithKey(platform.api, '/stablecoins/nope/mints', { amount: '10000' }).expect(400)).body.details.errors[0].field).toBe('stablecoinId');
  });

  it('replays by Idempotency-Key; an unknown or another platform\'s coin is 404; a revoked link is 400 STABLECOIN_PROVIDER_ACCOUNT_REVOKED', async () => {
    const coin = await registerCoin(platform.api);
    const wallet = await sparkWallet(platform.api);
    const key = uniqueId('idem');
    const body = { amount: '10000', fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'SOLANA' }, destination: { accountId: wallet.id }, description: 'wait 001' };
    const first = await mint(coin.id, body, key).expect(201);
    expect((await mint(coin.id, body, key).expect(201)).body).toEqual(first.body);
    expect((await platform.api.get(`/stablecoins/${coin.id}/operations`).expect(200)).body.totalCount).toBe(1);
    expect((await postWithKey(platform.api, `/stablecoins/${coin.id}/mints`, body).set('Idempotency-Key', key).send({ ...body, amount: '20000' }).expect(400)).body.details.reason).toBe('IDEMPOTENCY_KEY_REUSED');

    const other = await testApp.createPlatform();
    await linkProvider(other.api);
    expect((await postWithKey(other.api, `/stablecoins/${coin.id}/mints`, body).expect(404)).body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Stablecoin not found' });
    expect((await other.api.get(`/stablecoin-operations/${first.body.id}`).expect(404)).body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Stablecoin operation not found' });

    const revokedPlatform = await testApp.createPlatform();
    const link = await linkProvider(revokedPlatform.api, uniqueId('client').concat('-002'));
    const revokedCoin = await registerCoin(revokedPlatform.api);
    await eventually(async () => (await revokedPlatform.api.get(`/stablecoin-provider-accounts/${link.id}`).expect(200)).body.status === 'REVOKED');
    const refused = await postWithKey(revokedPlatform.api, `/stablecoins/${revokedCoin.id}/mints`, { amount: '10000', fundingSource: { type: 'WIRE' }, destination: { accountId: (await sparkWallet(revokedPlatform.api)).id } }).expect(400);
    expect(refused.body).toEqual({ status: 400, code: 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED', message: 'The stablecoin provider account link has been revoked', details: { stablecoinProviderAccountId: link.id } });
  });
});
