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

  const BOTH_TYPES = ['OUTGOING', 'INCOMING'];
  const usdFee = (variableFeeBps: number, amount: number) => ({
    feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps, fixedFee: { amount, currency: 'USD' },
  });

  it('GET /config answers the sandbox defaults with the published keys', async () => {
    const response = await testApp.platform.api.get('/config').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(response.body).sort()).toEqual(
      [
        'createdAt', 'embeddedWalletConfig', 'feeConfigs', 'id', 'isRegulatedFinancialInstitution', 'name', 'supportedCurrencies',
        'updatedAt', 'walletEnclavePublicKey', 'webhookPublicKey',
      ].sort(),
    );
    expect(response.body.isRegulatedFinancialInstitution).toBe(true);
    expect(response.body.id).toBe(testApp.platform.platformId);
    // Not set yet: omitted rather than null.
    expect(response.body).not.toHaveProperty('webhookEndpoint');
    expect(response.body).not.toHaveProperty('umaDomain');
    expect(response.body).not.toHaveProperty('cardTokenization2faConfig');
    expect(response.body.supportedCurrencies).toEqual(
      ['USD', 'USDC', 'USDB'].map((currencyCode) => ({
        currencyCode, minAmount: 1, maxAmount: 9_000_000_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: BOTH_TYPES,
      })),
    );
    expect(response.body.feeConfigs).toEqual([]);
    expect(response.body.embeddedWalletConfig).toEqual({ rpId: 'localhost', allowedOrigins: ['http://localhost:3000'] });
    expect(response.body.walletEnclavePublicKey).toMatch(/^04[0-9a-f]{128}$/);
    const webhookKey = createPublicKey(response.body.webhookPublicKey);
    expect(webhookKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  });

  it('PATCH /config changes the fields given, answers the new configuration, and GET sees it at once', async () => {
    const patch = {
      umaDomain: 'payments.example.com',
      webhookEndpoint: 'https://hooks.example.com/payments',
      feeConfigs: [usdFee(10, 25)],
      embeddedWalletConfig: {
        rpId: 'wallet.example.com',
        allowedOrigins: ['https://wallet.example.com'],
        appName: 'Example Wallet',
        otpLength: 8,
        alphanumeric: true,
        expirationSeconds: 600,
        sendFromEmailAddress: 'noreply@example.com',
        sendFromEmailSenderName: 'Example Notifications',
        replyToEmailAddress: 'support@example.com',
        logoUrl: 'https://example.com/logo.png',
      },
      cardTokenization2faConfig: {
        displayName: 'Example',
        logoUrl: 'https://example.com/card-logo.png',
        email: { fromAddress: 'cards@example.com', fromName: 'Example Cards', replyToAddress: 'help@example.com', subject: 'Your code', bodyText: 'Enter this code.' },
        sms: { templateSid: 'HJ0123456789', bodyText: 'Your code:' },
      },
    };
    const patched = await testApp.platform.api.patch('/config').send(patch).expect(200);
    expect(patched.body.umaDomain).toBe(patch.umaDomain);
    expect(patched.body.webhookEndpoint).toBe(patch.webhookEndpoint);
    expect(patched.body.feeConfigs).toEqual(patch.feeConfigs);
    expect(patched.body.embeddedWalletConfig).toEqual(patch.embeddedWalletConfig);
    expect(patched.body.cardTokenization2faConfig).toEqual(patch.cardTokenization2faConfig);
    expect(patched.body.supportedCurrencies).toHaveLength(3);
    expect(Date.parse(patched.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(patched.body.createdAt));

    const read = await testApp.platform.api.get('/config').expect(200);
    expect(read.body).toEqual(patched.body);
  });

  it('PATCH /config merges embeddedWalletConfig and cardTokenization2faConfig: fields not given are kept', async () => {
    const before = (await testApp.platform.api.get('/config').expect(200)).body;
    const patched = await testApp.platform.api
      .patch('/config')
      .send({
        embeddedWalletConfig: { appName: 'Renamed Wallet', otpLength: 6 },
        cardTokenization2faConfig: { email: { subject: 'New subject' }, sms: { bodyText: 'Code:' } },
      })
      .expect(200);
    expect(patched.body.embeddedWalletConfig).toEqual({ ...before.embeddedWalletConfig, appName: 'Renamed Wallet', otpLength: 6 });
    expect(patched.body.cardTokenization2faConfig).toEqual({
      ...before.cardTokenization2faConfig,
      email: { ...before.cardTokenization2faConfig.email, subject: 'New subject' },
      sms: { ...before.cardTokenization2faConfig.sms, bodyText: 'Code:' },
    });
    expect(patched.body.umaDomain).toBe(before.umaDomain);
    expect(patched.body.feeConfigs).toEqual(before.feeConfigs);
  });

  it('PATCH /config upserts fee configs by (feeType, sourceCurrency); zero fees deactivate one; omitted or [] leaves them', async () => {
    const platform = await testApp.createPlatform();
    const added = await platform.api.patch('/config').send({ feeConfigs: [usdFee(30, 100)] }).expect(200);
    expect(added.body.feeConfigs).toEqual([usdFee(30, 100)]);
    const replaced = await platform.api.patch('/config').send({ feeConfigs: [usdFee(0, 75)] }).expect(200);
    expect(replaced.body.feeConfigs).toEqual([usdFee(0, 75)]);
    expect((await platform.api.patch('/config').send({ feeConfigs: [] }).expect(200)).body.feeConfigs).toEqual([usdFee(0, 75)]);
    expect((await platform.api.patch('/config').send({ umaDomain: 'fees.example.com' }).expect(200)).body.feeConfigs).toEqual([usdFee(0, 75)]);
    const deactivated = await platform.api.patch('/config').send({ feeConfigs: [usdFee(0, 0)] }).expect(200);
    expect(deactivated.body.feeConfigs).toEqual([]);
    // The largest fee the contract allows is accepted.
    expect((await platform.api.patch('/config').send({ feeConfigs: [usdFee(10_000, 0)] }).expect(200)).body.feeConfigs).toEqual([usdFee(10_000, 0)]);
  });

  it('PATCH /config answers 501 NOT_IMPLEMENTED for fee configs of a source currency other than USD, and changes nothing', async () => {
    const platform = await testApp.createPlatform();
    const response = await platform.api
      .patch('/config')
      .send({ umaDomain: 'refused.example.com', feeConfigs: [usdFee(10, 0), { ...usdFee(10, 0), sourceCurrency: 'EUR', fixedFee: { amount: 5, currency: 'EUR' } }] })
      .expect(501);
    expect(response.body).toEqual({
      status: 501,
      code: 'NOT_IMPLEMENTED',
      message: 'Platform fee configs are only supported for source currency USD',
      details: { sourceCurrency: 'EUR' },
    });
    const current = (await platform.api.get('/config').expect(200)).body;
    expect(current.feeConfigs).toEqual([]);
    expect(current).not.toHaveProperty('umaDomain');
  });

  it('PATCH /config refuses a fixed fee in another currency and a key listed twice', async () => {
    const response = await testApp.platform.api
      .patch('/config')
      .send({ feeConfigs: [usdFee(10, 1), { ...usdFee(20, 0), fixedFee: { amount: 1, currency: 'EUR' } }] })
      .expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(response.body.details.errors).toEqual([
      { field: 'feeConfigs.1.sourceCurrency', constraint: {}, message: 'CROSS_CURRENCY_TRANSACTION for USD is listed twice' },
      { field: 'feeConfigs.1.fixedFee.currency', constraint: { enum: ['USD'] }, message: 'fixedFee.currency must be the sourceCurrency' },
    ]);
  });

  it('PATCH /config with supportedCurrencies replaces the list, echoes field definitions and transaction types, and fills defaults', async () => {
    const patched = await testApp.platform.api
      .patch('/config')
      .send({
        supportedCurrencies: [
          { currencyCode: 'EUR' },
          {
            currencyCode: 'USD',
            minAmount: 0,
            maxAmount: 1_000_000,
            requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }, { name: 'EMAIL', mandatory: false }, { name: 'BIRTH_DATE', mandatory: true }],
            enabledTransactionTypes: ['OUTGOING'],
            // Read-only lists of a GET answer sent back are accepted and ignored.
            providerRequiredCustomerFields: ['NATIONALITY'],
            providerRequiredCounterpartyCustomerFields: ['FULL_NAME'],
          },
        ],
      })
      .expect(200);
    expect(patched.body.supportedCurrencies).toEqual([
      { currencyCode: 'EUR', minAmount: 1, maxAmount: 9_000_000_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: BOTH_TYPES },
      {
        currencyCode: 'USD',
        minAmount: 0,
        maxAmount: 1_000_000,
        requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }, { name: 'BIRTH_DATE', mandatory: true }, { name: 'EMAIL', mandatory: false }],
        enabledTransactionTypes: ['OUTGOING'],
      },
    ]);
  });

  it('answers the stored configuration of events written before the contract shapes in those shapes', async () => {
    // createPlatform records the configuration as given: the shape the earliest events carry.
    const legacy = await testApp.createPlatform({
      supportedCurrencies: [{ currencyCode: 'USD', minAmount: 1, maxAmount: 500, requiredCounterpartyFields: ['FULL_NAME', 'DATE_OF_BIRTH', 'SHOE_SIZE'] }],
      feeConfigs: [
        { currencyCode: 'USD', fixedFee: 25, variableFeeRate: 0.0025 },
        { currencyCode: 'USDC', fixedFee: 0, variableFeeRate: 0 },
      ],
    });
    const response = await legacy.api.get('/config').expect(200);
    expect(response.body.supportedCurrencies).toEqual([
      {
        currencyCode: 'USD',
        minAmount: 1,
        maxAmount: 500,
        requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }, { name: 'BIRTH_DATE', mandatory: true }],
        enabledTransactionTypes: BOTH_TYPES,
      },
    ]);
    expect(response.body.feeConfigs).toEqual([usdFee(25, 25)]);
    // A later upsert keeps folding on top of the old entries.
    const patched = await legacy.api.patch('/config').send({ feeConfigs: [usdFee(40, 25)] }).expect(200);
    expect(patched.body.feeConfigs).toEqual([usdFee(40, 25)]);
  });

  it('PATCH /config lists every bad and unknown field in one 400', async () => {
    const response = await testApp.platform.api
      .patch('/config')
      .send({
        webhookEndpoint: 'ftp://example.com/hook',
        umaDomain: 'not a domain',
        feeConfigs: [{ feeType: 'FLAT', sourceCurrency: 'XXX', variableFeeBps: 10_001, fixedFee: { amount: -1, currency: 'USD' } }],
        supportedCurrencies: [{ currencyCode: 'USD', requiredCounterpartyFields: [{ name: 'SHOE_SIZE', mandatory: 'yes' }], enabledTransactionTypes: ['SIDEWAYS'] }],
        embeddedWalletConfig: { otpLength: 3, sendFromEmailAddress: 'nobody', colour: 'red' },
        cardTokenization2faConfig: { logoUrl: 'http://example.com/logo.png', sms: { templateSid: 'x'.repeat(65) } },
        surprise: true,
      })
      .expect(400);
    expect(response.body.status).toBe(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(typeof response.body.message).toBe('string');
    const fields = response.body.details.errors.map((error: { field: string }) => error.field).sort();
    expect(fields).toEqual(
      [
        'cardTokenization2faConfig.logoUrl',
        'cardTokenization2faConfig.sms.templateSid',
        'embeddedWalletConfig.colour',
        'embeddedWalletConfig.otpLength',
        'embeddedWalletConfig.sendFromEmailAddress',
        'feeConfigs.0.feeType',
        'feeConfigs.0.fixedFee.amount',
        'feeConfigs.0.sourceCurrency',
        'feeConfigs.0.variableFeeBps',
        'supportedCurrencies.0.enabledTransactionTypes',
        'supportedCurrencies.0.requiredCounterpartyFields.0.mandatory',
        'supportedCurrencies.0.requiredCounterpartyFields.0.name',
        'surprise',
        'umaDomain',
        'webhookEndpoint',
      ].sort(),
    );
    for (const error of response.body.details.errors) {
      expect(Object.keys(error).sort()).toEqual(['constraint', 'field', 'message']);
    }
    const byField = (field: string) => response.body.details.errors.find((error: { field: string }) => error.field === field);
    expect(byField('surprise').constraint).toEqual({});
    expect(byField('feeConfigs.0.feeType').constraint).toEqual({ enum: ['CROSS_CURRENCY_TRANSACTION'] });
    expect(byField('embeddedWalletConfig.sendFromEmailAddress').constraint).toEqual({ format: 'email' });
    expect(byField('cardTokenization2faConfig.sms.templateSid').constraint).toEqual({ maxLength: 64 });
  });

  it('PATCH /config refuses null for the fields that cannot be cleared', async () => {
    const response = await testApp.platform.api.patch('/config').send({ umaDomain: null, feeConfigs: null, embeddedWalletConfig: null }).expect(400);
    expect(response.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['embeddedWalletConfig', 'feeConfigs', 'umaDomain']);
  });

  it('PATCH /config refuses an empty supportedCurrencies and lists duplicates next to other bad entries', async () => {
    const empty = await testApp.platform.api.patch('/config').send({ supportedCurrencies: [] }).expect(400);
    expect(empty.body.details.errors).toEqual([
      { field: 'supportedCurrencies', constraint: {}, message: 'supportedCurrencies must list at least one currency' },
    ]);
    const mixed = await testApp.platform.api
      .patch('/config')
      .send({ supportedCurrencies: [{ currencyCode: 'XYZ' }, { currencyCode: 'USD' }, { currencyCode: 'USD' }] })
      .expect(400);
    expect(mixed.body.details.errors.map((error: { field: string }) => error.field)).toEqual([
      'supportedCurrencies.0.currencyCode',
      'supportedCurrencies.2.currencyCode',
    ]);
    expect(mixed.body.details.errors[0].constraint.enum).toContain('USD');
    expect(mixed.body.details.errors[1]).toEqual({ field: 'supportedCurrencies.2.currencyCode', constraint: {}, message: 'USD is listed twice' });
    const current = await testApp.platform.api.get('/config').expect(200);
    expect(current.body.supportedCurrencies.length).toBeGreaterThan(0);
  });

  it('PATCH /config refuses a body that is not a JSON object', async () => {
    const response = await testApp.platform.api.patch('/config').set('Content-Type', 'application/json').send('[1,2]').expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    const broken = await testApp.platform.api.patch('/config').set('Content-Type', 'application/json').send('{"webhookEndpoint":').expect(400);
    expect(broken.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', message: 'The request body is not valid JSON' });
    expect(broken.body.details.errors).toHaveLength(1);
    expect(broken.body.details.errors[0]).toMatchObject({ field: 'body', message: 'The request body is not valid JSON' });
  });

  it('refuses loopback and private webhook endpoints in production mode only', async () => {
    await testApp.platform.api.patch('/config').send({ webhookEndpoint: 'http://127.0.0.1:9/hook' }).expect(200);
    const production = await startTestApp({ env: { SERVICE_MODE: 'production' } });
    try {
      for (const endpoint of ['http://127.0.0.1:9/hook', 'http://10.1.2.3/hook', 'http://[::1]/hook', 'http://localhost/hook']) {
        const response = await production.platform.api.patch('/config').send({ webhookEndpoint: endpoint }).expect(400);
        expect(response.body.details.errors).toEqual([
          { field: 'webhookEndpoint', constraint: {}, message: 'webhookEndpoint must not point at a loopback or private address' },
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
    expect(response.body.code).toBe('REFERENCE_NOT_FOUND');
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
