import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { createBusiness, createIndividual, fund } from '../../support/customer-fixtures';
import { AccountsLedger } from '../../../src/accounts/ledger/accounts-ledger';
import { InternalAccountProvisioner, customerAccountId, customerAccountType } from '../../../src/accounts/provisioning/internal-account-provisioner';
import { CustomerLifecycleHooks } from '../../../src/customers/customer-lifecycle-hooks';
import { customerDecider } from '../../../src/customers/domain/customer/customer.decider';
import { comparePositions } from '../../../src/infra/event-store/event-store.port';
import { CommandStore } from '../../../src/infra/commands/command-store';
import { CUSTOMER_STREAM } from '../../../src/customers/streams';
import { streamNameFor } from '../../../src/infra/ids';

const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };
const USDB = { code: 'USDB', name: 'USDB', symbol: 'USDB', decimals: 6 };

/** `GET /internal-accounts`, `GET /customers/internal-accounts`, `GET /internal-accounts/{id}` and provisioning. */
describe('internal accounts', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('a new customer has one account per supported currency at once (USD, USDC, and an EMBEDDED_WALLET in USDB)', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const response = await testApp.platform.api.get('/customers/internal-accounts').query({ customerId: customer.id }).expect(200);
    expect(response.body.totalCount).toBe(3);
    expect(response.body.hasMore).toBe(false);
    const byCurrency = Object.fromEntries(response.body.data.map((account: any) => [account.balance.currency.code, account]));
    expect(Object.keys(byCurrency).sort()).toEqual(['USD', 'USDB', 'USDC']);
    expect(byCurrency.USD).toEqual({
      id: expect.stringMatching(/^InternalAccount:[0-9a-f-]{36}$/),
      customerId: customer.id,
      type: 'INTERNAL_FIAT',
      status: 'ACTIVE',
      balance: { amount: 0, currency: USD },
      totalBalance: { amount: 0, currency: USD },
      fundingPaymentInstructions: [
        {
          accountOrWalletInfo: {
            accountType: 'USD_ACCOUNT',
            accountNumber: expect.stringMatching(/^\d{10}$/),
            routingNumber: '021000021',
            bankName: 'Sandbox Bank',
            paymentRails: ['ACH', 'WIRE', 'RTP'],
            reference: expect.stringMatching(/^FUND-[0-9A-F]{10}$/),
          },
          instructionsNotes: expect.any(String),
          isPlatformAccount: false,
        },
      ],
      createdAt: customer.createdAt,
      updatedAt: customer.createdAt,
    });
    expect(byCurrency.USDC.type).toBe('INTERNAL_CRYPTO');
    expect(byCurrency.USDB).toEqual(expect.objectContaining({ type: 'EMBEDDED_WALLET', balance: { amount: 0, currency: USDB } }));
    const same = await testApp.platform.api.get('/internal-accounts').query({ customerId: customer.id }).expect(200);
    expect(same.body).toEqual(response.body);
    const wallets = await testApp.platform.api.get('/internal-accounts').query({ customerId: customer.id, type: 'EMBEDDED_WALLET' }).expect(200);
    expect(wallets.body.data).toEqual([byCurrency.USDB]);
    const one = await testApp.platform.api.get(`/internal-accounts/${byCurrency.USD.id}`).expect(200);
    expect(one.body).toEqual(byCurrency.USD);
    // `currency` is any code (a string in the reference): one without an account lists nothing.
    const yen = await testApp.platform.api.get('/customers/internal-accounts').query({ customerId: customer.id, currency: 'JPY' }).expect(200);
    expect(yen.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    const usdOnly = await testApp.platform.api.get('/customers/internal-accounts').query({ customerId: customer.id, currency: 'USD' }).expect(200);
    expect(usdOnly.body.data).toEqual([byCurrency.USD]);
  });

  it('businesses get accounts too', async () => {
    const business = await createBusiness(testApp.platform.api);
    const response = await testApp.platform.api.get('/internal-accounts').query({ customerId: business.id }).expect(200);
    expect(response.body.totalCount).toBe(3);
  });

  it('follows the platform\'s supported currencies: no USDB, no embedded wallet', async () => {
    const platform = await testApp.createPlatform({
      supportedCurrencies: ['USD', 'USDC', 'EUR'].map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000, requiredCounterpartyFields: [] })),
    });
    const customer = await createIndividual(platform.api);
    const response = await platform.api.get('/internal-accounts').query({ customerId: customer.id }).expect(200);
    const summary = response.body.data.map((account: any) => `${account.balance.currency.code}:${account.type}`).sort();
    expect(summary).toEqual(['EUR:INTERNAL_FIAT', 'USD:INTERNAL_FIAT', 'USDC:INTERNAL_CRYPTO']);
  });

  it('provisions platform-owned accounts (no customerId), and more when a currency is added', async () => {
    const platform = await testApp.createPlatform();
    const platformAccounts = async () => {
      const all = await platform.api.get('/internal-accounts').query({ limit: 100 }).expect(200);
      return all.body.data.filter((account: any) => account.customerId === undefined);
    };
    const initial = await eventually(async () => {
      const accounts = await platformAccounts();
      return accounts.length === 3 && accounts;
    });
    expect(initial.map((account: any) => `${account.balance.currency.code}:${account.type}`).sort()).toEqual([
      'USD:INTERNAL_FIAT', 'USDB:INTERNAL_CRYPTO', 'USDC:INTERNAL_CRYPTO',
    ]);
    expect(initial.every((account: any) => !('customerId' in account))).toBe(true);
    await platform.api
      .patch('/config')
      .send({ supportedCurrencies: ['USD', 'USDC', 'USDB', 'EUR'].map((currencyCode) => ({ currencyCode })) })
      .expect(200);
    const after = await eventually(async () => {
      const accounts = await platformAccounts();
      return accounts.length === 4 && accounts;
    });
    expect(after.map((account: any) => account.balance.currency.code).sort()).toEqual(['EUR', 'USD', 'USDB', 'USDC']);
  });

  it('a currency added by PATCH /config opens an account in it for every existing customer, once', async () => {
    const currencies = (codes: string[]) => codes.map((currencyCode) => ({ currencyCode }));
    const platform = await testApp.createPlatform({
      supportedCurrencies: ['USD'].map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000, requiredCounterpartyFields: [] })),
    });
    const first = await createIndividual(platform.api);
    const second = await createBusiness(platform.api);
    const gone = await createIndividual(platform.api);
    await platform.api.delete(`/customers/${gone.id}`).expect(200);
    const summary = async (customerId: string) => {
      const response = await platform.api.get('/internal-accounts').query({ customerId }).expect(200);
      return response.body.data.map((account: any) => `${account.balance.currency.code}:${account.type}`).sort().join(',');
    };
    expect(await summary(first.id)).toBe('USD:INTERNAL_FIAT');

    await platform.api.patch('/config').send({ supportedCurrencies: currencies(['USD', 'EUR', 'USDB']) }).expect(200);
    const expected = 'EUR:INTERNAL_FIAT,USD:INTERNAL_FIAT,USDB:EMBEDDED_WALLET';
    for (const customer of [first, second]) {
      await eventually(async () => (await summary(customer.id)) === expected);
    }
    const later = await createIndividual(platform.api);
    expect(await summary(later.id)).toBe(expected);
    // The embedded wallet opened for an existing customer gets its EMAIL_OTP credential too.
    const wallet = (await platform.api.get('/internal-accounts').query({ customerId: first.id, type: 'EMBEDDED_WALLET' }).expect(200)).body.data[0];
    const credentials = await eventually(async () => {
      const response = await platform.api.get('/auth/credentials').query({ accountId: wallet.id });
      return response.status === 200 && response.body.data.length > 0 && response.body.data;
    });
    expect(credentials.map((credential: { type: string }) => credential.type)).toEqual(['EMAIL_OTP']);

    // Re-sending the same list, or removing and re-adding a currency, opens nothing twice.
    await platform.api.patch('/config').send({ supportedCurrencies: currencies(['USD', 'EUR', 'USDB']) }).expect(200);
    await platform.api.patch('/config').send({ supportedCurrencies: currencies(['USD', 'USDB']) }).expect(200);
    await platform.api.patch('/config').send({ supportedCurrencies: currencies(['USD', 'USDB', 'EUR']) }).expect(200);
    const marker = await createIndividual(platform.api);
    await eventually(async () => (await summary(marker.id)) === expected);
    // The deleted customer's history shows no account opened after its deletion.
    expect(await summary(gone.id)).toBe('USD:INTERNAL_FIAT');
    for (const customer of [first, second, later]) {
      await eventually(async () => (await summary(customer.id)) === expected);
      const all = await platform.api.get('/internal-accounts').query({ customerId: customer.id }).expect(200);
      expect(all.body.totalCount).toBe(3);
    }
  });

  /**
   * Whether a deleted customer may get an account is decided on the customer's stream, never from
   * a read model: the late paths below are what the reactors do when they run behind (the
   * customer-lifecycle reactor re-running a creation, the customer-currency-accounts reactor
   * working from a customers read model that has not seen the deletion yet).
   */
  describe('a deleted customer gets no new account', () => {
    const usdOnly = () =>
      testApp.createPlatform({
        supportedCurrencies: ['USD'].map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000, requiredCounterpartyFields: [] })),
      });
    const currenciesOf = async (platform: TestPlatform, customerId: string) => {
      const response = await platform.api.get('/internal-accounts').query({ customerId }).expect(200);
      return response.body.data.map((account: any) => account.balance.currency.code).sort();
    };
    const historyOf = async (platform: TestPlatform, resourceId: string) =>
      (await platform.api.get('/audit/events').query({ resourceId, limit: 100 }).expect(200)).body.data.map((entry: { type: string }) => entry.type);

    it('deleted, then a currency added: the late creation re-run and a stale candidate list open nothing', async () => {
      const platform = await usdOnly();
      const gone = await createIndividual(platform.api);
      await platform.api.delete(`/customers/${gone.id}`).expect(200);
      await platform.api.patch('/config').send({ supportedCurrencies: ['USD', 'EUR', 'USDB'].map((currencyCode) => ({ currencyCode })) }).expect(200);
      // The customer-lifecycle reactor re-running CustomerCreated now (it reads today's currencies).
      await testApp.app.get(CustomerLifecycleHooks).runCustomerCreated({
        platformId: platform.platformId, customerId: gone.id, customerType: 'INDIVIDUAL', createdAt: gone.createdAt,
      });
      // The customer-currency-accounts reactor with the deleted customer among its candidates.
      await testApp.app.get(InternalAccountProvisioner).provisionCustomerCurrencies({
        platformId: platform.platformId, customerId: gone.id, currencies: ['EUR', 'USDB'], openedAt: new Date().toISOString(),
      });
      expect(await currenciesOf(platform, gone.id)).toEqual(['USD']);
      await platform.api.get(`/internal-accounts/${customerAccountId(gone.id, 'EUR')}`).expect(404);
      expect(await historyOf(platform, gone.id)).toEqual(['CustomerCreated', 'CustomerKycStatusChanged', 'CustomerInternalAccountsOpened', 'CustomerDeleted']);
    });

    it('a deletion landing between the read and the commit of a provisioning makes the commit fail', async () => {
      const platform = await usdOnly();
      const customer = await createIndividual(platform.api);
      const commands = testApp.app.get(CommandStore);
      const events = commands.events;
      const ledger = testApp.app.get(AccountsLedger);
      const eur = {
        platformId: platform.platformId, accountId: customerAccountId(customer.id, 'EUR'), customerId: customer.id,
        accountType: customerAccountType('EUR'), currency: 'EUR', openedAt: customer.createdAt,
      };
      // 1. The provisioning reads the customer, active, and decides.
      const read = await commands.load(CUSTOMER_STREAM, streamNameFor(customer.id));
      const decided = customerDecider.decide({ type: 'OpenInternalAccounts', accounts: [{ accountId: eur.accountId, currency: 'EUR' }], now: eur.openedAt }, read.state);
      expect(decided.map((event) => event.type)).toEqual(['CustomerInternalAccountsOpened']);
      // 2. The deletion commits.
      await platform.api.delete(`/customers/${customer.id}`).expect(200);
      // 3. The provisioning's commit, at the revision it read: refused whole, nothing written.
      const outcome = await ledger.openAllWith([eur], { streamName: streamNameFor(customer.id), events: decided, expectedRevision: read.revision as number });
      expect(outcome).toEqual({ kind: 'declined', reason: 'COMPANION_CONFLICT' });
      expect(await ledger.unopened([eur.accountId])).toEqual([eur.accountId]);
      // 4. Its next round reads the deletion and opens nothing.
      await testApp.app.get(InternalAccountProvisioner).provisionCustomerCurrencies({ platformId: platform.platformId, customerId: customer.id, currencies: ['EUR'], openedAt: eur.openedAt });
      expect(await currenciesOf(platform, customer.id)).toEqual(['USD']);
      expect(await historyOf(platform, customer.id)).toEqual(['CustomerCreated', 'CustomerKycStatusChanged', 'CustomerInternalAccountsOpened', 'CustomerDeleted']);
    });

    it('opened first, deleted after: the account stays (closed with the customer), its opening recorded before the deletion', async () => {
      const platform = await usdOnly();
      const customer = await createIndividual(platform.api);
      await testApp.app.get(InternalAccountProvisioner).provisionCustomerCurrencies({
        platformId: platform.platformId, customerId: customer.id, currencies: ['EUR'], openedAt: customer.createdAt,
      });
      await platform.api.delete(`/customers/${customer.id}`).expect(200);
      expect(await currenciesOf(platform, customer.id)).toEqual(['EUR', 'USD']);
      const eur = await eventually(async () => {
        const read = await platform.api.get(`/internal-accounts/${customerAccountId(customer.id, 'EUR')}`).expect(200);
        return read.body.status === 'CLOSED' && read.body;
      });
      expect(eur).toEqual(expect.objectContaining({ customerId: customer.id, status: 'CLOSED', type: 'INTERNAL_FIAT' }));
      expect(await historyOf(platform, customer.id)).toEqual([
        'CustomerCreated', 'CustomerKycStatusChanged', 'CustomerInternalAccountsOpened', 'CustomerInternalAccountsOpened', 'CustomerDeleted',
      ]);
    });

    it('deletions racing provisionings: an account exists only if it was opened in one commit with its record, before the deletion', async () => {
      const platform = await usdOnly();
      const commands = testApp.app.get(CommandStore);
      const events = commands.events;
      const provisioner = testApp.app.get(InternalAccountProvisioner);
      const customers = await Promise.all(Array.from({ length: 8 }, () => createIndividual(platform.api)));
      await Promise.all(
        customers.flatMap((customer) => [
          platform.api.delete(`/customers/${customer.id}`).expect(200),
          provisioner.provisionCustomerCurrencies({ platformId: platform.platformId, customerId: customer.id, currencies: ['EUR', 'USDB'], openedAt: customer.createdAt }),
        ]),
      );
      for (const customer of customers) {
        const stream = await events.readStream(streamNameFor(customer.id));
        const deletion = stream.find((event) => event.type === 'CustomerDeleted')!;
        expect(deletion).toBeDefined();
        const records = stream.filter((event) => event.type === 'CustomerInternalAccountsOpened');
        for (const currency of ['EUR', 'USDB']) {
          const opened = (await events.readStream(streamNameFor(customerAccountId(customer.id, currency))))[0];
          const record = records.find((event) => (event.data.accounts as Array<{ currency: string }>).some((account) => account.currency === currency));
          if (!opened) {
            expect(record).toBeUndefined();
            continue;
          }
          expect(record).toBeDefined();
          expect(opened.position.commit).toBe(record!.position.commit);
          expect(record!.revision).toBeLessThan(deletion.revision);
          expect(comparePositions(opened.position, deletion.position)).toBeLessThan(0);
        }
        // Whatever the order, nothing more opens afterwards.
        await provisioner.provisionCustomerCurrencies({ platformId: platform.platformId, customerId: customer.id, currencies: ['EUR', 'USDB', 'USDC'], openedAt: customer.createdAt });
        await platform.api.get(`/internal-accounts/${customerAccountId(customer.id, 'USDC')}`).expect(404);
      }
    });
  });

  it('customers created while PATCH /config adds a currency all end up with an account in it', async () => {
    const platform = await testApp.createPlatform({
      supportedCurrencies: ['USD'].map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000, requiredCounterpartyFields: [] })),
    });
    const creations = Array.from({ length: 12 }, () => createIndividual(platform.api));
    const patch = platform.api.patch('/config').send({ supportedCurrencies: [{ currencyCode: 'USD' }, { currencyCode: 'EUR' }] }).expect(200);
    const [customers] = await Promise.all([Promise.all(creations), patch]);
    for (const customer of customers) {
      await eventually(async () => {
        const response = await platform.api.get('/internal-accounts').query({ customerId: customer.id, currency: 'EUR' }).expect(200);
        return response.body.totalCount === 1;
      });
    }
  });

  it('paginates with hasMore, nextCursor and totalCount', async () => {
    const platform = await testApp.createPlatform();
    await createIndividual(platform.api);
    await createIndividual(platform.api);
    const page1 = await platform.api.get('/internal-accounts').query({ type: 'INTERNAL_FIAT', limit: 1 }).expect(200);
    expect(page1.body.data).toHaveLength(1);
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.totalCount).toBeGreaterThanOrEqual(2);
    const page2 = await platform.api.get('/internal-accounts').query({ type: 'INTERNAL_FIAT', limit: 1, cursor: page1.body.nextCursor }).expect(200);
    expect(page2.body.data[0].id).not.toBe(page1.body.data[0].id);
  });

  it('balances come from the ledger: funding shows in balance and totalBalance', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const accounts = await testApp.platform.api.get('/internal-accounts').query({ customerId: customer.id, currency: 'USD' }).expect(200);
    const account = accounts.body.data[0];
    const funded = await fund(testApp.platform.api, account.id, 12_345);
    expect(funded.balance.amount).toBe(12_345);
    expect(funded.totalBalance.amount).toBe(12_345);
    const read = await testApp.platform.api.get(`/internal-accounts/${account.id}`).expect(200);
    expect(read.body).toEqual(funded);
  });

  it('400 for bad filters, malformed ids; 404 for unknown or another platform\'s account', async () => {
    const bad = await testApp.platform.api.get('/internal-accounts').query({ customerId: 'nope', type: 'SAVINGS', currency: 'TOOLONGCODE', sort: 'x' }).expect(400);
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['currency', 'customerId', 'sort', 'type']);
    await testApp.platform.api.get('/internal-accounts/nope').expect(400);
    const unknown = await testApp.platform.api.get('/internal-accounts/InternalAccount:01900000-0000-7000-8000-000000000000').expect(404);
    expect(unknown.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Internal account not found' });
    const customer = await createIndividual(testApp.platform.api);
    const mine = await testApp.platform.api.get('/internal-accounts').query({ customerId: customer.id }).expect(200);
    const other = await testApp.createPlatform();
    expect((await other.api.get(`/internal-accounts/${mine.body.data[0].id}`).expect(404)).body).toEqual(unknown.body);
    const theirs = await other.api.get('/internal-accounts').query({ customerId: customer.id }).expect(200);
    expect(theirs.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('every ledger movement is in the account\'s audit history', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const accounts = await testApp.platform.api.get('/internal-accounts').query({ customerId: customer.id, currency: 'USD' }).expect(200);
    const account = accounts.body.data[0];
    await fund(testApp.platform.api, account.id, 100);
    const history = await testApp.platform.api.get('/audit/events').query({ resourceId: account.id }).expect(200);
    expect(history.body.data.map((entry: { type: string }) => entry.type)).toEqual(['InternalAccountOpened', 'FundsCredited']);
    expect(history.body.data[1].data).toEqual(expect.objectContaining({ amount: 100, available: 100, held: 0, reason: 'SANDBOX_FUNDING' }));
  });
});
