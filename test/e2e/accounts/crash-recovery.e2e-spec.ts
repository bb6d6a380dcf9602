import { AccountsLedger } from '../../../src/accounts/ledger/accounts-ledger';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { newId, streamNameFor } from '../../../src/infra/ids';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { accountsByCurrency, createIndividual, createUsdExternalAccount, fund, uniqueId } from '../../support/customer-fixtures';

/**
 * A request that dies after its first append leaves the flow half done: the reactors finish it.
 * Each case appends what such a request would have left, then watches the service complete it.
 */
describe('multi-stream steps survive a request dying half way', () => {
  let testApp: TestApp;
  let events: EventStoreService;

  beforeAll(async () => {
    testApp = await startTestApp();
    events = testApp.app.get(EventStoreService);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const platformMetadata = () => ({ platformId: testApp.platform.platformId, actor: 'test:crashed-request' });

  it('a customer appended without its accounts gets them from the customer-lifecycle reactor', async () => {
    const customerId = newId('Customer');
    const now = new Date().toISOString();
    const ref = { customerId, platformId: testApp.platform.platformId };
    await events.append(
      streamNameFor(customerId),
      [
        {
          type: 'CustomerCreated',
          data: {
            ...ref,
            customerType: 'INDIVIDUAL',
            platformCustomerId: uniqueId(),
            umaAddress: `$${uniqueId().toLowerCase()}@uma.sandbox.payments.local`,
            profile: {
              region: null, email: null, phoneNumber: null, address: null, fullName: 'Half Done', birthDate: null, nationality: null,
              taxIdType: null, taxIdentifier: null, businessInfo: null, beneficialOwners: [],
            },
            createdAt: now,
          },
        },
        { type: 'CustomerKycStatusChanged', data: { ...ref, previousStatus: null, kycStatus: 'APPROVED', verificationId: null, changedAt: now } },
      ],
      'no_stream',
      platformMetadata(),
    );
    const accounts = await eventually(async () => {
      const response = await testApp.platform.api.get('/internal-accounts').query({ customerId }).expect(200);
      return response.body.totalCount === 3 && response.body.data;
    });
    expect(accounts.map((account: any) => account.createdAt)).toEqual([now, now, now]);
  });

  it('a transfer-out recorded but never held is held and settled by the transfer-process reactor', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    await fund(testApp.platform.api, USD.id, 5_000);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id, '789');
    const transactionId = newId('Transaction');
    await events.append(
      streamNameFor(transactionId),
      [
        {
          type: 'TransferOutRequested',
          data: {
            transactionId,
            platformId: testApp.platform.platformId,
            customerId: customer.id,
            platformCustomerId: customer.platformCustomerId,
            sourceAccountId: USD.id,
            destinationAccountId: external.id,
            paymentRail: 'ACH',
            currency: 'USD',
            amount: 1_200,
            counterpartySuffix: '789',
            requestedAt: new Date().toISOString(),
          },
        },
      ],
      'no_stream',
      platformMetadata(),
    );
    const done = await eventually(async () => {
      const response = await testApp.platform.api.get(`/transactions/${transactionId}`);
      return response.status === 200 && response.body.status === 'COMPLETED' && response.body;
    });
    expect(done.sentAmount.amount).toBe(1_200);
    const account = (await testApp.platform.api.get(`/internal-accounts/${USD.id}`).expect(200)).body;
    expect([account.balance.amount, account.totalBalance.amount]).toEqual([3_800, 3_800]);
  });

  it('a transfer-out failed with its refund PENDING by a process that died then: the refund completes, the hold given back once', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    await fund(testApp.platform.api, USD.id, 5_000);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id, '004');
    const transactionId = newId('Transaction');
    const ref = { transactionId, platformId: testApp.platform.platformId };
    const at = new Date().toISOString();
    await testApp.app.get(AccountsLedger).hold({ platformId: ref.platformId, accountId: USD.id, holdId: transactionId, amount: 1_200, reference: transactionId });
    await events.append(
      streamNameFor(transactionId),
      [
        {
          type: 'TransferOutRequested',
          data: {
            ...ref, customerId: customer.id, platformCustomerId: customer.platformCustomerId, sourceAccountId: USD.id, destinationAccountId: external.id,
            paymentRail: 'ACH', currency: 'USD', amount: 1_200, counterpartySuffix: '004', requestedAt: at,
          },
        },
        { type: 'TransferOutFundsHeld', data: { ...ref, holdId: transactionId, heldAt: at } },
        {
          type: 'TransferOutFailed',
          data: { ...ref, failureReason: 'BANK_REJECTED', failedAt: at, refund: { reference: `${transactionId}:refund`, initiatedAt: at, settledAt: null, status: 'PENDING', reason: 'BANK_REJECTED' } },
        },
      ],
      'no_stream',
      platformMetadata(),
    );
    const refunded = await eventually(async () => {
      const response = await testApp.platform.api.get(`/transactions/${transactionId}`);
      return response.status === 200 && response.body.refund?.status === 'COMPLETED' && response.body;
    });
    expect(refunded).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_CANNOT_RECEIVE', refund: { initiatedAt: at, settledAt: expect.any(String) } });
    const account = (await testApp.platform.api.get(`/internal-accounts/${USD.id}`).expect(200)).body;
    expect([account.balance.amount, account.totalBalance.amount]).toEqual([5_000, 5_000]);
    const ledger = await events.readStream(streamNameFor(USD.id));
    expect(ledger.filter((event) => event.type === 'HoldReleased')).toHaveLength(1);
  });

  it('a transfer-out recorded for more than the balance is rejected by the reactor, holding nothing', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id, '789');
    const transactionId = newId('Transaction');
    await events.append(
      streamNameFor(transactionId),
      [
        {
          type: 'TransferOutRequested',
          data: {
            transactionId, platformId: testApp.platform.platformId, customerId: customer.id, platformCustomerId: customer.platformCustomerId,
            sourceAccountId: USD.id, destinationAccountId: external.id, paymentRail: 'ACH', currency: 'USD', amount: 1, counterpartySuffix: '789',
            requestedAt: new Date().toISOString(),
          },
        },
      ],
      'no_stream',
      platformMetadata(),
    );
    const types = await eventually(async () => {
      const recorded = await events.readStream(streamNameFor(transactionId));
      return recorded.length === 2 && recorded.map((event) => event.type);
    });
    expect(types).toEqual(['TransferOutRequested', 'TransferOutRejected']);
    await testApp.platform.api.get(`/transactions/${transactionId}`).expect(404);
  });

  it('a sandbox credit without its transaction gets the transaction from the reactor', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    const transactionId = newId('Transaction');
    await testApp.app.get(AccountsLedger).credit({
      platformId: testApp.platform.platformId,
      accountId: USD.id,
      movementId: transactionId,
      amount: 777,
      reason: 'SANDBOX_FUNDING',
      reference: transactionId,
    });
    const transaction = await eventually(async () => {
      const response = await testApp.platform.api.get(`/transactions/${transactionId}`);
      return response.status === 200 && response.body;
    });
    expect(transaction).toEqual(expect.objectContaining({ type: 'INCOMING', status: 'COMPLETED', customerId: customer.id, platformCustomerId: customer.platformCustomerId }));
    expect(transaction.receivedAmount.amount).toBe(777);
  });

  it('a hold that raced with a rejection is given back', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    await fund(testApp.platform.api, USD.id, 1_000);
    const transactionId = newId('Transaction');
    const now = new Date().toISOString();
    // The hold succeeded in one process while another recorded the rejection first.
    await testApp.app.get(AccountsLedger).hold({ platformId: testApp.platform.platformId, accountId: USD.id, holdId: transactionId, amount: 400 });
    await events.append(
      streamNameFor(transactionId),
      [
        {
          type: 'TransferOutRequested',
          data: {
            transactionId, platformId: testApp.platform.platformId, customerId: customer.id, platformCustomerId: customer.platformCustomerId,
            sourceAccountId: USD.id, destinationAccountId: 'ExternalAccount:01900000-0000-7000-8000-000000000000', paymentRail: 'ACH',
            currency: 'USD', amount: 400, counterpartySuffix: '789', requestedAt: now,
          },
        },
        { type: 'TransferOutRejected', data: { transactionId, platformId: testApp.platform.platformId, reason: 'INSUFFICIENT_FUNDS', rejectedAt: now } },
      ],
      'no_stream',
      platformMetadata(),
    );
    await eventually(async () => {
      const account = (await testApp.platform.api.get(`/internal-accounts/${USD.id}`).expect(200)).body;
      return account.balance.amount === 1_000 && account.totalBalance.amount === 1_000;
    });
  });
});
