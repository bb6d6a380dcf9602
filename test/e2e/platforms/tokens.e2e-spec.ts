import { Client } from 'pg';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { createIndividual } from '../../support/customer-fixtures';
import { TestApp, TestPlatform, anonymousClient, platformClient, startTestApp } from '../../support/test-app';

const TOKEN_ID = /^Token:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const NOT_FOUND = { status: 404, code: 'TOKEN_NOT_FOUND', message: 'Token not found' };
const UNKNOWN_TOKEN = 'Token:01900000-0000-7000-8000-000000000000';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * API tokens (issue 24 part 1, docs/platforms.md "API tokens"): create with the secret shown once
 * and stored only as a hash, list with the reference's filters and pagination, get, revoke; every
 * error code; the audit history with who did it; another platform's tokens are 404.
 */
describe('API tokens', () => {
  let testApp: TestApp;
  let other: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp();
    other = await testApp.createPlatform();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const create = async (name: string, permissions: string[] = ['VIEW'], as = api()) => (await as.post('/tokens').send({ name, permissions }).expect(201)).body;
  const withoutSecret = ({ clientSecret: _secret, ...token }: Record<string, unknown>) => token;
  const clientOf = (token: { clientId: string; clientSecret: string }) => platformClient(testApp.baseUrl, token.clientId, token.clientSecret);

  it('POST /tokens: 201 with the reference\'s ApiToken and its secret; the pair authenticates; GET shows it without the secret', async () => {
    const before = Date.now();
    const created = await create('Payouts', ['VIEW', 'TRANSACT']);
    expect(created).toEqual({
      id: expect.stringMatching(TOKEN_ID),
      name: 'Payouts',
      permissions: ['VIEW', 'TRANSACT'],
      clientId: expect.stringMatching(/^[0-9a-f]{32}$/),
      clientSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: expect.any(String),
      updatedAt: created.createdAt,
    });
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await api().get(`/tokens/${created.id}`).expect(200)).body).toEqual(withoutSecret(created));
    // The token is a platform credential: it sees the platform's data.
    expect((await clientOf(created).get('/config').expect(200)).body.id).toBe(testApp.platform.platformId);
    const wrong = await anonymousClient(testApp.baseUrl).get('/config').auth(created.clientId, `${created.clientSecret}0`).expect(401);
    expect(wrong.body.code).toBe('UNAUTHORIZED');
  });

  it('the secret is stored only as a scrypt hash: not in the credentials, the events or the read model', async () => {
    const created = await create('Secret keeper');
    const events = await testApp.app.get(EventStoreService).readStream(`token-${created.id.slice('Token:'.length)}`);
    expect(events.map((event) => event.type)).toEqual(['TokenCreated']);
    expect(events[0].data).toEqual({
      tokenId: created.id, platformId: testApp.platform.platformId, name: 'Secret keeper', permissions: ['VIEW'], clientId: created.clientId, createdAt: created.createdAt,
    });
    const database = new Client({ connectionString: testApp.databaseUrl });
    await database.connect();
    try {
      const stored = await database.query('SELECT secret_hash, token_id, permissions FROM platform_credentials WHERE client_id = $1', [created.clientId]);
      expect(stored.rows).toEqual([{ secret_hash: expect.stringMatching(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/), token_id: created.id, permissions: ['VIEW'] }]);
      for (const table of ['platform_credentials', 'api_tokens', 'events', 'idempotency_keys']) {
        const found = await database.query(`SELECT count(*)::int AS n FROM ${table} t WHERE t::text LIKE $1`, [`%${created.clientSecret}%`]);
        expect([table, found.rows[0].n]).toEqual([table, 0]);
      }
    } finally {
      await database.end();
    }
  });

  it('400 INVALID_INPUT listing every bad field: name, permissions (missing, empty, unknown, twice), unknown fields', async () => {
    const missing = (await api().post('/tokens').send({ extra: true }).expect(400)).body;
    expect(missing.code).toBe('INVALID_INPUT');
    expect(missing.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['extra', 'name', 'permissions']);
    const bad = (await api().post('/tokens').send({ name: '  ', permissions: ['VIEW', 'ADMIN'] }).expect(400)).body;
    expect(bad.details.errors).toEqual([
      { field: 'name', constraint: { pattern: '\\S' }, message: 'name must not be blank' },
      { field: 'permissions', constraint: { enum: ['VIEW', 'TRANSACT', 'MANAGE'] }, message: expect.any(String) },
    ]);
    expect((await api().post('/tokens').send({ name: 'x'.repeat(256), permissions: [] }).expect(400)).body.details.errors.map((error: { field: string }) => error.field)).toEqual([
      'name', 'permissions',
    ]);
    expect((await api().post('/tokens').send({ name: 'Twice', permissions: ['VIEW', 'VIEW'] }).expect(400)).body.details.errors).toEqual([
      { field: 'permissions', constraint: {}, message: 'permissions must list each permission once' },
    ]);
    expect((await api().post('/tokens').send([]).expect(400)).body.details.errors).toEqual([{ field: 'body', constraint: {}, message: 'Expected a JSON object' }]);
  });

  it('GET /tokens: the platform\'s live tokens, oldest first, with the reference\'s filters, pagination and totalCount', async () => {
    const platform = await testApp.createPlatform();
    const first = await create('Reporting', ['VIEW'], platform.api);
    await sleep(20);
    const second = await create('Payouts', ['TRANSACT'], platform.api);
    await sleep(20);
    const third = await create('Reporting', ['VIEW', 'MANAGE'], platform.api);
    const all = (await platform.api.get('/tokens').expect(200)).body;
    expect(all).toEqual({ data: [first, second, third].map(withoutSecret), hasMore: false, totalCount: 3 });

    expect((await platform.api.get('/tokens').query({ name: 'Reporting' }).expect(200)).body).toEqual({
      data: [first, third].map(withoutSecret), hasMore: false, totalCount: 2,
    });
    const range = { createdAfter: second.createdAt, createdBefore: third.createdAt };
    expect((await platform.api.get('/tokens').query(range).expect(200)).body.data.map((token: { id: string }) => token.id)).toEqual([second.id, third.id]);
    const updated = { updatedAfter: first.updatedAt, updatedBefore: first.updatedAt };
    expect((await platform.api.get('/tokens').query(updated).expect(200)).body.data.map((token: { id: string }) => token.id)).toEqual([first.id]);

    const page1 = (await platform.api.get('/tokens').query({ limit: 2 }).expect(200)).body;
    expect(page1).toEqual({ data: [first, second].map(withoutSecret), hasMore: true, nextCursor: expect.any(String), totalCount: 3 });
    const page2 = (await platform.api.get('/tokens').query({ limit: 2, cursor: page1.nextCursor }).expect(200)).body;
    expect(page2).toEqual({ data: [withoutSecret(third)], hasMore: false, totalCount: 3 });

    // Revoked tokens are gone from the list.
    await platform.api.delete(`/tokens/${second.id}`).expect(204);
    expect((await platform.api.get('/tokens').expect(200)).body).toEqual({ data: [first, third].map(withoutSecret), hasMore: false, totalCount: 2 });
  });

  it('GET /tokens: every bad parameter listed in one 400', async () => {
    const bad = (await api().get('/tokens').query({ createdAfter: 'yesterday', updatedBefore: '2025-13-01', limit: 0, cursor: '!!', status: 'ACTIVE' }).expect(400)).body;
    expect(bad.code).toBe('INVALID_INPUT');
    expect(bad.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['createdAfter', 'cursor', 'limit', 'status', 'updatedBefore']);
  });

  it('GET /tokens/{tokenId}: 404 TOKEN_NOT_FOUND for an unknown id, a text that is no id, a revoked token', async () => {
    expect((await api().get(`/tokens/${UNKNOWN_TOKEN}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().get('/tokens/not-a-token').expect(404)).body).toEqual(NOT_FOUND);
    const created = await create('Short-lived');
    await api().delete(`/tokens/${created.id}`).expect(204);
    expect((await api().get(`/tokens/${created.id}`).expect(404)).body).toEqual(NOT_FOUND);
  });

  it('DELETE /tokens/{tokenId}: 204, then the pair is refused and a second DELETE is 404; a malformed id is 400', async () => {
    const created = await create('Revoked soon');
    await clientOf(created).get('/customers').expect(200);
    const revoked = await api().delete(`/tokens/${created.id}`).expect(204);
    expect(revoked.text).toBe('');
    expect((await anonymousClient(testApp.baseUrl).get('/customers').auth(created.clientId, created.clientSecret).expect(401)).body.code).toBe('UNAUTHORIZED');
    expect((await api().delete(`/tokens/${created.id}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().delete(`/tokens/${UNKNOWN_TOKEN}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await api().delete('/tokens/not-a-token').expect(400)).body).toEqual({
      status: 400, code: 'INVALID_INPUT', message: expect.any(String),
      details: { errors: [{ field: 'tokenId', constraint: { format: 'Token-id' }, message: 'tokenId must be a Token:<uuid> id' }] },
    });
  });

  it('401 UNAUTHORIZED without credentials, on every operation', async () => {
    const anonymous = anonymousClient(testApp.baseUrl);
    for (const refused of [anonymous.post('/tokens').send({ name: 'x', permissions: ['VIEW'] }), anonymous.get('/tokens'), anonymous.get(`/tokens/${UNKNOWN_TOKEN}`), anonymous.delete(`/tokens/${UNKNOWN_TOKEN}`)]) {
      expect((await refused.expect(401)).body.code).toBe('UNAUTHORIZED');
    }
  });

  it('creation and revocation are events in the token\'s audit history, with who did it', async () => {
    const manager = await create('Manager', ['VIEW', 'MANAGE']);
    const created = await create('Audited', ['VIEW'], clientOf(manager));
    await api().delete(`/tokens/${created.id}`).expect(204);
    const history = (await api().get('/audit/events').query({ resourceId: created.id }).expect(200)).body;
    expect(history.data.map((entry: { type: string }) => entry.type)).toEqual(['TokenCreated', 'TokenRevoked']);
    // The creator is the manager token's client id; the revoker the bootstrap credentials'.
    expect(history.data.map((entry: { metadata: { actor: string } }) => entry.metadata.actor)).toEqual([`platform:${manager.clientId}`, `platform:${testApp.platform.clientId}`]);
    expect(history.data[1].data).toEqual({ tokenId: created.id, platformId: testApp.platform.platformId, clientId: created.clientId, revokedAt: expect.any(String) });
    await other.api.get('/audit/events').query({ resourceId: created.id }).expect(404);
  });

  it('a token grants no permission its creator lacks: 403 FORBIDDEN naming them; MANAGE alone makes VIEW-less tokens', async () => {
    const manager = clientOf(await create('Manager only', ['MANAGE']));
    expect((await manager.post('/tokens').send({ name: 'Escalation', permissions: ['VIEW', 'TRANSACT', 'MANAGE'] }).expect(403)).body).toEqual({
      status: 403, code: 'FORBIDDEN', message: 'This credential lacks the VIEW, TRANSACT permissions', details: { reason: 'MISSING_PERMISSION', missingPermissions: ['VIEW', 'TRANSACT'] },
    });
    const made = (await manager.post('/tokens').send({ name: 'Deputy', permissions: ['MANAGE'] }).expect(201)).body;
    expect(made.permissions).toEqual(['MANAGE']);
  });

  it('another platform\'s tokens are 404 on every operation and change nothing; its own list is its own', async () => {
    const created = await create('Mine');
    expect((await other.api.get(`/tokens/${created.id}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await other.api.delete(`/tokens/${created.id}`).expect(404)).body).toEqual(NOT_FOUND);
    expect((await other.api.get('/tokens').expect(200)).body.data.map((token: { id: string }) => token.id)).not.toContain(created.id);
    await clientOf(created).get('/customers').expect(200);
    // A token reaches its own platform's data only: another platform's customer is 404 through it.
    const foreign = await createIndividual(other.api);
    expect((await clientOf(created).get(`/customers/${foreign.id}`).expect(404)).body.code).toBe('USER_NOT_FOUND');
    expect((await clientOf(created).get('/customers').expect(200)).body.data.map((customer: { id: string }) => customer.id)).not.toContain(foreign.id);
  });

  it('a token\'s failed attempts are limited like the bootstrap credentials\': 10 a minute, then 429 even with its secret', async () => {
    const created = await create('Guessed');
    const attempt = (secret: string) => anonymousClient(testApp.baseUrl).get('/webhooks/deliveries').auth(created.clientId, secret);
    for (let failure = 1; failure <= 10; failure++) await attempt(`wrong-${failure}`).expect(401);
    const locked = await attempt(created.clientSecret).expect(429);
    expect(locked.body).toEqual(expect.objectContaining({ code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } }));
  });
});
