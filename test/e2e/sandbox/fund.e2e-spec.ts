import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { accountsByCurrency, createIndividual } from '../../support/customer-fixtures';

/** `POST /sandbox/internal-accounts/{accountId}/fund`. */
describe('sandbox funding', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('answers 200 with the credited account and records a COMPLETED incoming transaction', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USDC } = await accountsByCurrency(testApp.platform.api, customer.id);
    const response = await testApp.platform.api.post(`/sandbox/internal-accounts/${USDC.id}/fund`).send({ amount: 25_000_000 }).expect(200);
    expect(response.body).toEqual({
      ...USDC,
      balance: { ...USDC.balance, amount: 25_000_000 },
      totalBalance: { ...USDC.totalBalance, amount: 25_000_000 },
      updatedAt: expect.any(String),
    });
    const transactions = await testApp.platform.api.get('/transactions').query({ accountId: USDC.id }).expect(200);
    expect(transactions.body.totalCount).toBe(1);
    expect(transactions.body.data[0]).toEqual({
      id: expect.stringMatching(/^Transaction:/),
      status: 'COMPLETED',
      type: 'INCOMING',
      direction: 'CREDIT',
      destination: { destinationType: 'ACCOUNT', accountId: USDC.id, currency: 'USDC' },
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      sentAmount: { amount: 25_000_000, currency: USDC.balance.currency },
      receivedAmount: { amount: 25_000_000, currency: USDC.balance.currency },
      exchangeRate: 1,
      fees: 0,
      description: 'Sandbox funding',
      createdAt: response.body.updatedAt,
      updatedAt: response.body.updatedAt,
      settledAt: response.body.updatedAt,
    });
    const accountHistory = await testApp.platform.api.get('/audit/events').query({ resourceId: USDC.id }).expect(200);
    expect(accountHistory.body.data.map((entry: { type: string }) => entry.type)).toEqual(['InternalAccountOpened', 'FundsCredited']);
    const transactionHistory = await testApp.platform.api.get('/audit/events').query({ resourceId: transactions.body.data[0].id }).expect(200);
    expect(transactionHistory.body.data.map((entry: { type: string }) => entry.type)).toEqual(['SandboxFundingCompleted']);
  });

  // The reference requires customerId and platformCustomerId: the platform's own transactions carry its id, which also filters them.
  it('funds platform-owned accounts too (the platform id stands for the customer)', async () => {
    const platform = await testApp.createPlatform();
    const account = await eventually(async () => {
      const list = await platform.api.get('/internal-accounts').query({ currency: 'USD' }).expect(200);
      return list.body.data.find((candidate: { customerId?: string }) => candidate.customerId === undefined);
    });
    await platform.api.post(`/sandbox/internal-accounts/${account.id}/fund`).send({ amount: 1 }).expect(200);
    const listed = await platform.api.get('/transactions').query({ accountId: account.id }).expect(200);
    expect(listed.body.data[0]).toEqual(expect.objectContaining({ customerId: platform.platformId, platformCustomerId: platform.platformId, status: 'COMPLETED' }));
    const own = await platform.api.get('/transactions').query({ customerId: platform.platformId }).expect(200);
    expect(own.body.data.map((transaction: { id: string }) => transaction.id)).toEqual([listed.body.data[0].id]);
  });

  it('refuses bad amounts, malformed, unknown and other platforms\' accounts', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    for (const amount of [0, -1, 2.5, '10', 9_000_000_000_000_001]) {
      const response = await testApp.platform.api.post(`/sandbox/internal-accounts/${USD.id}/fund`).send({ amount }).expect(400);
      expect(response.body.details.errors).toEqual([expect.objectContaining({ field: 'amount', constraint: {} })]);
    }
    const missing = await testApp.platform.api.post(`/sandbox/internal-accounts/${USD.id}/fund`).send({ amount: 1, currency: 'USD' }).expect(400);
    expect(missing.body.details.errors).toEqual([expect.objectContaining({ field: 'currency', constraint: {} })]);
    await testApp.platform.api.post('/sandbox/internal-accounts/nope/fund').send({ amount: 1 }).expect(400);
    const unknown = await testApp.platform.api
      .post('/sandbox/internal-accounts/InternalAccount:01900000-0000-7000-8000-000000000000/fund')
      .send({ amount: 1 })
      .expect(404);
    expect(unknown.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Internal account not found' });
    const other = await testApp.createPlatform();
    const hidden = await other.api.post(`/sandbox/internal-accounts/${USD.id}/fund`).send({ amount: 1 }).expect(404);
    expect(hidden.body).toEqual(unknown.body);
  });

  it('400 AMOUNT_OUT_OF_RANGE when the balance would pass the maximum amount', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    await testApp.platform.api.post(`/sandbox/internal-accounts/${USD.id}/fund`).send({ amount: 9_000_000_000_000_000 }).expect(200);
    const response = await testApp.platform.api.post(`/sandbox/internal-accounts/${USD.id}/fund`).send({ amount: 1 }).expect(400);
    expect(response.body.code).toBe('AMOUNT_OUT_OF_RANGE');
  });

  it('honours Idempotency-Key: the replay credits nothing more', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    const key = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const first = await testApp.platform.api.post(`/sandbox/internal-accounts/${USD.id}/fund`).set('Idempotency-Key', key).send({ amount: 500 }).expect(200);
    const again = await testApp.platform.api.post(`/sandbox/internal-accounts/${USD.id}/fund`).set('Idempotency-Key', key).send({ amount: 500 }).expect(200);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await testApp.platform.api.get(`/internal-accounts/${USD.id}`).expect(200)).body.balance.amount).toBe(500);
  });

  it('is refused in production mode', async () => {
    const production = await startTestApp({ env: { SERVICE_MODE: 'production' } });
    try {
      const customer = await createIndividual(production.platform.api);
      const { USD } = await accountsByCurrency(production.platform.api, customer.id);
      const response = await production.platform.api.post(`/sandbox/internal-accounts/${USD.id}/fund`).send({ amount: 1 }).expect(403);
      expect(response.body).toEqual({ status: 403, code: 'FORBIDDEN', message: 'Sandbox operations are not available in production mode' });
      expect(customer.kycStatus).toBe('UNVERIFIED');
    } finally {
      await production.close();
    }
  });
});
