import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { accountsByCurrency, createBusiness, createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';

/**
 * The customers and accounts contexts' webhooks, delivered for real: signed with the key GET
 * /config publishes, each carrying the resource exactly as its GET answered at that moment.
 */
describe('webhooks for customers, verifications, balances and payments', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
  });

  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  /** The transaction as GET answers it once settled, and its refund ended when it has one (the read model may trail the webhook). */
  const settledView = (transactionId: string, refundStatus?: string) =>
    eventually(async () => {
      const response = await testApp.platform.api.get(`/transactions/${transactionId}`).expect(200);
      return response.body.status !== 'PENDING' && (!refundStatus || response.body.refund?.status === refundStatus) && response.body;
    });

  const ofType = (type: string, id: string) =>
    receiver.waitFor((entry) => entry.body.type === type && entry.body.data.id === id);

  it('announces KYC status and verification results with the customer and verification views', async () => {
    const customer = await createIndividual(testApp.platform.api, { fullName: 'Web Hook001' });
    const kyc = await ofType('CUSTOMER.KYC_PENDING', customer.id);
    expect(kyc.signatureValid).toBe(true);
    expect(kyc.body.id).toMatch(/^Webhook:[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(kyc.body.timestamp))).toBe(false);
    expect(kyc.body.data).toEqual(customer);

    const verification = (await testApp.platform.api.post('/verifications').send({ customerId: customer.id }).expect(200)).body;
    const resolve = await ofType('VERIFICATION.RESOLVE_ERRORS', verification.id);
    expect(resolve.signatureValid).toBe(true);
    expect(resolve.body.data).toEqual(verification);
  });

  it('announces funding, balance updates and a transfer-out through to completion', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    const funded = await fund(testApp.platform.api, USD.id, 1_000);
    const balance = await ofType('INTERNAL_ACCOUNT.BALANCE_UPDATED', USD.id);
    expect(balance.body.data).toEqual(funded);
    const incoming = await receiver.waitFor(
      (entry) => entry.body.type === 'INCOMING_PAYMENT.COMPLETED' && entry.body.data.destination?.accountId === USD.id,
    );
    const fundingTransaction = (await testApp.platform.api.get(`/transactions/${incoming.body.data.id}`).expect(200)).body;
    expect(incoming.body.data).toEqual(fundingTransaction);

    const external = await createUsdExternalAccount(testApp.platform.api, customer.id);
    const out = (
      await testApp.platform.api
        .post('/transfer-out')
        .send({ source: { accountId: USD.id }, destination: { accountId: external.id }, amount: 400 })
        .expect(201)
    ).body;
    const pending = await ofType('OUTGOING_PAYMENT.PENDING', out.id);
    expect(pending.body.data).toEqual(out);
    const completed = await ofType('OUTGOING_PAYMENT.COMPLETED', out.id);
    const read = await eventually(async () => {
      const response = await testApp.platform.api.get(`/transactions/${out.id}`).expect(200);
      return response.body.status === 'COMPLETED' && response.body;
    });
    expect(completed.body.data).toEqual(read);
    for (const entry of receiver.received) expect(entry.signatureValid).toBe(true);
    expect(new Set(receiver.ids()).size).toBe(receiver.received.length);
  });

  it('announces a business\'s KYB approval on verification with the customer view, and no UNVERIFIED (the contract has no such type)', async () => {
    const business = await createBusiness(testApp.platform.api, {
      businessInfo: { legalName: 'Hooked Corp', registrationNumber: 'REG-777' },
    });
    const verification = (await testApp.platform.api.post('/verifications').send({ customerId: business.id }).expect(200)).body;
    const approved = await ofType('CUSTOMER.KYB_APPROVED', business.id);
    expect(approved.body.data).toEqual((await testApp.platform.api.get(`/customers/${business.id}`).expect(200)).body);
    expect(approved.body.data.kybStatus).toBe('APPROVED');
    // Webhooks of one customer leave in order: by the APPROVED one, an UNVERIFIED one would be here.
    expect(receiver.received.filter((entry) => entry.body.data?.id === business.id).map((entry) => entry.body.type)).not.toContain('CUSTOMER.KYB_UNVERIFIED');
    const verified = await ofType(`VERIFICATION.${verification.verificationStatus}`, verification.id);
    expect(verified.body.data).toEqual(verification);
  });

  it('announces a transfer-in PENDING then COMPLETED, and a failing transfer-out as FAILED with its refund PENDING, then REFUND_COMPLETED', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    const source = await createUsdExternalAccount(testApp.platform.api, customer.id, '789');
    const incoming = (
      await testApp.platform.api.post('/transfer-in').send({ source: { accountId: source.id }, destination: { accountId: USD.id }, amount: 700 }).expect(201)
    ).body;
    expect((await ofType('INCOMING_PAYMENT.PENDING', incoming.id)).body.data).toEqual(incoming);
    const completed = await ofType('INCOMING_PAYMENT.COMPLETED', incoming.id);
    expect(completed.body.data.status).toBe('COMPLETED');
    expect(completed.body.data).toEqual(await settledView(incoming.id));

    const closed = await createUsdExternalAccount(testApp.platform.api, customer.id, '003');
    const out = (
      await testApp.platform.api.post('/transfer-out').send({ source: { accountId: USD.id }, destination: { accountId: closed.id }, amount: 100 }).expect(201)
    ).body;
    const refunded = await ofType('OUTGOING_PAYMENT.REFUND_COMPLETED', out.id);
    expect(refunded.body.data).toEqual(await settledView(out.id, 'COMPLETED'));
    const failed = await ofType('OUTGOING_PAYMENT.FAILED', out.id);
    const { settledAt: _settledAt, ...pendingRefund } = refunded.body.data.refund;
    expect(failed.body.data).toEqual({ ...refunded.body.data, refund: { ...pendingRefund, status: 'PENDING' }, updatedAt: pendingRefund.initiatedAt });
    expect((await ofType('OUTGOING_PAYMENT.REFUND_PENDING', out.id)).body.data).toEqual(failed.body.data);
  });

  it('never sends another platform\'s events to this endpoint', async () => {
    const other = await testApp.createPlatform();
    const stranger = await createIndividual(other.api, { fullName: 'Other Platform001' });
    const mine = await createIndividual(testApp.platform.api, { fullName: 'Mine Again001' });
    await ofType('CUSTOMER.KYC_PENDING', mine.id);
    expect(receiver.received.some((entry) => entry.body.data?.id === stranger.id)).toBe(false);
  });
});
