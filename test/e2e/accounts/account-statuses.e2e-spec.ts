import { CommandBus } from '@nestjs/cqrs';
import { AdvanceTransferOut } from '../../../src/accounts/commands/advance-transfer-out';
import { CloseCustomerAccounts } from '../../../src/accounts/commands/close-customer-accounts';
import { TRANSFER_STREAM } from '../../../src/accounts/streams';
import { CommandStore } from '../../../src/infra/commands/command-store';
import { newId, streamNameFor } from '../../../src/infra/ids';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { accountsByCurrency, createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';
import { accountQuoteBody } from '../../support/quote-fixtures';

const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };

/**
 * Account statuses (docs/accounts.md, "Account statuses"): an external account is UNDER_REVIEW
 * while its beneficiary name check is pending, then ACTIVE; a deleted customer's internal accounts
 * are CLOSED and send nothing, while what was under way settles. Every change is an event in the
 * account's history and a webhook carrying the account as its GET shows it.
 */
describe('account statuses', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let other: TestPlatform;
  let otherReceiver: WebhookReceiver;

  beforeAll(async () => {
    // Settlements slow enough to delete a customer while its transfer is under way.
    testApp = await startTestApp({ env: { SANDBOX_SETTLEMENT_DELAY_MS: '1500' } });
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
    other = await testApp.createPlatform();
    otherReceiver = await WebhookReceiver.forPlatform(other.api);
  });

  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
    await otherReceiver?.close();
  });

  const api = () => testApp.platform.api;
  const historyOf = async (resourceId: string) =>
    (await api().get('/audit/events').query({ resourceId, limit: 100 }).expect(200)).body.data.map((entry: { type: string }) => entry.type);
  const webhookOf = (type: string, id: string, where: (data: any) => boolean = () => true) =>
    receiver.waitFor((entry) => entry.body.type === type && entry.body.data?.id === id && where(entry.body.data));
  const withStatus = (path: string, status: string) =>
    eventually(async () => {
      const response = await api().get(path).expect(200);
      return response.body.status === status && response.body;
    });

  describe('external accounts', () => {
    it('UNDER_REVIEW while the name check is PENDING (suffix 104), then ACTIVE, announced by EXTERNAL_ACCOUNT.STATUS_UPDATED', async () => {
      const customer = await createIndividual(api());
      const matched = await createUsdExternalAccount(api(), customer.id, '101');
      const account = await createUsdExternalAccount(api(), customer.id, '104');
      expect(account).toMatchObject({ status: 'UNDER_REVIEW', beneficiaryVerificationStatus: 'PENDING' });
      expect(matched).toMatchObject({ status: 'ACTIVE', beneficiaryVerificationStatus: 'MATCHED' });
      const listed = (await api().get('/customers/external-accounts').query({ customerId: customer.id }).expect(200)).body.data;
      expect(listed.map((entry: any) => [entry.id, entry.status])).toEqual([
        [matched.id, 'ACTIVE'],
        [account.id, 'UNDER_REVIEW'],
      ]);

      const webhook = await webhookOf('EXTERNAL_ACCOUNT.STATUS_UPDATED', account.id);
      expect(webhook.signatureValid).toBe(true);
      expect(webhook.body.data).toEqual({
        ...account,
        status: 'ACTIVE',
        beneficiaryVerificationStatus: 'MATCHED',
        beneficiaryVerifiedData: { fullName: 'Jane Doe' },
        updatedAt: expect.any(String),
      });
      expect(Date.parse(webhook.body.data.updatedAt)).toBeGreaterThan(Date.parse(account.createdAt));
      expect((await withStatus(`/customers/external-accounts/${account.id}`, 'ACTIVE'))).toEqual(webhook.body.data);
      expect(await historyOf(account.id)).toEqual(['ExternalAccountCreated', 'BeneficiaryVerificationResolved', 'ExternalAccountStatusChanged']);
      // Created ACTIVE: no status change, no webhook.
      expect(await historyOf(matched.id)).toEqual(['ExternalAccountCreated']);
      expect(receiver.received.filter((entry) => entry.body.data?.id === matched.id)).toEqual([]);
    });

    it('deleted while UNDER_REVIEW: the late answer changes nothing and announces nothing', async () => {
      const customer = await createIndividual(api());
      const deleted = await createUsdExternalAccount(api(), customer.id, '104');
      await api().delete(`/customers/external-accounts/${deleted.id}`).expect(204);
      const after = await createUsdExternalAccount(api(), customer.id, '104');
      await webhookOf('EXTERNAL_ACCOUNT.STATUS_UPDATED', after.id);
      expect(await historyOf(deleted.id)).toEqual(['ExternalAccountCreated', 'ExternalAccountDeleted']);
      expect(receiver.received.filter((entry) => entry.body.data?.id === deleted.id)).toEqual([]);
    });

    it('another platform\'s account is 404, and its status webhooks go to that platform only', async () => {
      const stranger = await createIndividual(other.api);
      const theirs = await createUsdExternalAccount(other.api, stranger.id, '104');
      const delivered = await otherReceiver.waitFor((entry) => entry.body.type === 'EXTERNAL_ACCOUNT.STATUS_UPDATED' && entry.body.data.id === theirs.id);
      expect(delivered.body.data.status).toBe('ACTIVE');
      const missing = await api().get(`/customers/external-accounts/${theirs.id}`).expect(404);
      expect(missing.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'External account not found' });
      expect(receiver.received.some((entry) => entry.body.data?.id === theirs.id)).toBe(false);
    });
  });

  describe('internal accounts of a deleted customer', () => {
    it('are CLOSED at the deletion, balances kept, each announced by INTERNAL_ACCOUNT.STATUS_UPDATED', async () => {
      const customer = await createIndividual(api());
      const kept = await createIndividual(api());
      const accounts = await accountsByCurrency(api(), customer.id);
      await fund(api(), accounts.USD.id, 5_000);
      const deleted = (await api().delete(`/customers/${customer.id}`).expect(200)).body;

      for (const account of Object.values(accounts)) {
        const closed = await withStatus(`/internal-accounts/${account.id}`, 'CLOSED');
        const webhook = await webhookOf('INTERNAL_ACCOUNT.STATUS_UPDATED', account.id);
        expect(webhook.signatureValid).toBe(true);
        expect(webhook.body.data).toEqual(closed);
        expect(closed.updatedAt).toBe(deleted.updatedAt);
      }
      expect((await api().get(`/internal-accounts/${accounts.USD.id}`).expect(200)).body).toEqual({
        ...accounts.USD,
        status: 'CLOSED',
        balance: { amount: 5_000, currency: USD },
        totalBalance: { amount: 5_000, currency: USD },
        updatedAt: deleted.updatedAt,
      });
      const listed = (await api().get('/customers/internal-accounts').query({ customerId: customer.id }).expect(200)).body;
      expect(listed.data.map((account: any) => account.status)).toEqual(['CLOSED', 'CLOSED', 'CLOSED']);
      expect(await historyOf(accounts.USD.id)).toEqual(['InternalAccountOpened', 'FundsCredited', 'InternalAccountStatusChanged']);

      // Other customers' and the platform's own accounts stay ACTIVE.
      const others = (await api().get('/customers/internal-accounts').query({ customerId: kept.id }).expect(200)).body.data;
      expect(others.map((account: any) => account.status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
      const all = (await api().get('/internal-accounts').query({ limit: 100 }).expect(200)).body.data;
      const platformAccounts = all.filter((account: any) => account.customerId === undefined);
      expect(platformAccounts.map((account: any) => account.status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);

      // Closing again (a replay of the reactor) records nothing.
      await testApp.app.get(CommandBus).execute(new CloseCustomerAccounts(testApp.platform.platformId, customer.id, deleted.updatedAt));
      expect(await historyOf(accounts.USD.id)).toEqual(['InternalAccountOpened', 'FundsCredited', 'InternalAccountStatusChanged']);
      expect(receiver.received.filter((entry) => entry.body.type === 'INTERNAL_ACCOUNT.STATUS_UPDATED' && entry.body.data.id === accounts.USD.id)).toHaveLength(1);

      // Another platform sees none of it.
      await other.api.get(`/internal-accounts/${accounts.USD.id}`).expect(404);
      expect(otherReceiver.received.some((entry) => entry.body.data?.id === accounts.USD.id)).toBe(false);
    });

    it('send nothing: a quote made before the deletion is refused at execution with 400 INVALID_INPUT (ACCOUNT_NOT_ACTIVE)', async () => {
      const customer = await createIndividual(api());
      const { USD: usd } = await accountsByCurrency(api(), customer.id);
      await fund(api(), usd.id, 50_000);
      const external = await createUsdExternalAccount(api(), customer.id);
      const quote = (await api().post('/quotes').send(accountQuoteBody(usd.id, external.id, 10_000)).expect(201)).body;
      await api().delete(`/customers/${customer.id}`).expect(200);
      await withStatus(`/internal-accounts/${usd.id}`, 'CLOSED');

      const refused = await api().post(`/quotes/${quote.id}/execute`).expect(400);
      expect(refused.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'The internal account is CLOSED: no payment may move from or to it',
        details: { reason: 'ACCOUNT_NOT_ACTIVE', accountId: usd.id, accountStatus: 'CLOSED' },
      });
      const account = (await api().get(`/internal-accounts/${usd.id}`).expect(200)).body;
      expect([account.balance.amount, account.totalBalance.amount]).toEqual([50_000, 50_000]);
      expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING');
      // The deleted customer itself is refused before any account is looked at.
      const transfer = await api().post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: external.id }, amount: 100 }).expect(404);
      expect(transfer.body).toEqual({ status: 404, code: 'USER_NOT_FOUND', message: 'Customer not found' });
    });

    it('receive no new payment: sandbox funding is 400 INVALID_INPUT (ACCOUNT_NOT_ACTIVE)', async () => {
      const customer = await createIndividual(api());
      const { USD: usd } = await accountsByCurrency(api(), customer.id);
      await api().delete(`/customers/${customer.id}`).expect(200);
      await withStatus(`/internal-accounts/${usd.id}`, 'CLOSED');
      const refused = await api().post(`/sandbox/internal-accounts/${usd.id}/fund`).send({ amount: 1_000 }).expect(400);
      expect(refused.body).toEqual({
        status: 400,
        code: 'INVALID_INPUT',
        message: 'The internal account is CLOSED: no payment may move from or to it',
        details: { reason: 'ACCOUNT_NOT_ACTIVE', accountId: usd.id, accountStatus: 'CLOSED' },
      });
      expect(await historyOf(usd.id)).toEqual(['InternalAccountOpened', 'InternalAccountStatusChanged']);
    });

    it('a transfer-out whose source closed after its request was checked is REJECTED with that refusal, nothing held', async () => {
      const customer = await createIndividual(api());
      const { USD: usd } = await accountsByCurrency(api(), customer.id);
      await fund(api(), usd.id, 5_000);
      const external = await createUsdExternalAccount(api(), customer.id);
      await api().delete(`/customers/${customer.id}`).expect(200);
      await withStatus(`/internal-accounts/${usd.id}`, 'CLOSED');
      // The request as recorded when its parties were checked, before the deletion (the
      // transfer-process reactor drives it too: whichever records the refusal, it is the answer).
      const transactionId = newId('Transaction');
      await testApp.app.get(CommandStore).handle(TRANSFER_STREAM, streamNameFor(transactionId), {
        type: 'RequestTransferOut',
        parties: {
          transactionId, platformId: testApp.platform.platformId, customerId: customer.id, platformCustomerId: customer.platformCustomerId,
          sourceAccountId: usd.id, destinationAccountId: external.id, paymentRail: 'ACH', currency: 'USD', amount: 1_000, counterpartySuffix: '789',
        },
        now: new Date().toISOString(),
      });
      const outcome = await testApp.app.get(CommandBus).execute(new AdvanceTransferOut(transactionId));
      expect(outcome.state.status).toBe('REJECTED');
      expect(outcome.refusal).toMatchObject({ code: 'INVALID_INPUT', details: { reason: 'ACCOUNT_NOT_ACTIVE', accountId: usd.id, accountStatus: 'CLOSED' } });
      expect((await api().get(`/internal-accounts/${usd.id}`).expect(200)).body).toMatchObject({ balance: { amount: 5_000 }, totalBalance: { amount: 5_000 } });
    });

    it('let a payment under way settle: its balance webhook shows the account CLOSED', async () => {
      const customer = await createIndividual(api());
      const { USD: usd } = await accountsByCurrency(api(), customer.id);
      await fund(api(), usd.id, 5_000);
      const external = await createUsdExternalAccount(api(), customer.id);
      const out = (await api().post('/transfer-out').send({ source: { accountId: usd.id }, destination: { accountId: external.id }, amount: 1_000 }).expect(201)).body;
      expect(out.status).toBe('PENDING');
      await api().delete(`/customers/${customer.id}`).expect(200);
      await withStatus(`/internal-accounts/${usd.id}`, 'CLOSED');

      await withStatus(`/transactions/${out.id}`, 'COMPLETED');
      expect(await historyOf(usd.id)).toEqual(['InternalAccountOpened', 'FundsCredited', 'FundsHeld', 'InternalAccountStatusChanged', 'HoldSettled']);
      const account = (await api().get(`/internal-accounts/${usd.id}`).expect(200)).body;
      expect(account).toMatchObject({ status: 'CLOSED', balance: { amount: 4_000 }, totalBalance: { amount: 4_000 } });
      const settled = await webhookOf('INTERNAL_ACCOUNT.BALANCE_UPDATED', usd.id, (data) => data.totalBalance.amount === 4_000);
      expect(settled.body.data).toEqual(account);
    });
  });
});
