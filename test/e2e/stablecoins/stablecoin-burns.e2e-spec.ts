import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { balanceOf, linkProvider, mintedSupply, operationInStatus, platformAccount, postWithKey, registerCoin, sparkWallet, usdBank } from './stablecoin-fixtures';

/** `POST /stablecoins/{id}/burns`, `GET /stablecoins/{id}/operations`, `GET /stablecoin-operations/{id}`. */
describe('stablecoin burns and the operations list', () => {
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

  const burn = (coinId: string, body: Record<string, unknown>) => postWithKey(platform.api, `/stablecoins/${coinId}/burns`, body);
  const toBank = (bank: any, rail = 'ACH_CREDIT') => ({ type: 'EXTERNAL_ACCOUNT', externalAccountId: bank.id, rail });

  it('EXTERNAL_ACCOUNT source: PENDING_FUNDING with the Spark deposit address, then COMPLETED; the supply goes down', async () => {
    const coin = await registerCoin(platform.api);
    const bank = await usdBank(platform.api);
    await mintedSupply(platform.api, coin.id, '5000000', await sparkWallet(platform.api));
    const response = await burn(coin.id, { amount: '2000000', source: { type: 'EXTERNAL_ACCOUNT' }, destination: toBank(bank), description: 'Redeem ACME' }).expect(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^StablecoinOperation:/),
      stablecoinId: coin.id,
      operationType: 'BURN',
      status: 'PENDING_FUNDING',
      amount: '2000000',
      provider: 'BRALE',
      providerEnvironment: 'SANDBOX',
      stablecoinProviderAccountId: coin.stablecoinProviderAccountId,
      source: { type: 'EXTERNAL_ACCOUNT' },
      destination: { accountId: bank.id, rail: 'ACH_CREDIT' },
      fundingInstructions: { rail: 'SPARK', network: 'SPARK', address: expect.stringMatching(/^sparkrt1/), valueType: coin.providerTokenIdentifier },
      estimatedDelivery: { rail: 'ACH_CREDIT', amount: '200', currency: 'USD', timing: '1-3 business days' },
      expiresAt: expect.any(String),
      description: 'Redeem ACME',
      createdAt: expect.any(String),
      updatedAt: response.body.createdAt,
    });
    await operationInStatus(platform.api, response.body.id, 'COMPLETED');
    const supply = (await platform.api.get('/audit/events').query({ resourceId: coin.id }).expect(200)).body.data;
    expect(supply.at(-1)).toMatchObject({ type: 'StablecoinSupplyChanged', data: { operationType: 'BURN', minted: 5_000_000, burned: 2_000_000, outstanding: 3_000_000 } });
  });

  it('a burn larger than the outstanding supply (pending burns counted) is 400 INVALID_AMOUNT, reason INSUFFICIENT_SUPPLY', async () => {
    const coin = await registerCoin(platform.api);
    const bank = await usdBank(platform.api);
    const empty = await burn(coin.id, { amount: '10000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: toBank(bank) }).expect(400);
    expect(empty.body).toEqual({
      status: 400,
      code: 'INVALID_AMOUNT',
      message: 'The burn exceeds the outstanding supply not already reserved by pending burns',
      details: {
        reason: 'INSUFFICIENT_SUPPLY',
        stablecoinId: coin.id,
        requested: 10_000,
        outstanding: 0,
        pendingBurns: 0,
        errors: [{ field: 'amount', constraint: {}, message: 'The burn exceeds the outstanding supply not already reserved by pending burns' }],
      },
    });
    await mintedSupply(platform.api, coin.id, '30000', await sparkWallet(platform.api));
    await burn(coin.id, { amount: '20000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: toBank(bank), description: 'hold 001' }).expect(201);
    const reserved = await burn(coin.id, { amount: '20000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: toBank(bank) }).expect(400);
    expect(reserved.body.details).toMatchObject({ reason: 'INSUFFICIENT_SUPPLY', requested: 20_000, outstanding: 30_000, pendingBurns: 20_000 });
    await burn(coin.id, { amount: '10000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: toBank(bank) }).expect(201);
  });

  it('GRID_INTERNAL_ACCOUNT source: the coin is held in the platform\'s account while pending, settled when completed; a failed burn gives it back', async () => {
    const coin = await registerCoin(platform.api, 'usdb');
    const usd = await platformAccount(platform.api, 'USD');
    const usdb = await platformAccount(platform.api, 'USDB');
    const bank = await usdBank(platform.api);
    await postWithKey(platform.api, '/sandbox/internal-accounts/' + usd.id + '/fund', { amount: 1_000 }).expect(200);
    const minted = await postWithKey(platform.api, `/stablecoins/${coin.id}/mints`, { amount: '10000000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id }, destination: { accountId: usdb.id } }).expect(201);
    await operationInStatus(platform.api, minted.body.id, 'COMPLETED');
    await eventually(async () => (await balanceOf(platform.api, usdb.id)).available === 10_000_000);

    const failing = await burn(coin.id, { amount: '4000000', source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdb.id }, destination: toBank(bank, 'WIRE'), description: 'bounce 002' }).expect(201);
    expect(failing.body).toMatchObject({ status: 'PENDING_PROVIDER', estimatedDelivery: { rail: 'WIRE', amount: '400', currency: 'USD', timing: 'same business day' } });
    expect(await balanceOf(platform.api, usdb.id)).toEqual({ available: 6_000_000, total: 10_000_000 });
    await operationInStatus(platform.api, failing.body.id, 'FAILED');
    await eventually(async () => (await balanceOf(platform.api, usdb.id)).available === 10_000_000);

    const noRtp = await burn(coin.id, { amount: '4000000', source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdb.id }, destination: toBank(bank, 'RTP_CREDIT') }).expect(400);
    expect(noRtp.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The account does not take RTP payments',
      details: {
        reason: 'RAIL_NOT_SUPPORTED',
        externalAccountId: bank.id,
        supportedRails: ['ACH', 'WIRE'],
        errors: [{ field: 'destination.rail', constraint: {}, message: 'The account does not take RTP payments' }],
      },
    });
    const burned = await burn(coin.id, { amount: '4000000', source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdb.id }, destination: toBank(bank, 'SAME_DAY_ACH_CREDIT') }).expect(201);
    await operationInStatus(platform.api, burned.body.id, 'COMPLETED');
    await eventually(async () => JSON.stringify(await balanceOf(platform.api, usdb.id)) === JSON.stringify({ available: 6_000_000, total: 6_000_000 }));
    const short = await burn(coin.id, { amount: '6010000', source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdb.id }, destination: toBank(bank) }).expect(400);
    expect(short.body.details.reason).toBe('INSUFFICIENT_SUPPLY');
  });

  it('400 naming the field: a payout account of the wrong kind or without the rail, a coin not enabled, every bad field', async () => {
    const coin = await registerCoin(platform.api);
    const usdb = await platformAccount(platform.api, 'USDB');
    const wallet = await sparkWallet(platform.api);
    const bank = await usdBank(platform.api);
    await mintedSupply(platform.api, coin.id, '10000', wallet);
    const walletPayout = await burn(coin.id, { amount: '10000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: toBank(wallet) }).expect(400);
    expect(walletPayout.body.details).toMatchObject({ reason: 'ACCOUNT_INELIGIBLE', errors: [{ field: 'destination.externalAccountId' }] });
    const notEnabled = await burn(coin.id, { amount: '10000', source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdb.id }, destination: toBank(bank) }).expect(400);
    expect(notEnabled.body.details).toMatchObject({ reason: 'STABLECOIN_NOT_ENABLED', errors: [{ field: 'source.accountId' }] });
    const bad = await burn(coin.id, { amount: 'ten', source: { type: 'WIRE' }, destination: { type: 'BANK', externalAccountId: 'InternalAccount:x', rail: 'SWIFT' } }).expect(400);
    expect(bad.body.details.errors.map((error: any) => error.field)).toEqual(['amount', 'source.type', 'destination.type', 'destination.rail', 'destination.externalAccountId']);
  });

  it('lists a coin\'s operations newest first, filtered by operationType and paged; the ids are 404 to another platform', async () => {
    const coin = await registerCoin(platform.api);
    const wallet = await sparkWallet(platform.api);
    const bank = await usdBank(platform.api);
    const mint = await mintedSupply(platform.api, coin.id, '20000', wallet);
    const first = (await burn(coin.id, { amount: '10000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: toBank(bank), description: 'x 001' }).expect(201)).body;
    const second = (await burn(coin.id, { amount: '10000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: toBank(bank), description: 'x 001' }).expect(201)).body;
    expect((await platform.api.get(`/stablecoins/${coin.id}/operations`).expect(200)).body).toEqual({ data: [second, first, mint], hasMore: false, totalCount: 3 });
    expect((await platform.api.get(`/stablecoins/${coin.id}/operations`).query({ operationType: 'MINT' }).expect(200)).body).toEqual({ data: [mint], hasMore: false, totalCount: 1 });
    const page1 = (await platform.api.get(`/stablecoins/${coin.id}/operations`).query({ operationType: 'BURN', limit: 1 }).expect(200)).body;
    expect(page1).toEqual({ data: [second], hasMore: true, nextCursor: expect.any(String), totalCount: 2 });
    expect((await platform.api.get(`/stablecoins/${coin.id}/operations`).query({ operationType: 'BURN', limit: 1, cursor: page1.nextCursor }).expect(200)).body).toEqual({ data: [first], hasMore: false, totalCount: 2 });
    const another = await registerCoin(platform.api);
    expect((await platform.api.get(`/stablecoins/${another.id}/operations`).expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });

    const other = await testApp.createPlatform();
    const notFound = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Stablecoin not found' };
    expect((await other.api.get(`/stablecoins/${coin.id}/operations`).expect(404)).body).toEqual(notFound);
    expect((await platform.api.get('/stablecoins/nope/operations').expect(404)).body).toEqual(notFound);
    expect((await other.api.get(`/stablecoin-operations/${first.id}`).expect(404)).body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Stablecoin operation not found' });
    expect((await platform.api.get('/stablecoin-operations/StablecoinOperation:nope').expect(404)).body.code).toBe('REFERENCE_NOT_FOUND');
    await linkProvider(other.api);
    expect((await postWithKey(other.api, `/stablecoins/${coin.id}/burns`, { amount: '10000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: toBank(bank) }).expect(404)).body).toEqual(notFound);
  });
});
