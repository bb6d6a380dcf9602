import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { accountsByCurrency, createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';

const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };

/** `POST /transfer-out`, `POST /transfer-in`: creation, sandbox settlement by suffix, refunds, errors. */
describe('transfers', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function fundedCustomer(amount = 10_000) {
    const customer = await createIndividual(testApp.platform.api);
    const accounts = await accountsByCurrency(testApp.platform.api, customer.id);
    if (amount > 0) await fund(testApp.platform.api, accounts.USD.id, amount);
    return { customer, usd: accounts.USD, usdc: accounts.USDC };
  }

  const balances = async (accountId: string) => {
    const account = (await testApp.platform.api.get(`/internal-accounts/${accountId}`).expect(200)).body;
    return { available: account.balance.amount, total: account.totalBalance.amount };
  };

  const settled = (transactionId: string) =>
    eventually(async () => {
      const response = await testApp.platform.api.get(`/transactions/${transactionId}`);
      return response.status === 200 && response.body.status !== 'PENDING' && response.body;
    });

  /** The transaction once its refund has `status` (a failure starts it PENDING; it completes SANDBOX_REFUND_DELAY_MS later). */
  const withRefund = (transactionId: string, status: string) =>
    eventually(async () => {
      const response = await testApp.platform.api.get(`/transactions/${transactionId}`);
      return response.status === 200 && response.body.refund?.status === status && response.body;
    });

  it('transfer-out: 201 PENDING with the funds held, then COMPLETED and the money gone', async () => {
    const { customer, usd } = await fundedCustomer();
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id, '789');
    const response = await testApp.platform.api
      .post('/transfer-out')
      .send({ source: { accountId: usd.id }, destination: { accountId: external.id, paymentRail: 'WIRE' }, amount: 2_500 })
      .expect(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^Transaction:/),
      status: 'PENDING',
      type: 'OUTGOING',
      direction: 'DEBIT',
      source: { sourceType: 'ACCOUNT', accountId: usd.id, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: external.id, currency: 'USD', paymentRail: 'WIRE' },
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      sentAmount: { amount: 2_500, currency: USD },
      receivedAmount: { amount: 2_500, currency: USD },
      exchangeRate: 1,
      fees: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      // The rail named in the request, also at the top level where the reference reads it.
      railSelectionMode: 'MANUAL',
      paymentRail: 'WIRE',
    });
    const read = await testApp.platform.api.get(`/transactions/${response.body.id}`).expect(200);
    expect(['PENDING', 'COMPLETED']).toContain(read.body.status);
    const done = await settled(response.body.id);
    expect(done).toEqual({ ...response.body, status: 'COMPLETED', settledAt: expect.any(String), updatedAt: expect.any(String) });
    expect(await balances(usd.id)).toEqual({ available: 7_500, total: 7_500 });
  });

  it('transfer-out holds at creation: balance drops, totalBalance keeps the held amount until settlement', async () => {
    const { customer, usd } = await fundedCustomer();
    // 005 stays pending (SANDBOX_SLOW_FAILURE_DELAY_MS), long enough to see the hold.
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id, '005');
    const response = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: external.id }, amount: 4_000 }).expect(201);
    expect(response.body.destination.paymentRail).toBe('ACH');
    expect(response.body).toMatchObject({ paymentRail: 'ACH', railSelectionMode: 'AUTO' });
    expect(await balances(usd.id)).toEqual({ available: 6_000, total: 10_000 });
    const done = await settled(response.body.id);
    expect(done.status).toBe('FAILED');
    // Our SETTLEMENT_TIMEOUT, in the reference's terms.
    expect(done.failureReason).toBe('QUOTE_EXECUTION_FAILED');
    expect(done.refund).toMatchObject({ status: 'PENDING', reason: 'TIMEOUT' });
    expect((await withRefund(response.body.id, 'COMPLETED')).refund).toMatchObject({ status: 'COMPLETED', reason: 'TIMEOUT' });
    expect(await balances(usd.id)).toEqual({ available: 10_000, total: 10_000 });
  });

  // Our scenario reasons stay in the events; the wire shows the reference's OutgoingTransactionFailureReason.
  it.each([
    ['002', 'QUOTE_EXECUTION_FAILED'],
    ['003', 'ACCOUNT_CANNOT_RECEIVE'],
    ['004', 'ACCOUNT_CANNOT_RECEIVE'],
  ])('transfer-out to suffix %s fails at once with %s, its refund PENDING, then COMPLETED: the hold back', async (suffix, failureReason) => {
    const { customer, usd } = await fundedCustomer();
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id, suffix);
    const response = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: external.id }, amount: 1_000 }).expect(201);
    expect(response.body.status).toBe('PENDING');
    const refund = { reference: `${response.body.id}:refund`, initiatedAt: expect.any(String), status: 'PENDING', reason: 'TRANSACTION_FAILED' };
    const done = await settled(response.body.id);
    expect(done).toEqual(expect.objectContaining({ status: 'FAILED', failureReason, refund: expect.objectContaining({ reference: refund.reference }) }));
    expect(done).not.toHaveProperty('settledAt');
    const refunded = await withRefund(response.body.id, 'COMPLETED');
    expect(refunded).toEqual({ ...done, refund: { ...refund, status: 'COMPLETED', settledAt: refunded.updatedAt }, updatedAt: expect.any(String) });
    expect(await balances(usd.id)).toEqual({ available: 10_000, total: 10_000 });
    const history = await testApp.platform.api.get('/audit/events').query({ resourceId: response.body.id }).expect(200);
    expect(history.body.data.map((entry: { type: string }) => entry.type)).toEqual(['TransferOutRequested', 'TransferOutFundsHeld', 'TransferOutFailed', 'TransferOutRefundCompleted']);
  });

  it('transfer-in: 201 PENDING, then COMPLETED and the account credited', async () => {
    const { customer, usd } = await fundedCustomer(0);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id, '789');
    const response = await testApp.platform.api.post('/transfer-in').send({ source: { accountId: external.id }, destination: { accountId: usd.id }, amount: 7_000 }).expect(201);
    expect(response.body).toEqual(
      expect.objectContaining({
        status: 'PENDING',
        type: 'INCOMING',
        direction: 'CREDIT',
        source: { sourceType: 'ACCOUNT', accountId: external.id, currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: usd.id, currency: 'USD', paymentRail: 'ACH' },
        sentAmount: { amount: 7_000, currency: USD },
      }),
    );
    expect(await balances(usd.id)).toEqual({ available: 0, total: 0 });
    const done = await settled(response.body.id);
    expect(done.status).toBe('COMPLETED');
    expect(await balances(usd.id)).toEqual({ available: 7_000, total: 7_000 });
  });

  // A failed pull is the reference's COLLECTION_FAILED, whichever scenario failed it.
  it.each([['002'], ['004'], ['005']])('transfer-in from suffix %s fails (COLLECTION_FAILED) and credits nothing', async (suffix) => {
    const { customer, usd } = await fundedCustomer(0);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id, suffix);
    const response = await testApp.platform.api.post('/transfer-in').send({ source: { accountId: external.id }, destination: { accountId: usd.id }, amount: 7_000 }).expect(201);
    const done = await settled(response.body.id);
    expect(done).toEqual(expect.objectContaining({ status: 'FAILED', failureReason: 'COLLECTION_FAILED' }));
    expect(done).not.toHaveProperty('refund');
    expect(await balances(usd.id)).toEqual({ available: 0, total: 0 });
  });

  it('400 INVALID_AMOUNT (reason INSUFFICIENT_FUNDS) when short: nothing held, no transaction listed', async () => {
    const { customer, usd } = await fundedCustomer(1_000);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const response = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: external.id }, amount: 1_001 }).expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'INVALID_AMOUNT',
      message: 'The account balance is too low for this amount',
      details: { reason: 'INSUFFICIENT_FUNDS', accountId: usd.id, requested: 1_001, available: 1_000 },
    });
    expect(await balances(usd.id)).toEqual({ available: 1_000, total: 1_000 });
    const listed = await testApp.platform.api.get('/transactions').query({ accountId: usd.id, type: 'OUTGOING' }).expect(200);
    expect(listed.body.totalCount).toBe(0);
  });

  it('400 INVALID_CURRENCY across currencies', async () => {
    const { customer, usdc } = await fundedCustomer();
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const out = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usdc.id }, destination: { accountId: external.id }, amount: 10 }).expect(400);
    expect(out.body).toEqual({
      status: 400,
      code: 'INVALID_CURRENCY',
      message: 'Transfers move one currency: the source holds USDC, the destination USD',
      details: { sourceCurrency: 'USDC', destinationCurrency: 'USD' },
    });
    const inbound = await testApp.platform.api.post('/transfer-in').send({ source: { accountId: external.id }, destination: { accountId: usdc.id }, amount: 10 }).expect(400);
    expect(inbound.body.code).toBe('INVALID_CURRENCY');
  });

  it.each([
    [0, 'below 1'],
    [-5, 'negative'],
    [1.5, 'not an integer'],
    ['100', 'a string'],
    [9_000_000_000_000_001, 'above the maximum'],
    [null, 'null'],
  ])('amount %p is 400 INVALID_INPUT (%s)', async (amount, _label) => {
    const { customer, usd } = await fundedCustomer(0);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id);
    for (const [path, body] of [
      ['/transfer-out', { source: { accountId: usd.id }, destination: { accountId: external.id }, amount }],
      ['/transfer-in', { source: { accountId: external.id }, destination: { accountId: usd.id }, amount }],
    ] as const) {
      const response = await testApp.platform.api.post(path).send(body).expect(400);
      expect(response.body.code).toBe('INVALID_INPUT');
      // Presence, type and bounds of a number carry no hint.
      expect(response.body.details.errors).toEqual([expect.objectContaining({ field: 'amount', constraint: {} })]);
    }
  });

  it('lists every bad field of the body; malformed ids and swapped directions are 400', async () => {
    const bad = await testApp.platform.api.post('/transfer-out').send({ source: {}, destination: { accountId: 'InternalAccount:x', paymentRail: 7 }, extra: 1 }).expect(400);
    // `amount` is optional (a transfer-out without it sweeps the balance).
    expect(bad.body.details.errors.map((error: { field: string; constraint: object }) => [error.field, error.constraint]).sort()).toEqual([
      ['destination.accountId', { format: 'ExternalAccount-id' }],
      ['destination.paymentRail', {}],
      ['extra', {}],
      ['source.accountId', {}],
    ]);
    const { customer, usd } = await fundedCustomer(0);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const swapped = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: external.id }, destination: { accountId: usd.id }, amount: 1 }).expect(400);
    expect(swapped.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['destination.accountId', 'source.accountId']);
  });

  it('a payment rail the external account does not support is 400', async () => {
    const { customer, usd } = await fundedCustomer();
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const response = await testApp.platform.api
      .post('/transfer-out')
      .send({ source: { accountId: usd.id }, destination: { accountId: external.id, paymentRail: 'RTP' }, amount: 1 })
      .expect(400);
    expect(response.body.details.errors).toEqual([
      { field: 'destination.paymentRail', constraint: { enum: ['ACH', 'WIRE'] }, message: 'destination.paymentRail must be one the external account supports: ACH, WIRE' },
    ]);
  });

  it('404 for unknown accounts and for other platforms\' accounts, exactly alike', async () => {
    const { customer, usd } = await fundedCustomer();
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const unknownInternal = 'InternalAccount:01900000-0000-7000-8000-000000000000';
    const unknownExternal = 'ExternalAccount:01900000-0000-7000-8000-000000000000';
    const a = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: unknownInternal }, destination: { accountId: external.id }, amount: 1 }).expect(404);
    expect(a.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Source internal account not found' });
    const b = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: unknownExternal }, amount: 1 }).expect(404);
    expect(b.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Destination external account not found' });
    const other = await testApp.createPlatform();
    const c = await other.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: external.id }, amount: 1 }).expect(404);
    expect(c.body).toEqual(a.body);
    const d = await other.api.post('/transfer-in').send({ source: { accountId: external.id }, destination: { accountId: usd.id }, amount: 1 }).expect(404);
    expect(d.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Source external account not found' });
  });

  it('an external account of another customer is refused', async () => {
    const { usd } = await fundedCustomer();
    const stranger = await createIndividual(testApp.platform.api);
    const theirs = await createUsdExternalAccount(testApp.platform.api, stranger.id);
    const response = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: theirs.id }, amount: 1 }).expect(400);
    expect(response.body.details.errors).toEqual([{ field: 'destination.accountId', constraint: {}, message: 'The external account belongs to another customer' }]);
  });

  // The transfer operations declare no 403 or 410.
  it('400 INVALID_INPUT for a customer not approved to transact; 404 USER_NOT_FOUND once deleted', async () => {
    const pending = await createIndividual(testApp.platform.api, { fullName: 'Pat Pending001' });
    const accounts = await accountsByCurrency(testApp.platform.api, pending.id);
    await fund(testApp.platform.api, accounts.USD.id, 100);
    const external = await createUsdExternalAccount(testApp.platform.api, pending.id);
    const response = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: accounts.USD.id }, destination: { accountId: external.id }, amount: 1 }).expect(400);
    expect(response.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'The customer is not approved to transact',
      details: { reason: 'CUSTOMER_NOT_APPROVED', kycStatus: 'PENDING' },
    });
    const { customer, usd } = await fundedCustomer();
    const theirs = await createUsdExternalAccount(testApp.platform.api, customer.id);
    await testApp.platform.api.delete(`/customers/${customer.id}`).expect(200);
    const gone = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: theirs.id }, amount: 1 }).expect(404);
    expect(gone.body).toEqual({ status: 404, code: 'USER_NOT_FOUND', message: 'Customer not found' });
  });

  it('400 AMOUNT_OUT_OF_RANGE outside the platform\'s limits for the currency', async () => {
    const platform = await testApp.createPlatform({
      supportedCurrencies: [{ currencyCode: 'USD', minAmount: 100, maxAmount: 5_000, requiredCounterpartyFields: [] }],
    });
    const customer = await createIndividual(platform.api);
    const accounts = await accountsByCurrency(platform.api, customer.id);
    await fund(platform.api, accounts.USD.id, 10_000);
    const external = await createUsdExternalAccount(platform.api, customer.id);
    for (const amount of [99, 5_001]) {
      const response = await platform.api.post('/transfer-out').send({ source: { accountId: accounts.USD.id }, destination: { accountId: external.id }, amount }).expect(400);
      expect(response.body).toEqual({
        status: 400,
        code: 'AMOUNT_OUT_OF_RANGE',
        message: 'amount must be from 100 to 5000 for USD',
        details: { minAmount: 100, maxAmount: 5_000 },
      });
    }
  });

  it('transfer-out takes remittanceInformation and purposeOfPayment: the reference travels as reconciliationInstructions and is a list filter', async () => {
    const { customer, usd } = await fundedCustomer();
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const remittance = `INV-${Date.now()}`;
    const response = await testApp.platform.api
      .post('/transfer-out')
      .send({ source: { accountId: usd.id }, destination: { accountId: external.id }, amount: 100, remittanceInformation: remittance, purposeOfPayment: 'GOODS_OR_SERVICES' })
      .expect(201);
    expect(response.body).toMatchObject({ reconciliationInstructions: { reference: remittance }, purposeOfPayment: 'GOODS_OR_SERVICES' });
    const listed = await testApp.platform.api.get('/transactions').query({ reference: remittance }).expect(200);
    expect(listed.body.data.map((transaction: { id: string }) => transaction.id)).toEqual([response.body.id]);
    const history = await testApp.platform.api.get('/audit/events').query({ resourceId: response.body.id }).expect(200);
    expect(history.body.data[0].data).toMatchObject({ remittanceInformation: remittance, purposeOfPayment: 'GOODS_OR_SERVICES', railSelectionMode: 'AUTO' });
    const bad = await testApp.platform.api
      .post('/transfer-out')
      .send({ source: { accountId: usd.id }, destination: { accountId: external.id }, amount: 100, remittanceInformation: 'x'.repeat(81), purposeOfPayment: 'LUNCH' })
      .expect(400);
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['purposeOfPayment', 'remittanceInformation']);
  });

  it('transfer-out without amount sweeps the available balance; with nothing available it is 400 INVALID_AMOUNT', async () => {
    const { customer, usd } = await fundedCustomer(4_321);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const swept = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: external.id } }).expect(201);
    expect(swept.body.sentAmount.amount).toBe(4_321);
    expect(await balances(usd.id)).toEqual({ available: 0, total: 4_321 });
    const empty = await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: external.id } }).expect(400);
    expect(empty.body).toEqual({
      status: 400,
      code: 'INVALID_AMOUNT',
      message: 'The account balance is too low for this amount',
      details: { reason: 'INSUFFICIENT_FUNDS', accountId: usd.id, requested: 0, available: 0 },
    });
  });

  it('transfer-in (TransferInRequest): amount is needed for a pull, and the destination takes no paymentRail', async () => {
    const { customer, usd } = await fundedCustomer(0);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const noAmount = await testApp.platform.api.post('/transfer-in').send({ source: { accountId: external.id }, destination: { accountId: usd.id } }).expect(400);
    expect(noAmount.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: expect.any(String),
      details: { errors: [{ field: 'amount', constraint: {}, message: 'amount is required to pull from an external account' }] },
    });
    const rail = await testApp.platform.api
      .post('/transfer-in')
      .send({ source: { accountId: external.id }, destination: { accountId: usd.id, paymentRail: 'ACH' }, amount: 1 })
      .expect(400);
    expect(rail.body.details.errors).toEqual([expect.objectContaining({ field: 'destination.paymentRail' })]);
  });

  it('Idempotency-Key: a replay answers the first response and moves money once', async () => {
    const { customer, usd } = await fundedCustomer();
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id, '005');
    const key = 'a3bb189e-8bf9-3888-9912-ace4e6543002';
    const body = { source: { accountId: usd.id }, destination: { accountId: external.id }, amount: 3_000 };
    const first = await testApp.platform.api.post('/transfer-out').set('Idempotency-Key', key).send(body).expect(201);
    const replay = await testApp.platform.api.post('/transfer-out').set('Idempotency-Key', key).send(body).expect(201);
    expect(replay.text).toBe(first.text);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await balances(usd.id)).toEqual({ available: 7_000, total: 10_000 });
    // A reused key is the client's mistake: 400 (the operation declares no 409).
    const changed = await testApp.platform.api.post('/transfer-out').set('Idempotency-Key', key).send({ ...body, amount: 1 }).expect(400);
    expect(changed.body).toMatchObject({ code: 'INVALID_INPUT', details: { reason: 'IDEMPOTENCY_KEY_REUSED' } });
  });
});
