import { createPublicKey } from 'node:crypto';
import { Client } from 'pg';
import { TestApp, startTestApp } from '../../support/test-app';

/** `GET /config` and `PATCH /config`: the platform configuration aggregate and its read model. */
describe('platform configuration', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('GET /config answers the sandbox defaults with the published keys', async () => {
    const response = await testApp.platform.api.get('/config').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(response.body).sort()).toEqual(
      [
        'createdAt', 'embeddedWalletConfig', 'feeConfigs', 'id', 'name', 'supportedCurrencies', 'updatedAt',
        'walletEnclavePublicKey', 'webhookEndpoint', 'webhookPublicKey',
      ].sort(),
    );
    expect(response.body.id).toBe(testApp.platform.platformId);
    expect(response.body.webhookEndpoint).toBeNull();
    expect(response.body.supportedCurrencies.map((entry: { currencyCode: string }) => entry.currencyCode)).toEqual(['USD', 'USDC', 'USDB']);
    expect(response.body.feeConfigs).toEqual([]);
    expect(response.body.walletEnclavePublicKey).toMatch(/^04[0-9a-f]{128}$/);
    const webhookKey = createPublicKey(response.body.webhookPublicKey);
    expect(webhookKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  });

  it('PATCH /config changes the fields given, answers the new configuration, and GET sees it at once', async () => {
    const patch = {
      webhookEndpoint: 'https://hooks.example.com/payments',
      feeConfigs: [{ currencyCode: 'USD', fixedFee: 25, variableFeeRate: 0.001 }],
      embeddedWalletConfig: { rpId: 'wallet.example.com', allowedOrigins: ['https://wallet.example.com'] },
    };
    const patched = await testApp.platform.api.patch('/config').send(patch).expect(200);
    expect(patched.body.webhookEndpoint).toBe(patch.webhookEndpoint);
    expect(patched.body.feeConfigs).toEqual(patch.feeConfigs);
    expect(patched.body.embeddedWalletConfig).toEqual(patch.embeddedWalletConfig);
    expect(patched.body.supportedCurrencies).toHaveLength(3);
    expect(Date.parse(patched.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(patched.body.createdAt));

    const read = await testApp.platform.api.get('/config').expect(200);
    expect(read.body).toEqual(patched.body);
  });

  it('PATCH /config with supportedCurrencies replaces the list and fills defaults', async () => {
    const patched = await testApp.platform.api
      .patch('/config')
      .send({ supportedCurrencies: [{ currencyCode: 'EUR' }, { currencyCode: 'USD', minAmount: 100, maxAmount: 1_000_000 }] })
      .expect(200);
    expect(patched.body.supportedCurrencies).toEqual([
      { currencyCode: 'EUR', minAmount: 1, maxAmount: 9_000_000_000_000_000, requiredCounterpartyFields: [] },
      { currencyCode: 'USD', minAmount: 100, maxAmount: 1_000_000, requiredCounterpartyFields: [] },
    ]);
  });

  it('PATCH /config lists every bad and unknown field in one 400', async () => {
    const response = await testApp.platform.api
      .patch('/config')
      .send({
        webhookEndpoint: 'ftp://example.com/hook',
        feeConfigs: [{ currencyCode: 'XXX', fixedFee: -1, variableFeeRate: 2 }],
        surprise: true,
      })
      .expect(400);
    expect(response.body.status).toBe(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(typeof response.body.message).toBe('string');
    const fields = response.body.details.errors.map((error: { field: string }) => error.field).sort();
    expect(fields).toEqual(
      ['feeConfigs.0.currencyCode', 'feeConfigs.0.fixedFee', 'feeConfigs.0.variableFeeRate', 'surprise', 'webhookEndpoint'].sort(),
    );
    for (const error of response.body.details.errors) {
      expect(Object.keys(error).sort()).toEqual(['constraint', 'field', 'message']);
    }
    const surprise = response.body.details.errors.find((error: { field: string }) => error.field === 'surprise');
    expect(surprise.constraint).toBe('UNKNOWN_FIELD');
  });

  it('PATCH /config refuses an empty supportedCurrencies and lists duplicates next to other bad entries', async () => {
    const empty = await testApp.platform.api.patch('/config').send({ supportedCurrencies: [] }).expect(400);
    expect(empty.body.details.errors).toEqual([
      { field: 'supportedCurrencies', constraint: 'MIN_LENGTH', message: 'supportedCurrencies must list at least one currency' },
    ]);
    const mixed = await testApp.platform.api
      .patch('/config')
      .send({ supportedCurrencies: [{ currencyCode: 'XYZ' }, { currencyCode: 'USD' }, { currencyCode: 'USD' }] })
      .expect(400);
    expect(mixed.body.details.errors.map((error: { field: string; constraint: string }) => `${error.field}:${error.constraint}`)).toEqual([
      'supportedCurrencies.0.currencyCode:ENUM',
      'supportedCurrencies.2.currencyCode:FORMAT',
    ]);
    const current = await testApp.platform.api.get('/config').expect(200);
    expect(current.body.supportedCurrencies.length).toBeGreaterThan(0);
  });

  it('PATCH /config refuses a body that is not a JSON object', async () => {
    const response = await testApp.platform.api.patch('/config').set('Content-Type', 'application/json').send('[1,2]').expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    const broken = await testApp.platform.api.patch('/config').set('Content-Type', 'application/json').send('{"webhookEndpoint":').expect(400);
    expect(broken.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The request body is not valid JSON',
      details: { errors: [{ field: 'body', constraint: 'FORMAT', message: 'The request body is not valid JSON' }] },
    });
  });

  it('refuses loopback and private webhook endpoints in production mode only', async () => {
    await testApp.platform.api.patch('/config').send({ webhookEndpoint: 'http://127.0.0.1:9/hook' }).expect(200);
    const production = await startTestApp({ env: { SERVICE_MODE: 'production' } });
    try {
      for (const endpoint of ['http://127.0.0.1:9/hook', 'http://10.1.2.3/hook', 'http://[::1]/hook', 'http://localhost/hook']) {
        const response = await production.platform.api.patch('/config').send({ webhookEndpoint: endpoint }).expect(400);
        expect(response.body.details.errors).toEqual([
          { field: 'webhookEndpoint', constraint: 'FORMAT', message: 'webhookEndpoint must not point at a loopback or private address' },
        ]);
      }
      await production.platform.api.patch('/config').send({ webhookEndpoint: 'https://hooks.example.com/x' }).expect(200);
    } finally {
      await production.close();
    }
  });

  it('keeps each platform to its own configuration', async () => {
    const other = await testApp.createPlatform();
    await other.api.patch('/config').send({ webhookEndpoint: 'https://other.example.com/hook' }).expect(200);
    const mine = await testApp.platform.api.get('/config').expect(200);
    expect(mine.body.id).toBe(testApp.platform.platformId);
    expect(mine.body.webhookEndpoint).not.toBe('https://other.example.com/hook');
    const theirs = await other.api.get('/config').expect(200);
    expect(theirs.body.id).toBe(other.platformId);
  });

  it('records every change as an event with metadata, visible in the audit history', async () => {
    const response = await testApp.platform.api
      .get('/audit/events')
      .query({ resourceId: testApp.platform.platformId })
      .expect(200);
    const types = response.body.data.map((entry: { type: string }) => entry.type);
    expect(types[0]).toBe('PlatformRegistered');
    expect(types.filter((type: string) => type === 'PlatformConfigUpdated').length).toBeGreaterThanOrEqual(3);
    const update = response.body.data.find((entry: { type: string }) => entry.type === 'PlatformConfigUpdated');
    expect(update.metadata).toEqual(
      expect.objectContaining({
        platformId: testApp.platform.platformId,
        actor: `platform:${testApp.platform.clientId}`,
        correlationId: expect.any(String),
        causationId: expect.any(String),
        requestId: expect.any(String),
      }),
    );
    expect(response.body.totalCount).toBe(response.body.data.length);

    const paged = await testApp.platform.api
      .get('/audit/events')
      .query({ resourceId: testApp.platform.platformId, limit: 1 })
      .expect(200);
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.hasMore).toBe(true);
    const next = await testApp.platform.api
      .get('/audit/events')
      .query({ resourceId: testApp.platform.platformId, limit: 1, cursor: paged.body.nextCursor })
      .expect(200);
    expect(next.body.data[0].eventId).toBe(response.body.data[1].eventId);
  });

  it('hides another platform\'s history as if it did not exist', async () => {
    const other = await testApp.createPlatform();
    const response = await other.api.get('/audit/events').query({ resourceId: testApp.platform.platformId }).expect(404);
    expect(response.body.code).toBe('NOT_FOUND');
  });

  it('stores platform secrets hashed, never in plain text', async () => {
    const client = new Client({ connectionString: testApp.databaseUrl });
    await client.connect();
    try {
      const rows = await client.query('SELECT secret_hash FROM platform_credentials WHERE client_id = $1', [testApp.platform.clientId]);
      expect(rows.rows[0].secret_hash).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
      expect(rows.rows[0].secret_hash).not.toContain(testApp.platform.clientSecret);
    } finally {
      await client.end();
    }
  });
});
