import { accountWebhooks } from '../../../src/accounts/account-webhooks';
import { customerWebhooks } from '../../../src/customers/customer-webhooks';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { toWireJson } from '../../../src/infra/http/wire-json';
import { streamNameFor } from '../../../src/infra/ids';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { accountsByCurrency, createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';

/** A mapper's drafts as they are delivered (absent fields omitted, like every HTTP answer). */
const onWire = (drafts: unknown) => JSON.parse(toWireJson(drafts));

/**
 * The webhook mappings this context offers: each event's `{type, data}`, with `data` built from
 * the stream up to the event, equals what GET answers right after that event.
 */
describe('webhook views of customers, accounts and transfers', () => {
  let testApp: TestApp;
  let events: EventStoreService;

  beforeAll(async () => {
    testApp = await startTestApp();
    events = testApp.app.get(EventStoreService);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('maps every movement and payment to its webhook with the GET view of that moment', async () => {
    const customer = await createIndividual(testApp.platform.api, { fullName: 'Web Hook001' });
    const customerStream = await events.readStream(streamNameFor(customer.id));
    const kyc = onWire(customerWebhooks(customerStream[1], customerStream.slice(0, 2)));
    expect(kyc).toEqual([{ type: 'CUSTOMER.KYC_PENDING', data: customer }]);
    const verification = (await testApp.platform.api.post('/verifications').send({ customerId: customer.id }).expect(200)).body;
    const withVerification = await events.readStream(streamNameFor(customer.id));
    expect(onWire(customerWebhooks(withVerification[withVerification.length - 1], withVerification))).toEqual([{ type: 'VERIFICATION.RESOLVE_ERRORS', data: verification }]);

    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    const funded = await fund(testApp.platform.api, USD.id, 1_000);
    const accountStream = await events.readStream(streamNameFor(USD.id));
    expect(onWire(accountWebhooks(accountStream[1], accountStream))).toEqual([{ type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', data: funded }]);
    const fundingTransaction = (await testApp.platform.api.get('/transactions').query({ accountId: USD.id }).expect(200)).body.data[0];
    const fundingStream = await events.readStream(streamNameFor(fundingTransaction.id));
    expect(onWire(accountWebhooks(fundingStream[0], fundingStream))).toEqual([{ type: 'INCOMING_PAYMENT.COMPLETED', data: fundingTransaction }]);

    const approved = await createIndividual(testApp.platform.api);
    const approvedUsd = (await accountsByCurrency(testApp.platform.api, approved.id)).USD;
    await fund(testApp.platform.api, approvedUsd.id, 1_000);
    const approvedExternal = await createUsdExternalAccount(testApp.platform.api, approved.id);
    const out = (await testApp.platform.api.post('/transfer-out').send({ source: { accountId: approvedUsd.id }, destination: { accountId: approvedExternal.id }, amount: 400 }).expect(201)).body;
    const completed = await eventually(async () => {
      const response = await testApp.platform.api.get(`/transactions/${out.id}`).expect(200);
      return response.body.status === 'COMPLETED' && response.body;
    });
    const transferStream = await events.readStream(streamNameFor(out.id));
    expect(transferStream.map((event) => event.type)).toEqual(['TransferOutRequested', 'TransferOutFundsHeld', 'TransferOutCompleted']);
    expect(accountWebhooks(transferStream[0], transferStream.slice(0, 1))).toEqual([]);
    expect(onWire(accountWebhooks(transferStream[1], transferStream.slice(0, 2)))).toEqual([{ type: 'OUTGOING_PAYMENT.PENDING', data: out }]);
    expect(onWire(accountWebhooks(transferStream[2], transferStream))).toEqual([{ type: 'OUTGOING_PAYMENT.COMPLETED', data: completed }]);
    const sourceStream = await events.readStream(streamNameFor(approvedUsd.id));
    expect(sourceStream.map((event) => event.type)).toEqual(['InternalAccountOpened', 'FundsCredited', 'FundsHeld', 'HoldSettled']);
    const finalAccount = (await testApp.platform.api.get(`/internal-accounts/${approvedUsd.id}`).expect(200)).body;
    expect(onWire(accountWebhooks(sourceStream[3], sourceStream))).toEqual([{ type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', data: finalAccount }]);
  });

  it('maps a failed transfer-out to FAILED and REFUND_PENDING (one event, keyed apart), its refund\'s end to REFUND_COMPLETED, each with the GET view of that moment', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const usd = (await accountsByCurrency(testApp.platform.api, customer.id)).USD;
    await fund(testApp.platform.api, usd.id, 1_000);
    const rejecting = await createUsdExternalAccount(testApp.platform.api, customer.id, '004');
    const out = (await testApp.platform.api.post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: rejecting.id }, amount: 400 }).expect(201)).body;
    const failed = await eventually(async () => {
      const response = await testApp.platform.api.get(`/transactions/${out.id}`).expect(200);
      return response.body.status === 'FAILED' && response.body;
    });
    const refunded = await eventually(async () => {
      const response = await testApp.platform.api.get(`/transactions/${out.id}`).expect(200);
      return response.body.refund?.status === 'COMPLETED' && response.body;
    });
    const stream = await events.readStream(streamNameFor(out.id));
    expect(stream.map((event) => event.type)).toEqual(['TransferOutRequested', 'TransferOutFundsHeld', 'TransferOutFailed', 'TransferOutRefundCompleted']);
    const key = `${out.id}:refund`;
    // GET may already show the refund completed when it first answers FAILED: compare with the refund as it started.
    const started = { ...refunded, refund: { ...failed.refund, status: 'PENDING' }, updatedAt: refunded.refund.initiatedAt };
    delete started.refund.settledAt;
    expect(onWire(accountWebhooks(stream[2], stream.slice(0, 3)))).toEqual([
      { type: 'OUTGOING_PAYMENT.FAILED', data: started },
      { type: 'OUTGOING_PAYMENT.REFUND_PENDING', data: started, key },
    ]);
    expect(onWire(accountWebhooks(stream[3], stream))).toEqual([{ type: 'OUTGOING_PAYMENT.REFUND_COMPLETED', data: refunded, key }]);
  });
});
