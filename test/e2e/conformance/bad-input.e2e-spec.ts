import { TestApp, startTestApp } from '../../support/test-app';
import { accountsByCurrency, createIndividual, createUsdExternalAccount } from '../../support/customer-fixtures';

/** What a contract FieldConstraint may hold: `{}` or some of these members, each of its type. */
const CONSTRAINT_MEMBERS: Record<string, (value: unknown) => boolean> = {
  format: (value) => typeof value === 'string' && value.length > 0,
  pattern: (value) => typeof value === 'string' && value.length > 0,
  enum: (value) => Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string'),
  minLength: (value) => Number.isInteger(value) && (value as number) >= 0,
  maxLength: (value) => Number.isInteger(value) && (value as number) > 0,
};

function constraintProblems(constraint: unknown): string[] {
  if (!constraint || typeof constraint !== 'object' || Array.isArray(constraint)) return [`not an object: ${JSON.stringify(constraint)}`];
  return Object.entries(constraint).filter(([key, value]) => !CONSTRAINT_MEMBERS[key]?.(value)).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
}
const UNKNOWN = '01900000-0000-7000-8000-000000000000';

/** Hostile bodies every JSON endpoint of these areas must answer with a listed 400, never a 500. */
const HOSTILE_BODIES: Array<[string, string, string]> = [
  ['an array', '[]', 'application/json'],
  ['null', 'null', 'application/json'],
  ['a string', '"text"', 'application/json'],
  ['a number', '42', 'application/json'],
  ['malformed JSON', '{"amount": ', 'application/json'],
  ['nested wrong types', JSON.stringify({ source: [], destination: 'x', amount: {}, customerId: 7, accountInfo: [], currency: null, fullName: { a: 1 }, customerType: ['INDIVIDUAL'], webhookEndpoint: 5, supportedCurrencies: 'USD' }), 'application/json'],
  ['prototype keys', '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}', 'application/json'],
];

/**
 * Bad input to the customers, documents, verifications, accounts, transfers, transactions,
 * config, sandbox and webhook endpoints: every answer is the error envelope with the status its
 * code has (400 INVALID_INPUT listing fields with contract FieldConstraint hints), never a 500.
 */
