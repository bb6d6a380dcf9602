import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { balanceOf, linkProvider, mintedSupply, operationInStatus, platformAccount, postWithKey, registerCoin, sparkWallet, usdBank } from './stablecoin-fixtures';

/** The supply invariant over HTTP: concurrent burns and mints of one coin never burn more than is outstanding. */
describe('stablecoin mint/burn races', () => {
  let testApp: TestApp;
  let platform: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp();
    platform = testApp.platform;
    await linkProvider(platform.api);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const supplyHistory = async (coinId: string) =>
    (await platform.api.get('/audit/events').query({ resourceId: coinId, limit: 100 }).expect(200)).body.data.filter((entry: any) => entry.type === 'StablecoinSupplyChanged');

  it('20 concurrent burns whose sum is twice the outstanding supply: the accepted ones add up to at most the supply, the others are 400 INSUFFICIENT_SUPPLY', async () => {
    const coin = await registerCoin(platform.api);
    const bank = await usdBank(platform.api);
    await mintedSupply(platform.api, coin.id, '100000', await sparkWallet(platform.api));
    const body = { amount: '10000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank.id, rail: 'ACH_CREDIT' }, description: 'held 001' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => postWithKey(platform.api, `/stablecoins/${coin.id}/burns`, body)));
    const accepted = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(accepted).toHaveLength(10);
    for (const answer of refused) expect([answer.status, answer.body.code, answer.body.details.reason]).toEqual([400, 'INVALID_AMOUNT', 'INSUFFICIENT_SUPPLY']);
    const listed = (await platform.api.get(`/stablecoins/${coin.id}/operations`).query({ operationType: 'BURN', limit: 100 }).expect(200)).body;
    expect(listed.totalCount).toBe(10);
    expect(listed.data.reduce((sum: number, operation: any) => sum + Number(operation.amount), 0)).toBe(100_000);
  });

  it('concurrent mints and burns that complete: every supply change keeps minted - burned == outstanding >= 0, and the end state adds up', async () => {
    const coin = await registerCoin(platform.api);
    const bank = await usdBank(platform.api);
    const wallet = await sparkWallet(platform.api);
    await mintedSupply(platform.api, coin.id, '50000', wallet);
    const mintBody = { amount: '20000', fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'SOLANA' }, destination: { accountId: wallet.id } };
    const burnBody = { amount: '30000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank.id, rail: 'WIRE' } };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        index % 2 === 0 ? postWithKey(platform.api, `/stablecoins/${coin.id}/mints`, mintBody) : postWithKey(platform.api, `/stablecoins/${coin.id}/burns`, burnBody),
      ),
    );
    for (const answer of answers) expect([201, 400]).toContain(answer.status);
    const acceptedIds = answers.filter((answer) => answer.status === 201).map((answer) => answer.body.id);
    // Mints always open; burns open only while the supply (pending burns counted) covers them.
    expect(answers.filter((answer, index) => index % 2 === 0 && answer.status === 201)).toHaveLength(10);
    await eventually(async () => {
      const listed = (await platform.api.get(`/stablecoins/${coin.id}/operations`).query({ limit: 100 }).expect(200)).body.data;
      return listed.filter((operation: any) => acceptedIds.includes(operation.id)).every((operation: any) => operation.status === 'COMPLETED');
    });
    const history = await supplyHistory(coin.id);
    for (const change of history) {
      expect(change.data.minted - change.data.burned).toBe(change.data.outstanding);
      expect(change.data.outstanding).toBeGreaterThanOrEqual(0);
    }
    const acceptedBurns = answers.filter((answer, index) => index % 2 === 1 && answer.status === 201).length;
    expect(history.at(-1).data).toMatchObject({ minted: 50_000 + 10 * 20_000, burned: acceptedBurns * 30_000, outstanding: 250_000 - acceptedBurns * 30_000 });
  });
  it('burns from the internal account racing provider-balance burns: the accepted ones never exceed the account\'s coin nor the supply; the ledger and the supply agree', async () => {
    const owner = await testApp.createPlatform();
    await linkProvider(owner.api);
    const coin = await registerCoin(owner.api, 'usdb');
    const bank = await usdBank(owner.api);
    const usd = await platformAccount(owner.api, 'USD');
    const usdb = await platformAccount(owner.api, 'USDB');
    await postWithKey(owner.api, `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 1_000 }).expect(200);
    const toAccount = await postWithKey(owner.api, `/stablecoins/${coin.id}/mints`, { amount: '10000000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id }, destination: { accountId: usdb.id } }).expect(201);
    await operationInStatus(owner.api, toAccount.body.id, 'COMPLETED');
    await mintedSupply(owner.api, coin.id, '5000000', await sparkWallet(owner.api));
    // 15,000,000 outstanding, 10,000,000 of it in the account: 20 burns from the account and 10 from the provider's balance, 1,000,000 each.
    const destination = { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank.id, rail: 'WIRE' };
    const fromAccount = { amount: '1000000', source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdb.id }, destination };
    const fromProvider = { amount: '1000000', source: { type: 'PROVIDER_INTERNAL_BALANCE' }, destination };
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => postWithKey(owner.api, `/stablecoins/${coin.id}/burns`, index % 3 === 2 ? fromProvider : fromAccount)));
    const accepted = answers.filter((answer) => answer.status === 201);
    const acceptedFromAccount = answers.filter((answer, index) => index % 3 !== 2 && answer.status === 201).length;
    for (const answer of answers.filter((each) => each.status !== 201)) {
      expect([answer.status, `${answer.body.code}/${answer.body.details?.reason ?? ''}`]).toEqual([400, expect.stringMatching(/^(INSUFFICIENT_FUNDS\/|INVALID_AMOUNT\/INSUFFICIENT_SUPPLY)/)]);
    }
    // Demand (30,000,000) exceeds the supply, so the supply is used up; the account gives at most its 10,000,000.
    expect(accepted).toHaveLength(15);
    expect(acceptedFromAccount).toBeLessThanOrEqual(10);
    for (const answer of accepted) await operationInStatus(owner.api, answer.body.id, 'COMPLETED');
    const history = (await owner.api.get('/audit/events').query({ resourceId: coin.id, limit: 100 }).expect(200)).body.data.filter((entry: any) => entry.type === 'StablecoinSupplyChanged');
    expect(history.at(-1).data).toMatchObject({ minted: 15_000_000, burned: 15_000_000, outstanding: 0 });
    await eventually(async () => JSON.stringify(await balanceOf(owner.api, usdb.id)) === JSON.stringify({ available: 10_000_000 - acceptedFromAccount * 1_000_000, total: 10_000_000 - acceptedFromAccount * 1_000_000 }));
  });
});
