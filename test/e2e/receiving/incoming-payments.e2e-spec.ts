import { accountsByCurrency, createIndividual, fund } from '../../support/customer-fixtures';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { ReceivedWebhook, ReceiverAnswer, WebhookReceiver } from '../../support/webhook-receiver';

const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const SENDER = '$success.usd@sandbox.uma.money';
const ADDRESS = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const NOT_PENDING = expect.objectContaining({ status: 409, code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL' });
const APPROVAL_WINDOW_MS = 1500;

/**
 * Incoming UMA payments (issue 23 parts 2 and 3, docs/receiving.md): `POST /sandbox/uma/receive`,
 * the INCOMING_PAYMENT.PENDING webhook as the approval request and every answer it can get
 * (200, 403, 422, 202, an error, none in time), `POST /transactions/{id}/approve|reject`, the
 * credit only on approval, an approve/reject race, the payer's refund, and isolation.
 */
describe('incoming payments', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let other: TestPlatform;
  /** What the platform's endpoint answers to the approval request of each transaction. */
  const answers = new Map<string, (entry: ReceivedWebhook) => ReceiverAnswer>();

  beforeAll(async () => {
    // One delivery at a time: the queued webhooks of one event arrive in order.
    testApp = await startTestApp({ env: { INCOMING_APPROVAL_WINDOW_MS: String(APPROVAL_WINDOW_MS), WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_PLATFORM_CONCURRENCY: '1' } });
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api, {
      respond: (entry) => {
        if (entry.body.type !== 'INCOMING_PAYMENT.PENDING') return { status: 200 };
        return answers.get(entry.body.data.id)?.(entry) ?? { status: 200, body: '{}' };
      },
    });
    other = await testApp.createPlatform();
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  /** A customer who can receive USD; with nationality and address, the payer asks nothing of them. */
  const customerWithAccount = async (fields: Record<string, unknown> = { nationality: 'US', address: ADDRESS }) => {
    const customer = await createIndividual(api(), fields);
    const account = await eventually(async () => (await accountsByCurrency(api(), customer.id)).USD);
    return { customer, account };
  };
  const balanceOf = async (accountId: string) => (await api().get(`/internal-accounts/${accountId}`).expect(200)).body.balance.amount;
  const receive = (body: Record<string, unknown>) => api().post('/sandbox/uma/receive').send({ senderUmaAddress: SENDER, receivingCurrencyCode: 'USD', ...body });
  const webhooksOf = (transactionId: string, type?: string) => receiver.received.filter((entry) => entry.body.data?.id === transactionId && (!type || entry.body.type === type));
  const settled = (transactionId: string, status: string) =>
    eventually(async () => {
      const body = (await api().get(`/transactions/${transactionId}`).expect(200)).body;
      return body.status === status ? body : null;
    });

  it('approves by answering 200: PENDING webhook (signed, the payment as GET shows it), then credited and COMPLETED', async () => {
    const { customer, account } = await customerWithAccount();
    const response = await receive({ customerId: customer.id, receivingCurrencyAmount: 1234 }).expect(200);
    const id = response.body.id;
    expect(response.body).toEqual({
      id: expect.stringMatching(/^Transaction:/),
      status: 'PENDING',
      type: 'INCOMING',
      direction: 'CREDIT',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: SENDER, currency: 'USD' },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: customer.umaAddress, accountId: account.id, currency: 'USD' },
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      sentAmount: { amount: expect.any(Number), currency: USD },
      receivedAmount: { amount: 1234, currency: USD },
      exchangeRate: expect.any(Number),
      fees: expect.any(Number),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      counterpartyInformation: { FULL_NAME: 'Sandbox Payer', BIRTH_DATE: '1985-06-15', NATIONALITY: 'US' },
      reconciliationInstructions: { reference: expect.stringMatching(/^UMA-/) },
      senderUmaAddress: SENDER,
      receiverUmaAddress: customer.umaAddress,
    });
    expect(response.body.sentAmount.amount).toBe(1234 + response.body.fees);

    const completed = await settled(id, 'COMPLETED');
    expect(completed.settledAt).toEqual(expect.any(String));
    expect(await balanceOf(account.id)).toBe(1234);
    const [pending] = webhooksOf(id, 'INCOMING_PAYMENT.PENDING');
    expect(pending.signatureValid).toBe(true);
    expect(pending.body.data).toEqual({ ...response.body, updatedAt: expect.any(String) });
    await eventually(async () => webhooksOf(id, 'INCOMING_PAYMENT.COMPLETED').length === 1);
    expect(webhooksOf(id, 'INCOMING_PAYMENT.COMPLETED')[0].body.data).toEqual(completed);
    // The approval request is in the delivery log, delivered.
    const log = (await api().get('/webhooks/deliveries').query({ type: 'INCOMING_PAYMENT.PENDING' }).expect(200)).body.data;
    expect(log.find((delivery: any) => delivery.webhookId === pending.body.id)).toEqual(expect.objectContaining({ status: 'DELIVERED' }));
    // Every step is in the payment's audit history.
    const history = (await api().get('/audit/events').query({ resourceId: id }).expect(200)).body.data.map((event: any) => event.type);
    expect(history).toEqual(['IncomingPaymentReceived', 'IncomingPaymentApproved', 'IncomingPaymentCompleted']);
  });

  it('asks for the receiver data the customer record lacks; 200 without a mandatory field fails MISSING_MANDATORY_PAYEE_DATA, nothing credited', async () => {
    const { customer, account } = await customerWithAccount({});
    const withInfo = (await receive({ receiverUmaAddress: customer.umaAddress, receivingCurrencyAmount: 500 }).expect(200)).body;
    answers.set(withInfo.id, () => ({ status: 200, body: JSON.stringify({ receiverCustomerInfo: { NATIONALITY: 'FR' } }) }));
    const [request] = await eventually(async () => webhooksOf(withInfo.id, 'INCOMING_PAYMENT.PENDING').length > 0 && webhooksOf(withInfo.id, 'INCOMING_PAYMENT.PENDING'));
    expect(request.body.data.requestedReceiverCustomerInfoFields).toEqual([
      { name: 'NATIONALITY', mandatory: true },
      { name: 'POSTAL_ADDRESS', mandatory: false },
    ]);
    await settled(withInfo.id, 'COMPLETED');

    const without = (await receive({ customerId: customer.id, receivingCurrencyAmount: 700 }).expect(200)).body;
    answers.set(without.id, () => ({ status: 200, body: '{}' }));
    const failed = await settled(without.id, 'FAILED');
    expect(failed.failureReason).toBe('MISSING_MANDATORY_PAYEE_DATA');
    expect(await balanceOf(account.id)).toBe(500);
    await eventually(async () => webhooksOf(without.id, 'INCOMING_PAYMENT.FAILED').length === 1);
  });

  it('rejects by answering 403 (REJECTED, announced as INCOMING_PAYMENT.FAILED); a later approve is 409', async () => {
    const { customer, account } = await customerWithAccount();
    const payment = (await receive({ customerId: customer.id, receivingCurrencyAmount: 900 }).expect(200)).body;
    answers.set(payment.id, () => ({ status: 403, body: JSON.stringify({ status: 403, code: 'FORBIDDEN', message: 'no', reason: 'RESTRICTED_JURISDICTION' }) }));
    const rejected = await settled(payment.id, 'REJECTED');
    expect(rejected.failureReason).toBeUndefined();
    await eventually(async () => webhooksOf(payment.id, 'INCOMING_PAYMENT.FAILED').length === 1);
    expect(webhooksOf(payment.id, 'INCOMING_PAYMENT.FAILED')[0].body.data.status).toBe('REJECTED');
    expect((await api().post(`/transactions/${payment.id}/approve`).send({}).expect(409)).body).toEqual(NOT_PENDING);
    expect((await api().post(`/transactions/${payment.id}/reject`).expect(409)).body).toEqual(NOT_PENDING);
    expect(await balanceOf(account.id)).toBe(0);
    const listed = (await api().get('/transactions').query({ customerId: customer.id, status: 'REJECTED' }).expect(200)).body.data;
    expect(listed.map((transaction: any) => transaction.id)).toEqual([payment.id]);
  });

  it('a long payment stays PENDING after approval and is credited after the long-payment delay', async () => {
    const { customer, account } = await customerWithAccount();
    const payment = (await receive({ customerId: customer.id, senderUmaAddress: '$pending.long.usd@sandbox.uma.money', receivingCurrencyAmount: 600 }).expect(200)).body;
    await eventually(async () => webhooksOf(payment.id, 'INCOMING_PAYMENT.PENDING').length === 1);
    const history = async () => (await api().get('/audit/events').query({ resourceId: payment.id }).expect(200)).body.data.map((event: any) => event.type);
    await eventually(async () => (await history()).includes('IncomingPaymentApproved'));
    expect((await api().get(`/transactions/${payment.id}`).expect(200)).body.status).toBe('PENDING');
    expect(await balanceOf(account.id)).toBe(0);
    await settled(payment.id, 'COMPLETED');
    expect(await balanceOf(account.id)).toBe(600);
  });

  it('422 asks the payer for more data: the payer supplies it and asks again; data it cannot supply fails PAY_REQUEST_FAILED', async () => {
    const { customer } = await customerWithAccount();
    const payment = (await receive({ customerId: customer.id, receivingCurrencyAmount: 300 }).expect(200)).body;
    answers.set(payment.id, (entry) =>
      entry.body.data.counterpartyInformation.EMAIL ? { status: 200, body: '{}' } : { status: 422, body: JSON.stringify({ status: 422, code: 'X', message: 'more', requiredFields: ['EMAIL'] }) },
    );
    const completed = await settled(payment.id, 'COMPLETED');
    expect(completed.counterpartyInformation).toEqual({ FULL_NAME: 'Sandbox Payer', BIRTH_DATE: '1985-06-15', NATIONALITY: 'US', EMAIL: 'payer@sandbox.uma.money' });
    const requests = webhooksOf(payment.id, 'INCOMING_PAYMENT.PENDING');
    expect(requests).toHaveLength(2);
    expect(requests[0].body.id).not.toBe(requests[1].body.id);

    const unavailable = (await receive({ customerId: customer.id, receivingCurrencyAmount: 300 }).expect(200)).body;
    answers.set(unavailable.id, () => ({ status: 422, body: JSON.stringify({ requiredFields: ['TAX_ID'] }) }));
    expect((await settled(unavailable.id, 'FAILED')).failureReason).toBe('PAY_REQUEST_FAILED');
  });

  it('202 defers: POST approve (receiver data checked, 400 listing what is missing) credits once; approve again is 409', async () => {
    const { customer, account } = await customerWithAccount({ address: ADDRESS });
    const payment = (await receive({ customerId: customer.id, receivingCurrencyAmount: 2500 }).expect(200)).body;
    answers.set(payment.id, () => ({ status: 202 }));
    await eventually(async () => webhooksOf(payment.id, 'INCOMING_PAYMENT.PENDING').length === 1);
    expect((await api().post(`/transactions/${payment.id}/approve`).send({ receiverCustomerInfo: {} }).expect(400)).body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'receiverCustomerInfo lacks fields the payer requires',
      details: { errors: [{ field: 'receiverCustomerInfo.NATIONALITY', constraint: {}, message: 'receiverCustomerInfo.NATIONALITY is required by the payer' }] },
    });
    const approved = (await api().post(`/transactions/${payment.id}/approve`).send({ receiverCustomerInfo: { NATIONALITY: 'US' } }).expect(200)).body;
    expect(approved).toEqual(expect.objectContaining({ id: payment.id, status: 'COMPLETED', settledAt: expect.any(String) }));
    expect(await balanceOf(account.id)).toBe(2500);
    expect((await api().post(`/transactions/${payment.id}/approve`).send({ receiverCustomerInfo: { NATIONALITY: 'US' } }).expect(409)).body).toEqual(NOT_PENDING);
  });

  it('202 and no decision within the window: FAILED PAYMENT_APPROVAL_TIMED_OUT; an endpoint error fails PAYMENT_APPROVAL_WEBHOOK_ERROR', async () => {
    const { customer, account } = await customerWithAccount();
    const late = (await receive({ customerId: customer.id, receivingCurrencyAmount: 100 }).expect(200)).body;
    answers.set(late.id, () => ({ status: 202 }));
    const timedOut = await settled(late.id, 'FAILED');
    expect(timedOut.failureReason).toBe('PAYMENT_APPROVAL_TIMED_OUT');
    expect((await api().post(`/transactions/${late.id}/approve`).send({}).expect(409)).body).toEqual(NOT_PENDING);

    const broken = (await receive({ customerId: customer.id, receivingCurrencyAmount: 100 }).expect(200)).body;
    answers.set(broken.id, () => ({ status: 500, body: 'oops' }));
    expect((await settled(broken.id, 'FAILED')).failureReason).toBe('PAYMENT_APPROVAL_WEBHOOK_ERROR');
    expect(await balanceOf(account.id)).toBe(0);
  });

  it('approve and reject racing: exactly one decision wins, the money is credited at most once', async () => {
    const { customer, account } = await customerWithAccount();
    const payment = (await receive({ customerId: customer.id, receivingCurrencyAmount: 4000 }).expect(200)).body;
    answers.set(payment.id, () => ({ status: 202 }));
    await eventually(async () => webhooksOf(payment.id, 'INCOMING_PAYMENT.PENDING').length === 1);
    const calls = Array.from({ length: 12 }, (_, index) =>
      index % 2 === 0 ? api().post(`/transactions/${payment.id}/approve`).send({}) : api().post(`/transactions/${payment.id}/reject`).send({ reason: 'RACE' }),
    );
    const responses = await Promise.all(calls.map((call) => call.then((response) => response)));
    const wins = responses.filter((response) => response.status === 200);
    expect(wins).toHaveLength(1);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(11);
    const final = (await api().get(`/transactions/${payment.id}`).expect(200)).body;
    expect(final.status).toBe(wins[0].body.status);
    expect(await balanceOf(account.id)).toBe(final.status === 'COMPLETED' ? 4000 : 0);
  });

  it('a payer compliance refuses after approval: FAILED COMPLIANCE_REJECTED, refunded to the payer (REFUND_PENDING, REFUND_COMPLETED)', async () => {
    const { customer, account } = await customerWithAccount();
    const payment = (await receive({ customerId: customer.id, senderUmaAddress: '$fail.compliance.eur@sandbox.uma.money', receivingCurrencyAmount: 1000 }).expect(200)).body;
    expect(payment.sentAmount.currency.code).toBe('EUR');
    expect(payment.source).toEqual({ sourceType: 'UMA_ADDRESS', umaAddress: '$fail.compliance.eur@sandbox.uma.money', currency: 'EUR' });
    await eventually(async () => webhooksOf(payment.id, 'INCOMING_PAYMENT.REFUND_COMPLETED').length === 1);
    const types = webhooksOf(payment.id).map((entry) => entry.body.type);
    expect(types).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED', 'INCOMING_PAYMENT.REFUND_PENDING', 'INCOMING_PAYMENT.REFUND_COMPLETED']);
    const final = (await api().get(`/transactions/${payment.id}`).expect(200)).body;
    expect(final).toEqual(expect.objectContaining({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' }));
    expect(final.refund).toEqual({ reference: `${payment.reconciliationInstructions.reference}-REFUND`, initiatedAt: expect.any(String), settledAt: expect.any(String), status: 'COMPLETED', reason: 'TRANSACTION_FAILED' });
    expect(await balanceOf(account.id)).toBe(0);
  });

  it('a platform without a webhook endpoint decides by API within the window', async () => {
    const bare = await testApp.createPlatform();
    const customer = await createIndividual(bare.api, { nationality: 'US', address: ADDRESS });
    const account = await eventually(async () => (await accountsByCurrency(bare.api, customer.id)).USD);
    const payment = (await bare.api.post('/sandbox/uma/receive').send({ senderUmaAddress: SENDER, customerId: customer.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 800 }).expect(200)).body;
    expect((await bare.api.post(`/transactions/${payment.id}/approve`).expect(200)).body.status).toBe('COMPLETED');
    expect((await bare.api.get(`/internal-accounts/${account.id}`).expect(200)).body.balance.amount).toBe(800);
  });

  it('refuses bad requests with every bad field, unknown payers and receivers, and another platform\'s ids', async () => {
    const { customer } = await customerWithAccount();
    expect((await api().post('/sandbox/uma/receive').send({ receivingCurrencyAmount: 0 }).expect(400)).body).toEqual(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        details: { errors: expect.arrayContaining([
          expect.objectContaining({ field: 'senderUmaAddress' }),
          expect.objectContaining({ field: 'receivingCurrencyCode' }),
          expect.objectContaining({ field: 'receivingCurrencyAmount' }),
        ]) },
      }),
    );
    const neither = (await receive({ receivingCurrencyAmount: 100 }).expect(400)).body;
    expect(neither.details.errors.map((error: any) => error.field)).toEqual(['customerId', 'receiverUmaAddress']);
    expect((await receive({ customerId: customer.id, senderUmaAddress: 'not-an-address', receivingCurrencyAmount: 100 }).expect(400)).body.code).toBe('INVALID_UMA_ADDRESS');
    expect((await receive({ customerId: customer.id, senderUmaAddress: '$nobody@sandbox.uma.money', receivingCurrencyAmount: 100 }).expect(404)).body.code).toBe('UMA_NOT_FOUND');
    expect((await receive({ receiverUmaAddress: '$nobody@nowhere.example.com', receivingCurrencyAmount: 100 }).expect(404)).body.code).toBe('UMA_NOT_FOUND');
    expect((await receive({ customerId: customer.id, receivingCurrencyCode: 'JPY', receivingCurrencyAmount: 100 }).expect(400)).body.code).toBe('INVALID_CURRENCY');

    const payment = (await receive({ customerId: customer.id, receivingCurrencyAmount: 100 }).expect(200)).body;
    answers.set(payment.id, () => ({ status: 202 }));
    // Another platform sees neither the customer nor the payment.
    expect((await other.api.post('/sandbox/uma/receive').send({ senderUmaAddress: SENDER, customerId: customer.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 100 }).expect(404)).body.code).toBe('USER_NOT_FOUND');
    expect((await other.api.post(`/transactions/${payment.id}/approve`).send({}).expect(404)).body.code).toBe('TRANSACTION_NOT_FOUND');
    expect((await other.api.post(`/transactions/${payment.id}/reject`).send({}).expect(404)).body.code).toBe('TRANSACTION_NOT_FOUND');
    expect((await other.api.get(`/transactions/${payment.id}`).expect(404)).body.code).toBe('TRANSACTION_NOT_FOUND');
    // A transaction that never waits for approval: 409.
    const funded = await fund(api(), (await accountsByCurrency(api(), customer.id)).USD.id, 100);
    expect(funded.balance.amount).toBeGreaterThan(0);
    const fundings = (await api().get('/transactions').query({ customerId: customer.id, type: 'INCOMING', status: 'COMPLETED' }).expect(200)).body.data;
    const funding = fundings.find((transaction: any) => transaction.description === 'Sandbox funding');
    expect((await api().post(`/transactions/${funding.id}/reject`).send({}).expect(409)).body).toEqual(NOT_PENDING);
  });
});
