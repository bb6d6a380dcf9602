import { Pool } from 'pg';
import { uniqueId } from '../../support/customer-fixtures';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { linkProvider, postWithKey } from './stablecoin-fixtures';

const UNKNOWN_LINK = 'StablecoinProviderAccount:0199a000-0000-7000-8000-0000000000ff';
const LINK_NOT_FOUND = { status: 404, code: 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', message: 'Stablecoin provider account link not found' };

/** `POST/GET /stablecoin-provider-accounts`, `GET .../{id}`: linking, the sandbox provider's verdicts, the sealed secret. */
describe('stablecoin provider account links', () => {
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

  it('links ACTIVE credentials (201); the secret is never answered nor recorded, only sealed in the key vault', async () => {
    const response = await postWithKey(platform.api, '/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'client-123', apiClientSecret: 'very-secret-value-456', providerAccountId: '2VcUIonJeVQzFoBuC7LdFT0dRe4' }).expect(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^StablecoinProviderAccount:/),
      provider: 'BRALE',
      providerAccountId: '2VcUIonJeVQzFoBuC7LdFT0dRe4',
      providerEnvironment: 'SANDBOX',
      status: 'ACTIVE',
      lastVerifiedAt: expect.any(String),
      createdAt: response.body.lastVerifiedAt,
      updatedAt: response.body.lastVerifiedAt,
    });
    expect((await platform.api.get(`/stablecoin-provider-accounts/${response.body.id}`).expect(200)).body).toEqual(response.body);
    const history = (await platform.api.get('/audit/events').query({ resourceId: response.body.id }).expect(200)).body;
    expect(history.data.map((entry: any) => entry.type)).toEqual(['StablecoinProviderAccountLinked']);
    expect(history.data[0].metadata.actor).toBe(`platform:${platform.clientId}`);
    expect(JSON.stringify(history)).not.toContain('very-secret-value-456');
    const pool = new Pool({ connectionString: testApp.databaseUrl });
    try {
      const sealed = await pool.query(`SELECT purpose, ciphertext FROM sealed_secrets WHERE id = $1`, [`stablecoin-provider-secret:${response.body.id}`]);
      expect(sealed.rows).toHaveLength(1);
      expect(sealed.rows[0].purpose).toBe('stablecoin-provider-secret');
      expect(Buffer.from(sealed.rows[0].ciphertext).toString('utf8')).not.toContain('very-secret-value-456');
      const events = await pool.query(`SELECT count(*)::int AS n FROM events WHERE data::text LIKE '%very-secret-value-456%'`);
      expect(events.rows[0].n).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('without providerAccountId the sandbox provider names the account the credentials expose (stable per client id)', async () => {
    const first = await linkProvider(platform.api, 'client-stable-9');
    const second = await linkProvider(platform.api, 'client-stable-9');
    expect(first.providerAccountId).toMatch(/^[0-9A-Za-z]{27}$/);
    expect(second.providerAccountId).toBe(first.providerAccountId);
    expect(second.id).not.toBe(first.id);
  });

  it('replays the first answer for the same Idempotency-Key; requires the key', async () => {
    const key = uniqueId('idem');
    const body = { provider: 'BRALE', apiClientId: uniqueId('client'), apiClientSecret: 'secret' };
    const first = await postWithKey(platform.api, '/stablecoin-provider-accounts', body, key).expect(201);
    const replay = await postWithKey(platform.api, '/stablecoin-provider-accounts', body, key).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await platform.api.get('/stablecoin-provider-accounts').expect(200)).body.totalCount).toBe(1);
    const missing = await platform.api.post('/stablecoin-provider-accounts').send(body).expect(400);
    expect(missing.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The request has invalid fields',
      details: { errors: [{ field: 'Idempotency-Key', constraint: {}, message: 'The Idempotency-Key header is required' }] },
    });
  });

  it('400 INVALID_INPUT listing every bad field', async () => {
    const response = await postWithKey(platform.api, '/stablecoin-provider-accounts', { provider: 'CIRCLE', apiClientSecret: 7, extra: true }).expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(response.body.details.errors.map((error: any) => error.field).sort()).toEqual(['apiClientId', 'apiClientSecret', 'extra', 'provider']);
  });

  it('credentials the provider refuses (apiClientId ending 001): 400 STABLECOIN_PROVIDER_ACCOUNT_INVALID, nothing linked', async () => {
    const response = await postWithKey(platform.api, '/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId: 'client-001', apiClientSecret: 'secret' }).expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
      message: 'The stablecoin provider account link is not usable',
      details: { reason: 'PROVIDER_CREDENTIALS_REFUSED', errors: [{ field: 'apiClientId', constraint: {}, message: 'The provider refused these API credentials' }] },
    });
    expect((await platform.api.get('/stablecoin-provider-accounts').expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('the provider revokes a link (002) or stops accepting its credentials (003); the list filters by status and provider, newest first, paged', async () => {
    const revoked = await linkProvider(platform.api, uniqueId('client').concat('-002'));
    const invalid = await linkProvider(platform.api, uniqueId('client').concat('-003'));
    const active = await linkProvider(platform.api);
    const revokedNow = await eventually(async () => {
      const body = (await platform.api.get(`/stablecoin-provider-accounts/${revoked.id}`).expect(200)).body;
      return body.status === 'REVOKED' && body;
    });
    expect(revokedNow).toEqual({ ...revoked, status: 'REVOKED', updatedAt: expect.any(String) });
    const invalidNow = await eventually(async () => {
      const body = (await platform.api.get(`/stablecoin-provider-accounts/${invalid.id}`).expect(200)).body;
      return body.status === 'INVALID' && body;
    });
    expect((await platform.api.get('/stablecoin-provider-accounts').expect(200)).body).toEqual({ data: [active, invalidNow, revokedNow], hasMore: false, totalCount: 3 });
    expect((await platform.api.get('/stablecoin-provider-accounts').query({ status: 'ACTIVE' }).expect(200)).body).toEqual({ data: [active], hasMore: false, totalCount: 1 });
    expect((await platform.api.get('/stablecoin-provider-accounts').query({ status: 'REVOKED', provider: 'BRALE' }).expect(200)).body.data).toEqual([revokedNow]);
    const page1 = (await platform.api.get('/stablecoin-provider-accounts').query({ limit: 2 }).expect(200)).body;
    expect(page1).toEqual({ data: [active, invalidNow], hasMore: true, nextCursor: expect.any(String), totalCount: 3 });
    const page2 = (await platform.api.get('/stablecoin-provider-accounts').query({ limit: 2, cursor: page1.nextCursor }).expect(200)).body;
    expect(page2).toEqual({ data: [revokedNow], hasMore: false, totalCount: 3 });
    const bad = await platform.api.get('/stablecoin-provider-accounts').query({ status: 'GONE', provider: 'X', limit: '0', other: '1' }).expect(400);
    expect(bad.body.details.errors.map((error: any) => error.field)).toEqual(['other', 'provider', 'status', 'limit']);
  });

  it('404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND for an unknown, malformed or another platform\'s link; the other platform lists nothing', async () => {
    const link = await linkProvider(platform.api);
    const other = await testApp.createPlatform();
    expect((await other.api.get(`/stablecoin-provider-accounts/${link.id}`).expect(404)).body).toEqual(LINK_NOT_FOUND);
    expect((await platform.api.get(`/stablecoin-provider-accounts/${UNKNOWN_LINK}`).expect(404)).body).toEqual(LINK_NOT_FOUND);
    expect((await platform.api.get('/stablecoin-provider-accounts/nope').expect(404)).body).toEqual(LINK_NOT_FOUND);
    expect((await other.api.get('/stablecoin-provider-accounts').expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });
});
