import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { clabe, createIndividual, createUsdExternalAccount, germanIban } from '../../support/customer-fixtures';

/** `/customers/external-accounts`: create per account type, validation, name checks, delete, trust. */
describe('external accounts', () => {
  let testApp: TestApp;
  let customer: any;

  beforeAll(async () => {
    testApp = await startTestApp();
    customer = await createIndividual(testApp.platform.api);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const create = (body: Record<string, unknown>) => testApp.platform.api.post('/customers/external-accounts').send({ customerId: customer.id, ...body });

  it('creates a USD account (201) with the beneficiary name check, and GET reads it back', async () => {
    const response = await create({
      currency: 'USD',
      platformAccountId: 'bank-1',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        bankName: 'Chase',
        accountCategory: 'CHECKING',
        paymentRails: ['ACH', 'RTP'],
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe', nationality: 'US', address: { line1: '1 Main', city: 'X', postalCode: '1', country: 'US' } },
      },
    }).expect(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^ExternalAccount:[0-9a-f-]{36}$/),
      customerId: customer.id,
      status: 'ACTIVE',
      platformAccountId: 'bank-1',
      currency: 'USD',
      trusted: false,
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        bankName: 'Chase',
        accountCategory: 'CHECKING',
        paymentRails: ['ACH', 'RTP'],
        beneficiary: {
          beneficiaryType: 'INDIVIDUAL',
          fullName: 'Jane Doe',
          birthDate: null,
          nationality: 'US',
          email: null,
          address: { line1: '1 Main', line2: null, city: 'X', state: null, postalCode: '1', country: 'US' },
        },
      },
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'Jane Doe' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const read = await testApp.platform.api.get(`/customers/external-accounts/${response.body.id}`).expect(200);
    expect(read.body).toEqual(response.body);
  });

  it.each([
    ['EUR', { accountType: 'EUR_ACCOUNT', iban: germanIban('789'), swiftCode: 'COBADEFFXXX' }, ['SEPA', 'SEPA_INSTANT']],
    ['GBP', { accountType: 'GBP_ACCOUNT', accountNumber: '12345678', sortCode: '123456' }, ['FASTER_PAYMENTS']],
    ['MXN', { accountType: 'MXN_ACCOUNT', clabe: clabe() }, ['SPEI']],
    ['BRL', { accountType: 'BRL_ACCOUNT', pixKey: 'jane@example.com' }, ['PIX']],
    ['BTC', { accountType: 'SPARK_WALLET', address: 'sp1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' }, ['SPARK']],
    ['BTC', { accountType: 'LIGHTNING', lightningAddress: 'jane.789@wallet.example.com' }, ['LIGHTNING']],
    ['BTC', { accountType: 'LIGHTNING', invoice: 'lnbc15u1p3xnhl2pp5jptserfk3zk4qy42tlucycrfwxhydvlemu9pqr93tuzlv9cc7g3s' }, ['LIGHTNING']],
    ['USDC', { accountType: 'SOLANA_WALLET', address: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' }, ['SOLANA']],
    ['USDC', { accountType: 'BASE_WALLET', address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' }, ['BASE']],
    ['USDT', { accountType: 'TRON_WALLET', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, ['TRON']],
    ['BTC', { accountType: 'BITCOIN_L1', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }, ['BITCOIN']],
  ])('creates a %s account of type %o', async (currency, accountInfo, rails) => {
    const response = await create({ currency, accountInfo }).expect(201);
    expect(response.body.accountInfo).toEqual({ ...accountInfo, paymentRails: rails });
    expect(response.body.beneficiaryVerificationStatus).toBeUndefined();
  });

  it('lists every shape error in one 400 INVALID_INPUT', async () => {
    const response = await testApp.platform.api
      .post('/customers/external-accounts')
      .send({
        customerId: 'Customer:nope',
        currency: 'XYZ',
        platformAccountId: '',
        extra: 1,
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: '12',
          paymentRails: ['SEPA'],
          iban: 'x',
          beneficiary: { beneficiaryType: 'ROBOT' },
        },
      })
      .expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(response.body.details.errors.map((error: { field: string; constraint: string }) => `${error.field}:${error.constraint}`).sort()).toEqual(
      [
        'accountInfo.accountNumber:PATTERN', 'accountInfo.beneficiary.beneficiaryType:ENUM', 'accountInfo.beneficiary.fullName:REQUIRED',
        'accountInfo.iban:UNKNOWN_FIELD', 'accountInfo.paymentRails:ENUM', 'accountInfo.routingNumber:REQUIRED', 'currency:ENUM',
        'customerId:FORMAT', 'extra:UNKNOWN_FIELD', 'platformAccountId:MIN_LENGTH',
      ].sort(),
    );
    const noType = await create({ currency: 'USD', accountInfo: {} }).expect(400);
    expect(noType.body.details.errors).toEqual([{ field: 'accountInfo.accountType', constraint: 'REQUIRED', message: 'accountInfo.accountType is required' }]);
    const badType = await create({ currency: 'USD', accountInfo: { accountType: 'CHEQUE' } }).expect(400);
    expect(badType.body.details.errors[0]).toEqual(expect.objectContaining({ field: 'accountInfo.accountType', constraint: 'ENUM' }));
  });

  it('400 INVALID_INPUT when the currency does not fit the account type', async () => {
    const response = await create({ currency: 'EUR', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021' } }).expect(400);
    expect(response.body.details.errors).toEqual([{ field: 'currency', constraint: 'ENUM', message: 'USD_ACCOUNT accounts hold USD' }]);
  });

  it('400 INVALID_BANK_ACCOUNT for identifiers failing their checksum', async () => {
    const routing = await create({ currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000022' } }).expect(400);
    expect(routing.body).toEqual({
      status: 400,
      code: 'INVALID_BANK_ACCOUNT',
      message: 'The account identifiers are not valid',
      details: { errors: [{ field: 'accountInfo.routingNumber', constraint: 'FORMAT', message: 'routingNumber fails the ABA checksum' }] },
    });
    const iban = await create({ currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE00370400440532013000' } }).expect(400);
    expect(iban.body.code).toBe('INVALID_BANK_ACCOUNT');
    const badClabe = await create({ currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabe: '032180000118359710' } }).expect(400);
    expect(badClabe.body.code).toBe('INVALID_BANK_ACCOUNT');
  });

  it.each([
    ['102', 'NOT_MATCHED', undefined],
    ['103', 'PARTIAL_MATCH', { fullName: 'J. Doe' }],
    ['104', 'PENDING', undefined],
    ['106', 'UNSUPPORTED', undefined],
    ['107', 'CHECKED_BY_RECEIVING_FI', undefined],
    ['101', 'MATCHED', { fullName: 'Jane Doe' }],
  ])('sandbox name check: suffix %s gives %s', async (suffix, status, verifiedData) => {
    const account = await createUsdExternalAccount(testApp.platform.api, customer.id, suffix);
    expect(account.beneficiaryVerificationStatus).toBe(status);
    expect(account.beneficiaryVerifiedData).toEqual(verifiedData);
  });

  it('sandbox name check: suffix 104 answers PENDING, then resolves to MATCHED (SANDBOX_BENEFICIARY_CHECK_DELAY_MS)', async () => {
    const account = await createUsdExternalAccount(testApp.platform.api, customer.id, '104');
    expect(account.beneficiaryVerificationStatus).toBe('PENDING');
    expect(account.beneficiaryVerifiedData).toBeUndefined();
    const resolved = await eventually(async () => {
      const read = await testApp.platform.api.get(`/customers/external-accounts/${account.id}`).expect(200);
      return read.body.beneficiaryVerificationStatus !== 'PENDING' && read.body;
    });
    expect(resolved).toEqual({
      ...account,
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'Jane Doe' },
      updatedAt: expect.any(String),
    });
    expect(Date.parse(resolved.updatedAt)).toBeGreaterThan(Date.parse(account.createdAt));
    const history = await testApp.platform.api.get('/audit/events').query({ resourceId: account.id }).expect(200);
    expect(history.body.data.map((entry: { type: string }) => entry.type)).toEqual(['ExternalAccountCreated', 'BeneficiaryVerificationResolved']);

    // An account deleted while its check is pending stays deleted: the late answer is a no-op.
    const deleted = await createUsdExternalAccount(testApp.platform.api, customer.id, '104');
    await testApp.platform.api.delete(`/customers/external-accounts/${deleted.id}`).expect(204);
    const other = await createUsdExternalAccount(testApp.platform.api, customer.id, '104');
    await eventually(async () => {
      const read = await testApp.platform.api.get(`/customers/external-accounts/${other.id}`).expect(200);
      return read.body.beneficiaryVerificationStatus === 'MATCHED';
    });
    await testApp.platform.api.get(`/customers/external-accounts/${deleted.id}`).expect(404);
    const deletedHistory = await testApp.platform.api.get('/audit/events').query({ resourceId: deleted.id }).expect(200);
    expect(deletedHistory.body.data.map((entry: { type: string }) => entry.type)).toEqual(['ExternalAccountCreated', 'ExternalAccountDeleted']);
  });

  it('sandbox name check: suffix 105 refuses the account with 400 INVALID_BANK_ACCOUNT; domain identifiers use the user part', async () => {
    const refused = await create({
      currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456105', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane' } },
    }).expect(400);
    expect(refused.body).toEqual({
      status: 400,
      code: 'INVALID_BANK_ACCOUNT',
      message: 'The account cannot receive payments',
      details: { errors: [{ field: 'accountInfo.accountNumber', constraint: 'FORMAT', message: 'The receiving institution reports this account as invalid' }] },
    });
    const lightning = await create({ currency: 'BTC', accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'alice.105@example.com' } }).expect(400);
    expect(lightning.body.details.errors[0].field).toBe('accountInfo.lightningAddress');
  });

  it('404 USER_NOT_FOUND for an unknown or other platform\'s customer, 410 for a deleted one', async () => {
    const info = { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021' };
    const unknown = await testApp.platform.api
      .post('/customers/external-accounts')
      .send({ customerId: 'Customer:01900000-0000-7000-8000-000000000000', currency: 'USD', accountInfo: info })
      .expect(404);
    expect(unknown.body.code).toBe('USER_NOT_FOUND');
    const other = await testApp.createPlatform();
    await other.api.post('/customers/external-accounts').send({ customerId: customer.id, currency: 'USD', accountInfo: info }).expect(404);
    const gone = await createIndividual(testApp.platform.api);
    await testApp.platform.api.delete(`/customers/${gone.id}`).expect(200);
    const deleted = await testApp.platform.api.post('/customers/external-accounts').send({ customerId: gone.id, currency: 'USD', accountInfo: info }).expect(410);
    expect(deleted.body.code).toBe('CUSTOMER_DELETED');
  });

  it('GET list filters by customer and currency, paginates; other platforms see nothing', async () => {
    const owner = await createIndividual(testApp.platform.api);
    const first = await createUsdExternalAccount(testApp.platform.api, owner.id, '111');
    const second = await createUsdExternalAccount(testApp.platform.api, owner.id, '222');
    const page1 = await testApp.platform.api.get('/customers/external-accounts').query({ customerId: owner.id, limit: 1 }).expect(200);
    expect(page1.body).toEqual({ data: [first], hasMore: true, nextCursor: expect.any(String), totalCount: 2 });
    const page2 = await testApp.platform.api.get('/customers/external-accounts').query({ customerId: owner.id, limit: 1, cursor: page1.body.nextCursor }).expect(200);
    expect(page2.body).toEqual({ data: [second], hasMore: false, totalCount: 2 });
    const eur = await testApp.platform.api.get('/customers/external-accounts').query({ customerId: owner.id, currency: 'EUR' }).expect(200);
    expect(eur.body.totalCount).toBe(0);
    const other = await testApp.createPlatform();
    expect((await other.api.get('/customers/external-accounts').query({ customerId: owner.id }).expect(200)).body.totalCount).toBe(0);
    expect((await other.api.get(`/customers/external-accounts/${first.id}`).expect(404)).body.code).toBe('NOT_FOUND');
    await testApp.platform.api.get('/customers/external-accounts/nope').expect(400);
  });

  it('DELETE answers 204, then the account is gone (404)', async () => {
    const account = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const other = await testApp.createPlatform();
    await other.api.delete(`/customers/external-accounts/${account.id}`).expect(404);
    const response = await testApp.platform.api.delete(`/customers/external-accounts/${account.id}`).expect(204);
    expect(response.text).toBe('');
    await testApp.platform.api.get(`/customers/external-accounts/${account.id}`).expect(404);
    await testApp.platform.api.delete(`/customers/external-accounts/${account.id}`).expect(404);
  });

  it('trust is for SCA regions only: 409 for a US customer', async () => {
    const account = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const response = await testApp.platform.api.post(`/customers/external-accounts/${account.id}/trust`).expect(409);
    expect(response.body).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'Strong Customer Authentication does not apply to this customer',
      details: { reason: 'SCA_NOT_REQUIRED' },
    });
    await testApp.platform.api.post(`/customers/external-accounts/${account.id}/untrust`).expect(409);
  });

  it('EU customer: trust, then DELETE is 409 BENEFICIARY_TRUSTED until untrusted', async () => {
    const european = await createIndividual(testApp.platform.api, { region: 'DE' });
    const account = (await create({ customerId: european.id, currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: germanIban('789') } }).expect(201)).body;
    const base = `/customers/external-accounts/${account.id}`;
    await testApp.platform.api.post(`${base}/trust/confirm`).send({ code: '123456' }).expect(409);
    const started = await testApp.platform.api.post(`${base}/trust`).expect(200);
    expect(started.body).toEqual({
      externalAccountId: account.id,
      action: 'TRUST',
      scaChallenge: { id: expect.stringMatching(/^ScaChallenge:/), expiresAt: expect.any(String), factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: null },
    });
    const wrong = await testApp.platform.api.post(`${base}/trust/confirm`).send({ code: '000000' }).expect(400);
    expect(wrong.body.details.errors[0].field).toBe('code');
    const missing = await testApp.platform.api.post(`${base}/trust/confirm`).send({}).expect(400);
    expect(missing.body.details.errors[0]).toEqual(expect.objectContaining({ field: 'code', constraint: 'REQUIRED' }));
    const trusted = await testApp.platform.api.post(`${base}/trust/confirm`).send({ code: '123456' }).expect(200);
    expect(trusted.body.trusted).toBe(true);
    await testApp.platform.api.post(`${base}/trust`).expect(409);

    const blocked = await testApp.platform.api.delete(base).expect(409);
    expect(blocked.body).toEqual({
      status: 409,
      code: 'BENEFICIARY_TRUSTED',
      message: 'The external account is a trusted beneficiary; untrust it before deleting it',
    });
    await testApp.platform.api.post(`${base}/untrust`).expect(200);
    const untrusted = await testApp.platform.api.post(`${base}/untrust/confirm`).send({ code: '123456' }).expect(200);
    expect(untrusted.body.trusted).toBe(false);
    await testApp.platform.api.delete(base).expect(204);
    const history = await testApp.platform.api.get('/audit/events').query({ resourceId: account.id }).expect(200);
    expect(history.body.data.map((entry: { type: string }) => entry.type)).toEqual([
      'ExternalAccountCreated', 'BeneficiaryTrustChallengeIssued', 'BeneficiaryTrusted', 'BeneficiaryTrustChallengeIssued',
      'BeneficiaryUntrusted', 'ExternalAccountDeleted',
    ]);
  });

  it('honours Idempotency-Key on creation', async () => {
    const key = '6f9619ff-8b86-4d01-b42d-00cf4fc964ff';
    const body = { customerId: customer.id, currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '99999999', routingNumber: '021000021' } };
    const first = await testApp.platform.api.post('/customers/external-accounts').set('Idempotency-Key', key).send(body).expect(201);
    const replay = await testApp.platform.api.post('/customers/external-accounts').set('Idempotency-Key', key).send(body).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
  });
});
