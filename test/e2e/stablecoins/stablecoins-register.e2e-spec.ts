import { uniqueId } from '../../support/customer-fixtures';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { linkProvider, postWithKey, registerCoin } from './stablecoin-fixtures';

const UNKNOWN_COIN = 'Stablecoin:0199a000-0000-7000-8000-0000000000ff';
const COIN_NOT_FOUND = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Stablecoin not found' };

/** `POST /stablecoins`, `GET /stablecoins`, `GET /stablecoins/{id}`: registration, link selection, isolation. */
describe('stablecoin registration', () => {
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
  });

  const register = (body: Record<string, unknown>, key?: string) =>
    postWithKey(platform.api, '/stablecoins', { networkTokenIdentifier: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k', network: 'SPARK', ...body }, key);

  it('registers a provider token against the only active link (201): PROVISIONED, not enabled for Grid operations', async () => {
    const link = await linkProvider(platform.api);
    const response = await register({ providerTokenIdentifier: 'acme' }).expect(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^Stablecoin:/),
      name: 'ACME Stablecoin',
      symbol: 'ACME',
      baseCurrency: 'USD',
      network: 'SPARK',
      decimals: 6,
      issuanceStatus: 'PROVISIONED',
      gridOperationsStatus: 'NOT_ENABLED',
      networkTokenIdentifier: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k',
      provider: 'BRALE',
      stablecoinProviderAccountId: link.id,
      providerEnvironment: 'SANDBOX',
      providerTokenIdentifier: 'acme',
      createdAt: expect.any(String),
      updatedAt: response.body.createdAt,
    });
    expect((await platform.api.get(`/stablecoins/${response.body.id}`).expect(200)).body).toEqual(response.body);
    const history = (await platform.api.get('/audit/events').query({ resourceId: response.body.id }).expect(200)).body.data;
    expect(history.map((entry: any) => [entry.type, entry.metadata.actor])).toEqual([['StablecoinRegistered', `platform:${platform.clientId}`]]);
  });

  it('a token whose symbol is a service currency (USDB) is ENABLED, with that currency', async () => {
    await linkProvider(platform.api);
    const coin = await registerCoin(platform.api, 'usdb');
    expect(coin).toMatchObject({ symbol: 'USDB', gridOperationsStatus: 'ENABLED', currency: 'USDB' });
  });

  it('the same token again is 409 CONFLICT; the same Idempotency-Key replays the first answer', async () => {
    await linkProvider(platform.api);
    const key = uniqueId('idem');
    const first = await register({ providerTokenIdentifier: 'acme' }, key).expect(201);
    expect((await register({ providerTokenIdentifier: 'acme' }, key).expect(201)).body).toEqual(first.body);
    const again = await register({ providerTokenIdentifier: 'acme' }).expect(409);
    expect(again.body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'This provider token is already registered as a stablecoin',
      details: { reason: 'STABLECOIN_ALREADY_REGISTERED', stablecoinId: first.body.id },
    });
  });

  it('no active link: 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND; several: 400 ..._SELECTION_REQUIRED until one is named', async () => {
    const none = await register({ providerTokenIdentifier: 'acme' }).expect(404);
    expect(none.body).toEqual({
      status: 404,
      code: 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
      message: 'Stablecoin provider account link not found',
      details: { reason: 'NO_ACTIVE_LINK', provider: 'BRALE' },
    });
    const first = await linkProvider(platform.api);
    const second = await linkProvider(platform.api);
    const ambiguous = await register({ providerTokenIdentifier: 'acme' }).expect(400);
    expect(ambiguous.body).toEqual({
      status: 400,
      code: 'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
      message: 'Several active provider account links exist; pass stablecoinProviderAccountId to select one',
      details: { stablecoinProviderAccountIds: [first.id, second.id] },
    });
    const chosen = await register({ providerTokenIdentifier: 'acme', stablecoinProviderAccountId: second.id }).expect(201);
    expect(chosen.body.stablecoinProviderAccountId).toBe(second.id);
  });

  it('a revoked link is 400 STABLECOIN_PROVIDER_ACCOUNT_REVOKED, an invalid one 400 ..._INVALID, an unknown one 404', async () => {
    const revoked = await linkProvider(platform.api, uniqueId('client').concat('-002'));
    const invalid = await linkProvider(platform.api, uniqueId('client').concat('-003'));
    await eventually(async () => (await platform.api.get('/stablecoin-provider-accounts').query({ status: 'ACTIVE' }).expect(200)).body.totalCount === 0);
    expect((await register({ providerTokenIdentifier: 'acme', stablecoinProviderAccountId: revoked.id }).expect(400)).body).toEqual({
      status: 400,
      code: 'STABLECOIN_PROVIDER_ACCOUNT_REVOKED',
      message: 'The stablecoin provider account link has been revoked',
      details: { stablecoinProviderAccountId: revoked.id },
    });
    expect((await register({ providerTokenIdentifier: 'acme', stablecoinProviderAccountId: invalid.id }).expect(400)).body).toEqual({
      status: 400,
      code: 'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
      message: 'The stablecoin provider account link is not usable',
      details: { stablecoinProviderAccountId: invalid.id, reason: 'PROVIDER_CREDENTIALS_NO_LONGER_VALID' },
    });
    const other = await testApp.createPlatform();
    const othersLink = await linkProvider(other.api);
    expect((await register({ providerTokenIdentifier: 'acme', stablecoinProviderAccountId: othersLink.id }).expect(404)).body).toEqual({
      status: 404,
      code: 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
      message: 'Stablecoin provider account link not found',
    });
  });

  it('400: every bad field at once; a token the provider does not know (ending 001)', async () => {
    await linkProvider(platform.api);
    const bad = await postWithKey(platform.api, '/stablecoins', { network: 'ETHEREUM', stablecoinProviderAccountId: 'Card:x', other: 1 }).expect(400);
    expect(bad.body.details.errors.map((error: any) => error.field).sort()).toEqual(['network', 'networkTokenIdentifier', 'other', 'providerTokenIdentifier', 'stablecoinProviderAccountId']);
    expect((await register({ providerTokenIdentifier: 'ghost-001' }).expect(400)).body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The provider has no token with this identifier',
      details: { reason: 'PROVIDER_TOKEN_NOT_FOUND', errors: [{ field: 'providerTokenIdentifier', constraint: {}, message: 'The provider has no token with this identifier' }] },
    });
    expect((await platform.api.post('/stablecoins').send({ providerTokenIdentifier: 'acme', networkTokenIdentifier: 'btkn1', network: 'SPARK' }).expect(400)).body.details.errors[0].field).toBe('Idempotency-Key');
  });

  it('lists newest first with the filters, paged; another platform sees nothing and gets 404 for the ids', async () => {
    await linkProvider(platform.api);
    const first = await registerCoin(platform.api, 'acme');
    const second = await registerCoin(platform.api, 'usdb');
    expect((await platform.api.get('/stablecoins').expect(200)).body).toEqual({ data: [second, first], hasMore: false, totalCount: 2 });
    expect((await platform.api.get('/stablecoins').query({ gridOperationsStatus: 'ENABLED' }).expect(200)).body.data).toEqual([second]);
    expect((await platform.api.get('/stablecoins').query({ issuanceStatus: 'PROVISIONED', provider: 'BRALE' }).expect(200)).body.totalCount).toBe(2);
    expect((await platform.api.get('/stablecoins').query({ issuanceStatus: 'REJECTED' }).expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    const page1 = (await platform.api.get('/stablecoins').query({ limit: 1 }).expect(200)).body;
    expect(page1).toEqual({ data: [second], hasMore: true, nextCursor: expect.any(String), totalCount: 2 });
    expect((await platform.api.get('/stablecoins').query({ limit: 1, cursor: page1.nextCursor }).expect(200)).body).toEqual({ data: [first], hasMore: false, totalCount: 2 });
    const bad = await platform.api.get('/stablecoins').query({ issuanceStatus: 'X', gridOperationsStatus: 'Y', cursor: '%%' }).expect(400);
    expect(bad.body.details.errors.map((error: any) => error.field)).toEqual(['issuanceStatus', 'gridOperationsStatus', 'cursor']);

    const other = await testApp.createPlatform();
    expect((await other.api.get('/stablecoins').expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect((await other.api.get(`/stablecoins/${first.id}`).expect(404)).body).toEqual(COIN_NOT_FOUND);
    expect((await platform.api.get(`/stablecoins/${UNKNOWN_COIN}`).expect(404)).body).toEqual(COIN_NOT_FOUND);
    expect((await platform.api.get('/stablecoins/nope').expect(404)).body).toEqual(COIN_NOT_FOUND);
  });
});