describe('conformance: bad input answers a listed 4xx, never a 500', () => {
  let testApp: TestApp;
  let customer: any;
  let usd: any;
  let external: any;

  beforeAll(async () => {
    testApp = await startTestApp();
    customer = await createIndividual(testApp.platform.api);
    usd = (await accountsByCurrency(testApp.platform.api, customer.id)).USD;
    external = await createUsdExternalAccount(testApp.platform.api, customer.id);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const expectListed400 = (response: { status: number; body: any }, label: string) => {
    expect({ label, status: response.status }).toEqual({ label, status: 400 });
    expect(response.body).toEqual({ status: 400, code: 'INVALID_INPUT', message: expect.any(String), details: { errors: expect.any(Array) } });
    expect(response.body.details.errors.length).toBeGreaterThan(0);
    for (const error of response.body.details.errors) {
      expect(Object.keys(error).sort()).toEqual(['constraint', 'field', 'message']);
      expect({ label, field: error.field, problems: constraintProblems(error.constraint) }).toEqual({ label, field: error.field, problems: [] });
    }
  };

  const jsonPosts = () => [
    ['POST', '/customers'],
    ['PATCH', `/customers/${customer.id}`],
    ['POST', '/customers/external-accounts'],
    ['POST', '/verifications'],
    ['POST', '/transfer-in'],
    ['POST', '/transfer-out'],
    ['POST', `/sandbox/internal-accounts/${usd.id}/fund`],
    ['PATCH', '/config'],
    ['POST', `/customers/external-accounts/${external.id}/trust/confirm`],
  ];

  it.each(HOSTILE_BODIES)('%s as the body', async (_label, body, contentType) => {
    for (const [method, path] of jsonPosts()) {
      const call = method === 'POST' ? testApp.platform.api.post(path) : testApp.platform.api.patch(path);
      const response = await call.set('Content-Type', contentType).send(body);
      expectListed400(response, `${method} ${path}`);
    }
  });

  it('a body in another media type or charset is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const [method, path] of jsonPosts()) {
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']) {
        const call = method === 'POST' ? testApp.platform.api.post(path) : testApp.platform.api.patch(path);
        const response = await call.set('Content-Type', contentType).send('amount=1');
        expect({ path, contentType, status: response.status, body: response.body }).toEqual({
          path, contentType, status: 415, body: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String) },
        });
      }
    }
  });

  it('malformed ids in paths are 400 INVALID_INPUT naming the parameter where the operation declares a 400 (else 404); unknown ones 404', async () => {
    // [method, path, status, the 404's code or the 400's one listed field]
    const cases: Array<[string, string, number, string]> = [
      // Operations whose reference declares no 400 (GET/DELETE /customers/{id}, GET /documents/{id},
      // GET /verifications/{id}, GET/DELETE /customers/external-accounts/{id}, GET /transactions/{id}):
      // an id that cannot exist is not found. The others list the malformed parameter.
      ['get', '/customers/nope', 404, 'USER_NOT_FOUND'],
      ['get', '/customers/InternalAccount:' + UNKNOWN, 404, 'USER_NOT_FOUND'],
      ['patch', '/customers/nope', 400, 'customerId'],
      ['delete', '/customers/nope', 404, 'USER_NOT_FOUND'],
      ['get', '/documents/nope', 404, 'REFERENCE_NOT_FOUND'],
      ['get', '/verifications/nope', 404, 'REFERENCE_NOT_FOUND'],
      ['get', '/internal-accounts/nope', 400, 'accountId'],
      ['get', '/customers/external-accounts/nope', 404, 'REFERENCE_NOT_FOUND'],
      ['delete', '/customers/external-accounts/nope', 404, 'REFERENCE_NOT_FOUND'],
      ['post', '/customers/external-accounts/nope/trust', 400, 'externalAccountId'],
      ['post', '/customers/external-accounts/nope/untrust', 400, 'externalAccountId'],
      ['get', '/transactions/nope', 404, 'TRANSACTION_NOT_FOUND'],
      ['post', '/transactions/nope/approve', 400, 'transactionId'],
      ['post', '/sandbox/internal-accounts/nope/fund', 400, 'accountId'],
      ['get', `/customers/Customer:${UNKNOWN}`, 404, 'USER_NOT_FOUND'],
      ['patch', `/customers/Customer:${UNKNOWN}`, 404, 'USER_NOT_FOUND'],
      ['delete', `/customers/Customer:${UNKNOWN}`, 404, 'USER_NOT_FOUND'],
      ['get', `/documents/Document:${UNKNOWN}`, 404, 'REFERENCE_NOT_FOUND'],
      ['get', `/verifications/Verification:${UNKNOWN}`, 404, 'REFERENCE_NOT_FOUND'],
      ['get', `/internal-accounts/InternalAccount:${UNKNOWN}`, 404, 'REFERENCE_NOT_FOUND'],
      ['get', `/customers/external-accounts/ExternalAccount:${UNKNOWN}`, 404, 'REFERENCE_NOT_FOUND'],
      ['delete', `/customers/external-accounts/ExternalAccount:${UNKNOWN}`, 404, 'REFERENCE_NOT_FOUND'],
      ['post', `/customers/external-accounts/ExternalAccount:${UNKNOWN}/trust`, 404, 'REFERENCE_NOT_FOUND'],
      ['post', `/customers/external-accounts/ExternalAccount:${UNKNOWN}/untrust`, 404, 'REFERENCE_NOT_FOUND'],
      ['get', `/transactions/Transaction:${UNKNOWN}`, 404, 'TRANSACTION_NOT_FOUND'],
      ['post', `/transactions/Transaction:${UNKNOWN}/approve`, 404, 'TRANSACTION_NOT_FOUND'],
      ['post', `/sandbox/internal-accounts/InternalAccount:${UNKNOWN}/fund`, 404, 'REFERENCE_NOT_FOUND'],
    ];
    for (const [method, path, status, codeOrField] of cases) {
      const call = testApp.platform.api[method as 'get'](path);
      const response = method === 'patch' ? await call.send({ email: 'a@example.com' }) : method === 'post' && path.endsWith('/fund') ? await call.send({ amount: 1 }) : await call;
      expect({ path: `${method} ${path}`, status: response.status }).toEqual({ path: `${method} ${path}`, status });
      if (status === 400) {
        expectListed400(response, path);
        expect({ path, fields: response.body.details.errors.map((error: { field: string }) => error.field) }).toEqual({ path, fields: [codeOrField] });
      } else {
        expect(response.body).toEqual({ status, code: codeOrField, message: expect.any(String) });
      }
    }
  });

  it('every list endpoint lists bad limit, cursor and unknown parameters in one 400', async () => {
    for (const path of ['/customers', '/internal-accounts', '/customers/internal-accounts', '/customers/external-accounts', '/transactions', '/verifications', '/webhooks/deliveries']) {
      const response = await testApp.platform.api.get(path).query({ limit: 0, cursor: '%%%not-a-cursor', surprise: 'x' });
      expectListed400(response, path);
      expect(response.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['cursor', 'limit', 'surprise']);
      for (const limit of ['101', 'abc', '1.5', '-1']) {
        expectListed400(await testApp.platform.api.get(path).query({ limit }), `${path}?limit=${limit}`);
      }
      expectListed400(await testApp.platform.api.get(`${path}?limit=1&limit=2`), `${path} repeated limit`);
      const ok = await testApp.platform.api.get(path).query({ limit: 100 }).expect(200);
      expect(ok.body).toEqual(expect.objectContaining({ data: expect.any(Array), hasMore: expect.any(Boolean) }));
    }
  });

  it('ids of another type in bodies and filters are 400, not 404 or 500', async () => {
    const wrongType = `Quote:${UNKNOWN}`;
    expectListed400(await testApp.platform.api.post('/verifications').send({ customerId: wrongType }), 'verifications');
    expectListed400(
      await testApp.platform.api.post('/transfer-out').send({ source: { accountId: external.id }, destination: { accountId: wrongType }, amount: 1 }),
      'transfer-out',
    );
    expectListed400(
      await testApp.platform.api.post('/customers/external-accounts').send({
        customerId: wrongType,
        currency: 'USD',
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021' },
      }),
      'external-accounts',
    );
    for (const [path, query] of [
      ['/internal-accounts', { customerId: wrongType }],
      ['/customers/external-accounts', { customerId: wrongType }],
      ['/transactions', { customerId: wrongType }],
      ['/verifications', { customerId: wrongType }],
    ] as const) {
      expectListed400(await testApp.platform.api.get(path).query(query), `${path} ${JSON.stringify(query)}`);
    }
  });

  it('strings where numbers go, huge numbers and unsafe integers are listed 400s', async () => {
    for (const amount of ['1', 1e16, Number.MAX_SAFE_INTEGER + 2, 1e300, true, [1], -0.5]) {
      expectListed400(await testApp.platform.api.post(`/sandbox/internal-accounts/${usd.id}/fund`).send({ amount }), `fund ${String(amount)}`);
      expectListed400(
        await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: external.id }, amount }),
        `transfer-out ${String(amount)}`,
      );
    }
  });

  it('very long strings are listed 400s, not stored', async () => {
    const long = 'x'.repeat(100_000);
    expectListed400(await testApp.platform.api.post('/customers').send({ customerType: 'INDIVIDUAL', platformCustomerId: long, fullName: long }), 'customers');
    expectListed400(await testApp.platform.api.patch(`/customers/${customer.id}`).send({ fullName: long }), 'patch customer');
    expectListed400(
      await testApp.platform.api.post('/customers/external-accounts').send({
        customerId: customer.id,
        currency: 'USD',
        platformAccountId: long,
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: long, routingNumber: long, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: long } },
      }),
      'external-accounts',
    );
  });

  it('unknown nested fields are listed with their full path (no mass assignment at any depth)', async () => {
    const address = { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' };
    const cases: Array<[string, string, Record<string, unknown>, string]> = [
      ['post', '/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'nested-1', fullName: 'Jane Doe', address: { ...address, planet: 'Mars' } }, 'address.planet'],
      ['post', '/customers', {
        customerType: 'BUSINESS', platformCustomerId: 'nested-2', businessInfo: { legalName: 'Acme', registrationNumber: 'R-1', shares: 9 },
      }, 'businessInfo.shares'],
      ['post', '/customers', {
        customerType: 'BUSINESS', platformCustomerId: 'nested-3', businessInfo: { legalName: 'Acme', registrationNumber: 'R-1' },
        beneficialOwners: [{ personalInfo: { lastName: 'Smith', salary: 1 } }],
      }, 'beneficialOwners.0.personalInfo.salary'],
      ['post', '/customers/external-accounts', {
        customerId: customer.id, currency: 'USD',
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', pin: '1234' },
      }, 'accountInfo.pin'],
      ['post', '/customers/external-accounts', {
        customerId: customer.id, currency: 'USD',
        accountInfo: {
          accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe', address: { ...address, planet: 'Mars' } },
        },
      }, 'accountInfo.beneficiary.address.planet'],
      ['post', '/transfer-out', { source: { accountId: usd.id, customerId: customer.id }, destination: { accountId: external.id }, amount: 1 }, 'source.customerId'],
      ['post', '/transfer-in', { source: { accountId: external.id }, destination: { accountId: usd.id, memo: 'x' }, amount: 1 }, 'destination.memo'],
      ['patch', '/config', { supportedCurrencies: [{ currencyCode: 'USD', colour: 'green' }] }, 'supportedCurrencies.0.colour'],
      ['patch', '/config', { feeConfigs: [{ ...{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 0, fixedFee: { amount: 1, currency: 'USD' } }, cap: 5 }] }, 'feeConfigs.0.cap'],
      ['patch', '/config', { embeddedWalletConfig: { rpId: 'example.com', allowedOrigins: ['https://example.com'], extra: true } }, 'embeddedWalletConfig.extra'],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await testApp.platform.api[method as 'post'](path).send(body);
      expectListed400(response, `${path} ${field}`);
      expect({ field, errors: response.body.details.errors }).toEqual({
        field,
        errors: expect.arrayContaining([expect.objectContaining({ field, constraint: {} })]),
      });
    }
  });
});
