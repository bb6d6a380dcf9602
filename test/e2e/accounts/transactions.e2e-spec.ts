import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { accountsByCurrency, createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';

/** `GET /transactions` (filters, pagination) and `GET /transactions/{id}`. */
describe('transactions', () => {
  let testApp: TestApp;
  let customer: any;
  let usd: any;
  let external: any;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    testApp = await startTestApp();
    customer = await createIndividual(testApp.platform.api);
    usd = (await accountsByCurrency(testApp.platform.api, customer.id)).USD;
    external = await createUsdExternalAccount(testApp.platform.api, customer.id, '789');
    const failing = await createUsdExternalAccount(testApp.platform.api, customer.id, '004');
    await fund(testApp.platform.api, usd.id, 10_000);
    ids.fund = (await testApp.platform.api.get('/transactions').query({ accountId: usd.id }).expect(200)).body.data[0].id;
    ids.out = (await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: external.id }, amount: 100 }).expect(201)).body.id;
    ids.failed = (await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: failing.id }, amount: 200 }).expect(201)).body.id;
    ids.in = (await testApp.platform.api.post('/transfer-in').send({ source: { accountId: external.id }, destination: { accountId: usd.id }, amount: 300 }).expect(201)).body.id;
    await eventually(async () => {
      const pending = await testApp.platform.api.get('/transactions').query({ customerId: customer.id, status: 'PENDING' }).expect(200);
      return pending.body.totalCount === 0;
    });
    // The failure's refund completes SANDBOX_REFUND_DELAY_MS after it: every view is final from then on.
    await eventually(async () => (await testApp.platform.api.get(`/transactions/${ids.failed}`).expect(200)).body.refund?.status === 'COMPLETED');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('lists the customer\'s transactions newest first with totalCount, and pages through them', async () => {
    const all = await testApp.platform.api.get('/transactions').query({ customerId: customer.id }).expect(200);
    expect(all.body.data.map((transaction: { id: string }) => transaction.id)).toEqual([ids.in, ids.failed, ids.out, ids.fund]);
    expect(all.body.totalCount).toBe(4);
    expect(all.body.hasMore).toBe(false);
    const page1 = await testApp.platform.api.get('/transactions').query({ customerId: customer.id, limit: 3 }).expect(200);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await testApp.platform.api.get('/transactions').query({ customerId: customer.id, limit: 3, cursor: page1.body.nextCursor }).expect(200);
    expect([...page1.body.data, ...page2.body.data]).toEqual(all.body.data);
  });

  it('filters by type, status, account and creation time', async () => {
    const ids0 = (response: { body: { data: Array<{ id: string }> } }) => response.body.data.map((transaction) => transaction.id);
    expect(ids0(await testApp.platform.api.get('/transactions').query({ customerId: customer.id, type: 'OUTGOING' }).expect(200))).toEqual([ids.failed, ids.out]);
    expect(ids0(await testApp.platform.api.get('/transactions').query({ customerId: customer.id, status: 'FAILED' }).expect(200))).toEqual([ids.failed]);
    expect(ids0(await testApp.platform.api.get('/transactions').query({ accountId: external.id }).expect(200))).toEqual([ids.in, ids.out]);
    const future = await testApp.platform.api.get('/transactions').query({ customerId: customer.id, createdAfter: '2999-01-01T00:00:00Z' }).expect(200);
    expect(future.body.totalCount).toBe(0);
    const past = await testApp.platform.api.get('/transactions').query({ customerId: customer.id, createdBefore: '2999-01-01', createdAfter: '2000-01-01' }).expect(200);
    expect(past.body.totalCount).toBe(4);
  });

  it('takes the reference\'s filters: sortOrder, startDate/endDate (inclusive), platformCustomerId, account identifiers, every TransactionStatus', async () => {
    const ids0 = (response: { body: { data: Array<{ id: string }> } }) => response.body.data.map((transaction) => transaction.id);
    const api = testApp.platform.api;
    expect(ids0(await api.get('/transactions').query({ customerId: customer.id, sortOrder: 'asc' }).expect(200))).toEqual([ids.fund, ids.out, ids.failed, ids.in]);
    expect(ids0(await api.get('/transactions').query({ customerId: customer.id, sortOrder: 'desc' }).expect(200))).toEqual([ids.in, ids.failed, ids.out, ids.fund]);
    const asc1 = await api.get('/transactions').query({ customerId: customer.id, sortOrder: 'asc', limit: 3 }).expect(200);
    const asc2 = await api.get('/transactions').query({ customerId: customer.id, sortOrder: 'asc', limit: 3, cursor: asc1.body.nextCursor }).expect(200);
    expect([...ids0(asc1), ...ids0(asc2)]).toEqual([ids.fund, ids.out, ids.failed, ids.in]);
    const out = (await api.get(`/transactions/${ids.out}`).expect(200)).body;
    const inclusive = await api.get('/transactions').query({ customerId: customer.id, startDate: out.createdAt, endDate: out.createdAt }).expect(200);
    expect(ids0(inclusive)).toEqual([ids.out]);
    expect(ids0(await api.get('/transactions').query({ platformCustomerId: customer.platformCustomerId }).expect(200))).toEqual([ids.in, ids.failed, ids.out, ids.fund]);
    expect(ids0(await api.get('/transactions').query({ accountIdentifier: external.id }).expect(200))).toEqual([ids.in, ids.out]);
    expect(ids0(await api.get('/transactions').query({ senderAccountIdentifier: external.id }).expect(200))).toEqual([ids.in]);
    expect(ids0(await api.get('/transactions').query({ receiverAccountIdentifier: external.id }).expect(200))).toEqual([ids.out]);
    for (const status of ['CREATED', 'REJECTED', 'REFUNDED']) {
      expect((await api.get('/transactions').query({ customerId: customer.id, status }).expect(200)).body.totalCount).toBe(0);
    }
  });

  it('GET /transactions/{id} answers the same view as the list', async () => {
    const all = await testApp.platform.api.get('/transactions').query({ customerId: customer.id }).expect(200);
    for (const transaction of all.body.data) {
      expect((await testApp.platform.api.get(`/transactions/${transaction.id}`).expect(200)).body).toEqual(transaction);
    }
  });

  it('400 for bad filters and malformed ids; 404 TRANSACTION_NOT_FOUND for unknown or another platform\'s', async () => {
    const bad = await testApp.platform.api
      .get('/transactions')
      .query({ customerId: 'x', status: 'DONE', type: 'SIDEWAYS', accountId: 'x', createdAfter: 'yesterday', limit: 101, foo: 1, sortOrder: 'up', startDate: 'x', endDate: 'y' })
      .expect(400);
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(
      ['accountId', 'createdAfter', 'customerId', 'endDate', 'foo', 'limit', 'sortOrder', 'startDate', 'status', 'type'].sort(),
    );
    // GET /transactions/{id} declares no 400: an id that names nothing is not found.
    const malformed = await testApp.platform.api.get('/transactions/nope').expect(404);
    expect(malformed.body).toEqual({ status: 404, code: 'TRANSACTION_NOT_FOUND', message: 'Transaction not found' });
    const unknown = await testApp.platform.api.get('/transactions/Transaction:01900000-0000-7000-8000-000000000000').expect(404);
    expect(unknown.body).toEqual({ status: 404, code: 'TRANSACTION_NOT_FOUND', message: 'Transaction not found' });
    const other = await testApp.createPlatform();
    expect((await other.api.get(`/transactions/${ids.out}`).expect(404)).body).toEqual(unknown.body);
    expect((await other.api.get('/transactions').query({ customerId: customer.id }).expect(200)).body.totalCount).toBe(0);
  });

  it('POST /transactions/{id}/approve: 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL (no agent-initiated ones), 404, 400', async () => {
    const refused = await testApp.platform.api.post(`/transactions/${ids.out}/approve`).expect(409);
    expect(refused.body).toEqual({
      status: 409,
      code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
      message: 'The transaction is not waiting for platform approval',
      details: { status: 'COMPLETED' },
    });
    const unknown = await testApp.platform.api.post('/transactions/Transaction:01900000-0000-7000-8000-000000000000/approve').expect(404);
    expect(unknown.body).toEqual({ status: 404, code: 'TRANSACTION_NOT_FOUND', message: 'Transaction not found' });
    const other = await testApp.createPlatform();
    expect((await other.api.post(`/transactions/${ids.out}/approve`).expect(404)).body).toEqual(unknown.body);
    const malformed = await testApp.platform.api.post('/transactions/nope/approve').expect(400);
    expect(malformed.body.details.errors).toEqual([expect.objectContaining({ field: 'transactionId', constraint: { format: 'Transaction-id' } })]);
    const extra = await testApp.platform.api.post(`/transactions/${ids.out}/approve`).send({ approved: true }).expect(400);
    expect(extra.body.details.errors).toEqual([{ field: 'approved', constraint: {}, message: 'Unknown field approved' }]);
    // ApprovePaymentRequest's receiverCustomerInfo is taken (an object); the transaction still is not awaiting approval.
    await testApp.platform.api.post(`/transactions/${ids.out}/approve`).send({ receiverCustomerInfo: { fullName: 'Ann Lee' } }).expect(409);
    const notObject = await testApp.platform.api.post(`/transactions/${ids.out}/approve`).send({ receiverCustomerInfo: 'Ann' }).expect(400);
    expect(notObject.body.details.errors).toEqual([{ field: 'receiverCustomerInfo', constraint: {}, message: 'receiverCustomerInfo must be an object' }]);
  });
});
