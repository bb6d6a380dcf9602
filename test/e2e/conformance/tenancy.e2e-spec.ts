import { TestApp, startTestApp } from '../../support/test-app';
import { accountsByCurrency, createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';

const UNKNOWN = '01900000-0000-7000-8000-000000000000';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/**
 * Another platform's ids answer exactly like unknown ids (same status, code and message) on every
 * route of these areas, reads and writes alike, and change nothing. That answer is 404, except for
 * an id named in the body of an operation whose reference declares no 404 (POST
 * /customers/external-accounts): a 400 field error.
 */
describe('conformance: another platform\'s ids are unknown ids', () => {
  let testApp: TestApp;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    testApp = await startTestApp();
    const api = testApp.platform.api;
    // A pending customer (documents, verifications) and an approved one that moves money.
    const customer = await createIndividual(api, { fullName: 'Owner Tenant001' });
    const payer = await createIndividual(api, { fullName: 'Owner Payer' });
    ids.customer = customer.id;
    ids.payer = payer.id;
    ids.account = (await accountsByCurrency(api, payer.id)).USD.id;
    await fund(api, ids.account, 1_000);
    ids.external = (await createUsdExternalAccount(api, payer.id)).id;
    ids.document = (
      await api.post('/documents').field('documentHolder', customer.id).field('documentType', 'PASSPORT').field('country', 'US')
        .attach('file', PDF, { filename: 'p.pdf', contentType: 'application/pdf' }).expect(201)
    ).body.id;
    ids.verification = (await api.post('/verifications').send({ customerId: customer.id }).expect(200)).body.id;
    ids.transaction = (
      await api.post('/transfer-out').send({ source: { accountId: ids.account }, destination: { accountId: ids.external }, amount: 10 }).expect(201)
    ).body.id;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  // [method, path, body, the body field a 400 lists where the answer is not 404]
  const routes = (id: Record<string, string>): Array<[string, string, Record<string, unknown>?, string?]> => [
    ['get', `/customers/${id.customer}`],
    ['patch', `/customers/${id.customer}`, { email: 'thief@example.com' }],
    ['delete', `/customers/${id.customer}`],
    ['get', `/documents/${id.document}`],
    ['get', `/verifications/${id.verification}`],
    ['post', '/verifications', { customerId: id.customer }],
    ['get', `/internal-accounts/${id.account}`],
    ['post', `/sandbox/internal-accounts/${id.account}/fund`, { amount: 5 }],
    ['get', `/customers/external-accounts/${id.external}`],
    ['delete', `/customers/external-accounts/${id.external}`],
    ['post', `/customers/external-accounts/${id.external}/trust`],
    ['post', `/customers/external-accounts/${id.external}/untrust`],
    ['post', '/customers/external-accounts', {
      customerId: id.customer, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe' } },
    }, 'customerId'],
    ['post', '/transfer-out', { source: { accountId: id.account }, destination: { accountId: id.external }, amount: 1 }],
    ['post', '/transfer-in', { source: { accountId: id.external }, destination: { accountId: id.account }, amount: 1 }],
    ['get', `/transactions/${id.transaction}`],
    ['post', `/transactions/${id.transaction}/approve`],
    ['get', `/audit/events?resourceId=${encodeURIComponent(id.customer)}`],
    ['get', `/audit/events?resourceId=${encodeURIComponent(id.document)}`],
    ['get', `/audit/events?resourceId=${encodeURIComponent(id.verification)}`],
    ['get', `/audit/events?resourceId=${encodeURIComponent(id.account)}`],
    ['get', `/audit/events?resourceId=${encodeURIComponent(id.external)}`],
    ['get', `/audit/events?resourceId=${encodeURIComponent(id.transaction)}`],
  ];

  const unknownIds = {
    customer: `Customer:${UNKNOWN}`,
    account: `InternalAccount:${UNKNOWN}`,
    external: `ExternalAccount:${UNKNOWN}`,
    document: `Document:${UNKNOWN}`,
    verification: `Verification:${UNKNOWN}`,
    transaction: `Transaction:${UNKNOWN}`,
    payer: `Customer:${UNKNOWN}`,
  };

  it('answers every route with the unknown id\'s 404 (or 400 field error), body for body (ids aside)', async () => {
    const stranger = await testApp.createPlatform();
    const mine = routes(ids);
    const unknown = routes(unknownIds);
    for (let index = 0; index < mine.length; index++) {
      const [method, path, body, field] = mine[index];
      const foreign = await (body ? stranger.api[method as 'post'](path).send(body) : stranger.api[method as 'get'](path));
      const [, unknownPath, unknownBody] = unknown[index];
      const missing = await (unknownBody ? stranger.api[method as 'post'](unknownPath).send(unknownBody) : stranger.api[method as 'get'](unknownPath));
      const label = `${method.toUpperCase()} ${path}`;
      expect({ label, status: foreign.status }).toEqual({ label, status: field ? 400 : 404 });
      if (field) {
        expect({ label, code: foreign.body.code, fields: foreign.body.details.errors.map((error: { field: string }) => error.field) }).toEqual({ label, code: 'INVALID_INPUT', fields: [field] });
      }
      const withoutIds = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/[A-Za-z]+:[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>'));
      expect({ label, body: withoutIds(foreign.body) }).toEqual({ label, body: withoutIds(missing.body) });
    }
  });

  it('changed nothing of the owner\'s resources', async () => {
    const api = testApp.platform.api;
    const customer = await api.get(`/customers/${ids.customer}`).expect(200);
    expect(customer.body.email).not.toBe('thief@example.com');
    const account = await api.get(`/internal-accounts/${ids.account}`).expect(200);
    expect(account.body.totalBalance.amount).toBeLessThanOrEqual(1_000);
    expect(account.body.totalBalance.amount).toBeGreaterThanOrEqual(990);
    await api.get(`/customers/external-accounts/${ids.external}`).expect(200);
    const transfers = await api.get('/transactions').query({ customerId: ids.payer, type: 'OUTGOING' }).expect(200);
    expect(transfers.body.totalCount).toBe(1);
  });
});
