import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';
import { accountQuoteBody, fundedCustomer, quoteWithStatus, transactionWithStatus } from '../../support/quote-fixtures';
import { ONE_ACCOUNT_PER_TYPE } from './account-info-fixtures';

const NOT_FOUND = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'External account not found' };
const usdBank = (suffix = '789') => ({
  currency: 'USD',
  platformAccountId: `ops-${suffix}`,
  accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: `000123456${suffix}`, routingNumber: '021000021', beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'Acme Ltd' } },
});

/**
 * The platform's own accounts (issue 24 part 2, docs/accounts.md "The platform's own accounts"):
 * `GET /platform/internal-accounts`, and `/platform/external-accounts` created, listed, read and
 * deleted with the customers' command, checks and views, but no customer; they receive the
 * platform's own transfers and quotes. Every answer is checked against the reference.
 */
describe('platform accounts', () => {
  let testApp: TestApp;
  let other: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp();
    other = await testApp.createPlatform();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const create = (body: Record<string, unknown>) => api().post('/platform/external-accounts').send(body);
  const platformInternal = async (currency: string, platform = testApp.platform) =>
    eventually(async () => (await platform.api.get('/platform/internal-accounts').query({ currency }).expect(200)).body.data[0]);
  const historyOf = async (resourceId: string) => (await api().get('/audit/events').query({ resourceId, limit: 100 }).expect(200)).body.data;

  describe('GET /platform/internal-accounts', () => {
    it('lists the platform\'s own accounts only (no customerId), as GET /internal-accounts/{id} shows each, filtered by currency and type', async () => {
      await createIndividual(api());
      const all = await eventually(async () => {
        const listed = (await api().get('/platform/internal-accounts').expect(200)).body;
        return listed.data.length === 3 && listed;
      });
      expect(Object.keys(all)).toEqual(['data']);
      // Opened together, so ordered by id after their shared opening time.
      expect(all.data.map((account: any) => `${account.balance.currency.code}:${account.type}`).sort()).toEqual(['USD:INTERNAL_FIAT', 'USDB:INTERNAL_CRYPTO', 'USDC:INTERNAL_CRYPTO']);
      const byCurrency = Object.fromEntries(all.data.map((account: any) => [account.balance.currency.code, account.id]));
      for (const account of all.data) {
        expect(account).not.toHaveProperty('customerId');
        expect((await api().get(`/internal-accounts/${account.id}`).expect(200)).body).toEqual(account);
      }
      const usdc = (await api().get('/platform/internal-accounts').query({ currency: 'USDC' }).expect(200)).body.data;
      expect(usdc.map((account: any) => account.id)).toEqual([byCurrency.USDC]);
      const fiat = (await api().get('/platform/internal-accounts').query({ type: 'INTERNAL_FIAT' }).expect(200)).body.data;
      expect(fiat.map((account: any) => account.id)).toEqual([byCurrency.USD]);
      expect((await api().get('/platform/internal-accounts').query({ type: 'EMBEDDED_WALLET' }).expect(200)).body).toEqual({ data: [] });
      expect((await api().get('/platform/internal-accounts').query({ currency: 'JPY' }).expect(200)).body).toEqual({ data: [] });
    });

    it('400 INVALID_INPUT for a bad type or a parameter the operation does not take; another platform lists its own', async () => {
      const badType = await api().get('/platform/internal-accounts').query({ type: 'SAVINGS' }).expect(400);
      expect([badType.body.code, badType.body.details.errors[0].field]).toEqual(['INVALID_INPUT', 'type']);
      const unknown = await api().get('/platform/internal-accounts').query({ customerId: 'Customer:x' }).expect(400);
      expect(unknown.body.details.errors[0].field).toBe('customerId');
      const mine = (await platformInternal('USD')).id;
      const theirs = (await platformInternal('USD', other)).id;
      expect(theirs).not.toBe(mine);
      expect((await other.api.get('/platform/internal-accounts').expect(200)).body.data.map((account: any) => account.id)).not.toContain(mine);
    });
  });

  describe('/platform/external-accounts', () => {
    it('creates every account type the reference defines (201, no customerId), and GET reads each back under both paths', async () => {
      for (const [currency, accountInfo, rails] of ONE_ACCOUNT_PER_TYPE) {
        const response = await create({ currency, accountInfo });
        expect([accountInfo.accountType, response.status]).toEqual([accountInfo.accountType, 201]);
        expect(response.body).not.toHaveProperty('customerId');
        expect(response.body).toMatchObject({ status: 'ACTIVE', currency, trusted: false, defaultUmaDepositAccount: false });
        expect(response.body.accountInfo).toEqual({ ...accountInfo, paymentRails: rails });
        expect((await api().get(`/platform/external-accounts/${response.body.id}`).expect(200)).body).toEqual(response.body);
        expect((await api().get(`/customers/external-accounts/${response.body.id}`).expect(200)).body).toEqual(response.body);
      }
    });

    it('checks a platform account as a customer\'s: every bad field in one 400 (customerId and defaultUmaDepositAccount are no fields here), INVALID_BANK_ACCOUNT on a checksum', async () => {
      const response = await create({
        customerId: 'Customer:0195f0a0-0000-7000-8000-000000000000',
        defaultUmaDepositAccount: true,
        currency: 'usd',
        ownershipType: 'OURS',
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '', routingNumber: '021000021' },
      }).expect(400);
      expect(response.body.code).toBe('INVALID_INPUT');
      expect(response.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(
        ['accountInfo.accountNumber', 'accountInfo.beneficiary', 'currency', 'customerId', 'defaultUmaDepositAccount', 'ownershipType'].sort(),
      );
      const checksum = await create({ ...usdBank(), accountInfo: { ...usdBank().accountInfo, routingNumber: '021000022' } }).expect(400);
      expect(checksum.body).toEqual({
        status: 400,
        code: 'INVALID_BANK_ACCOUNT',
        message: 'The account identifiers are not valid',
        details: { errors: [{ field: 'accountInfo.routingNumber', constraint: { format: 'aba-routing-number' }, message: 'routingNumber fails the ABA checksum' }] },
      });
      // The sandbox's receiving institution refuses an account number ending in 105 (docs/sandbox.md).
      const invalid = await create(usdBank('105')).expect(400);
      expect(invalid.body.code).toBe('INVALID_BANK_ACCOUNT');
    });

    it('POST /customers/external-accounts without customerId creates the platform\'s own account (the reference\'s rule); a UMA default needs a customer', async () => {
      const created = await api().post('/customers/external-accounts').send(usdBank('456')).expect(201);
      expect(created.body).not.toHaveProperty('customerId');
      expect((await api().get(`/platform/external-accounts/${created.body.id}`).expect(200)).body).toEqual(created.body);
      const uma = await api().post('/customers/external-accounts').send({ ...usdBank('457'), defaultUmaDepositAccount: true }).expect(400);
      expect(uma.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['defaultUmaDepositAccount']);
    });

    it('lists the platform\'s own accounts only, oldest first, by currency and page; a customer\'s account is 404 under /platform', async () => {
      const platform = await testApp.createPlatform();
      const customer = await createIndividual(platform.api);
      const customers = await createUsdExternalAccount(platform.api, customer.id);
      const first = (await platform.api.post('/platform/external-accounts').send(usdBank('111')).expect(201)).body;
      const second = (await platform.api.post('/platform/external-accounts').send({ currency: 'USDC', accountInfo: { accountType: 'BASE_WALLET', address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e' } }).expect(201)).body;
      const page1 = (await platform.api.get('/platform/external-accounts').query({ limit: 1 }).expect(200)).body;
      expect(page1).toEqual({ data: [first], hasMore: true, nextCursor: expect.any(String), totalCount: 2 });
      const page2 = (await platform.api.get('/platform/external-accounts').query({ limit: 1, cursor: page1.nextCursor }).expect(200)).body;
      expect(page2).toEqual({ data: [second], hasMore: false, totalCount: 2 });
      expect((await platform.api.get('/platform/external-accounts').query({ currency: 'USDC' }).expect(200)).body.data).toEqual([second]);
      // Under /customers every account of the platform is listed, as /internal-accounts lists both.
      expect((await platform.api.get('/customers/external-accounts').expect(200)).body.data.map((account: any) => account.id)).toEqual([customers.id, first.id, second.id]);
      expect((await platform.api.get(`/platform/external-accounts/${customers.id}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await platform.api.delete(`/platform/external-accounts/${customers.id}`).expect(404)).body).toEqual(NOT_FOUND);
      await platform.api.get(`/customers/external-accounts/${customers.id}`).expect(200);
      const badQuery = await platform.api.get('/platform/external-accounts').query({ customerId: customer.id }).expect(400);
      expect(badQuery.body.details.errors[0].field).toBe('customerId');
    });

    it('DELETE: 204, then 404 for GET and DELETE; the history names who did each step', async () => {
      const account = (await create(usdBank('222')).expect(201)).body;
      await api().delete(`/platform/external-accounts/${account.id}`).expect(204);
      expect((await api().get(`/platform/external-accounts/${account.id}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await api().delete(`/platform/external-accounts/${account.id}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await api().get('/platform/external-accounts').query({ limit: 100 }).expect(200)).body.data.map((entry: any) => entry.id)).not.toContain(account.id);
      const history = await historyOf(account.id);
      expect(history.map((entry: any) => [entry.type, entry.metadata.actor])).toEqual([
        ['ExternalAccountCreated', `platform:${testApp.platform.clientId}`],
        ['ExternalAccountDeleted', `platform:${testApp.platform.clientId}`],
      ]);
    });

    it('another platform\'s ids answer 404 and change nothing; a malformed id is 404 too (GET and DELETE declare no 400)', async () => {
      const account = (await create(usdBank('333')).expect(201)).body;
      expect((await other.api.get(`/platform/external-accounts/${account.id}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await other.api.delete(`/platform/external-accounts/${account.id}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await other.api.get('/platform/external-accounts').expect(200)).body.data).toEqual([]);
      expect((await api().get(`/platform/external-accounts/${account.id}`).expect(200)).body).toEqual(account);
      expect((await api().get('/platform/external-accounts/not-an-id').expect(404)).body).toEqual(NOT_FOUND);
      expect((await api().delete('/platform/external-accounts/ExternalAccount:nope').expect(404)).body).toEqual(NOT_FOUND);
    });
  });

  describe('the platform pays its own external accounts', () => {
    it('transfer-out from its internal account settles; a customer\'s internal account cannot pay it', async () => {
      const source = await platformInternal('USD');
      await fund(api(), source.id, 50_000);
      const destination = (await create(usdBank('444')).expect(201)).body;
      const transfer = await api().post('/transfer-out').send({ source: { accountId: source.id }, destination: { accountId: destination.id }, amount: 12_345 }).expect(201);
      expect(transfer.body).toMatchObject({ status: 'PENDING', customerId: testApp.platform.platformId, destination: expect.objectContaining({ accountId: destination.id }) });
      await transactionWithStatus(api(), transfer.body.id, 'COMPLETED');

      const payer = await fundedCustomer(api(), 20_000);
      const refused = await api().post('/transfer-out').send({ source: { accountId: payer.usd.id }, destination: { accountId: destination.id }, amount: 1_000 }).expect(400);
      expect(refused.body.details.errors).toEqual([{ field: 'destination.accountId', constraint: {}, message: "The external account is the platform's own, not the customer's" }]);
    });

    it('a quote from its internal account needs no customerId to pay its own account (on its own behalf); a customer\'s account still needs one', async () => {
      const source = await platformInternal('USD');
      await fund(api(), source.id, 50_000);
      const destination = (await create(usdBank('555')).expect(201)).body;
      const quote = (await api().post('/quotes').send(accountQuoteBody(source.id, destination.id, 2_000)).expect(201)).body;
      expect(quote.source).toEqual({ sourceType: 'ACCOUNT', accountId: source.id });
      await api().post(`/quotes/${quote.id}/execute`).expect(200);
      await quoteWithStatus(api(), quote.id, 'COMPLETED');

      const customer = await createIndividual(api());
      const customers = await createUsdExternalAccount(api(), customer.id);
      const fbo = await api().post('/quotes').send(accountQuoteBody(source.id, customers.id, 2_000)).expect(400);
      expect(fbo.body.details.errors).toEqual([{ field: 'source.customerId', constraint: {}, message: 'source.customerId is required when funding from a platform (FBO) account' }]);
      const onBehalf = await api().post('/quotes').send(accountQuoteBody(source.id, destination.id, 2_000, { source: { sourceType: 'ACCOUNT', accountId: source.id, customerId: customer.id } })).expect(400);
      expect(onBehalf.body.details.errors[0].field).toBe('destination.accountId');
    });
  });
});
