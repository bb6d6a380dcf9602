import { accountsByCurrency, createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';
import { PlatformClient, TestApp, TestPlatform, anonymousClient, startTestApp } from '../../support/test-app';
import { createAgent, fieldsOf, minimalPolicy, redeem } from './agent-fixtures';
import { approvedCardholder } from '../cards/card-fixtures';
import { authorize, fundedCard } from '../cards/card-simulate-support';

/**
 * The agent's reads and accounts (`/agents/me/internal-accounts`, `/external-accounts`,
 * `/transactions`): permissions, pause, account restrictions, and isolation between two customers
 * of one platform and a customer of another platform.
 */
describe('agents: the agent API reads and accounts', () => {
  let testApp: TestApp;
  let other: TestPlatform;
  let customer: any;
  let neighbour: any;
  let accounts: Record<string, any>;
  let neighbourAccounts: Record<string, any>;
  let payee: any;
  let neighbourPayee: any;
  let platformPayee: any;
  let foreignPayee: any;
  let foreignTransaction: string;
  const agents: Record<string, { id: string; as: PlatformClient }> = {};

  beforeAll(async () => {
    testApp = await startTestApp();
    other = await testApp.createPlatform();
    customer = await createIndividual(api());
    neighbour = await createIndividual(api());
    const foreigner = await createIndividual(other.api);
    accounts = await accountsByCurrency(api(), customer.id);
    neighbourAccounts = await accountsByCurrency(api(), neighbour.id);
    const foreignAccounts = await accountsByCurrency(other.api, foreigner.id);
    await fund(api(), accounts.USD.id, 10_000);
    await fund(api(), accounts[otherCurrency()].id, 20_000);
    await fund(api(), neighbourAccounts.USD.id, 30_000);
    await fund(other.api, foreignAccounts.USD.id, 40_000);
    foreignTransaction = (await other.api.get('/transactions').query({ customerId: foreigner.id }).expect(200)).body.data[0].id;
    payee = await createUsdExternalAccount(api(), customer.id, '789');
    neighbourPayee = await createUsdExternalAccount(api(), neighbour.id, '789');
    platformPayee = (await api().post('/platform/external-accounts').send(usdAccountBody()).expect(201)).body;
    foreignPayee = await createUsdExternalAccount(other.api, foreigner.id, '789');

    const everything = { permissions: ['VIEW_TRANSACTIONS', 'MANAGE_EXTERNAL_ACCOUNTS'] };
    agents.full = await installed(api(), customer.id, everything);
    agents.usdOnly = await installed(api(), customer.id, { permissions: ['VIEW_TRANSACTIONS'], accountRestrictions: { allowedAccountIds: [accounts.USD.id], accountRules: [] } });
    agents.bothAccounts = await installed(api(), customer.id, {
      permissions: ['VIEW_TRANSACTIONS'],
      accountRestrictions: { allowedAccountIds: [accounts.USD.id, accounts[otherCurrency()].id], accountRules: [] },
    });
    agents.nothing = await installed(api(), customer.id, { permissions: ['CREATE_TRANSFERS'] });
    agents.noAccounts = await installed(api(), customer.id, { permissions: ['VIEW_TRANSACTIONS'], accountRestrictions: { allowedAccountIds: [], accountRules: [] } });
    agents.neighbour = await installed(api(), neighbour.id, everything);
    agents.foreign = await installed(other.api, foreigner.id, everything);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const ids = (response: { body: { data: Array<{ id: string }> } }) => response.body.data.map((item) => item.id);
  /** A second currency the customer holds an internal account in (the fixtures open several). */
  const otherCurrency = () => Object.keys(accounts).find((code) => code !== 'USD')!;

  /** Creates an agent with `policy` over the minimal one and answers its id and a Bearer client. */
  async function installed(platformApi: PlatformClient, customerId: string, policy: Record<string, unknown>) {
    const { agent, deviceCode } = await createAgent(platformApi, customerId, { policy: { ...minimalPolicy(), ...policy } });
    const token = await redeem(testApp.baseUrl, deviceCode.code);
    const client = anonymousClient(testApp.baseUrl);
    const as: PlatformClient = {
      get: (path) => client.get(path).set('Authorization', `Bearer ${token}`),
      post: (path) => client.post(path).set('Authorization', `Bearer ${token}`),
      patch: (path) => client.patch(path).set('Authorization', `Bearer ${token}`),
      put: (path) => client.put(path).set('Authorization', `Bearer ${token}`),
      delete: (path) => client.delete(path).set('Authorization', `Bearer ${token}`),
    };
    return { id: agent.id as string, as };
  }

  function usdAccountBody(extra: Record<string, unknown> = {}) {
    return {
      currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456123', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Sam Lee' } },
      ...extra,
    };
  }

  describe('GET /agents/me/internal-accounts', () => {
    it("200: the customer's accounts exactly as the platform sees them, with filters and pages", async () => {
      const platformView = (await api().get('/customers/internal-accounts').query({ customerId: customer.id }).expect(200)).body;
      const all = await agents.full.as.get('/agents/me/internal-accounts').expect(200);
      expect(all.body).toEqual({ data: platformView.data, hasMore: false, totalCount: platformView.data.length });
      expect(ids(await agents.full.as.get('/agents/me/internal-accounts').query({ currency: 'USD' }).expect(200))).toEqual([accounts.USD.id]);
      const fiat = platformView.data.filter((account: any) => account.type === 'INTERNAL_FIAT').map((account: any) => account.id);
      expect(ids(await agents.full.as.get('/agents/me/internal-accounts').query({ type: 'INTERNAL_FIAT' }).expect(200))).toEqual(fiat);
      const paged: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await agents.full.as.get('/agents/me/internal-accounts').query({ limit: 1, ...(cursor ? { cursor } : {}) }).expect(200);
        expect(page.body.data).toHaveLength(1);
        expect(page.body.totalCount).toBe(platformView.data.length);
        paged.push(...ids(page));
        cursor = page.body.hasMore ? page.body.nextCursor : undefined;
      } while (cursor);
      expect(paged).toEqual(ids(all));
    });

    it('account restrictions: only the allowed accounts are listed, and counted; an empty list shows none', async () => {
      const usd = (await api().get(`/internal-accounts/${accounts.USD.id}`).expect(200)).body;
      expect((await agents.usdOnly.as.get('/agents/me/internal-accounts').expect(200)).body).toEqual({ data: [usd], hasMore: false, totalCount: 1 });
      expect((await agents.usdOnly.as.get('/agents/me/internal-accounts').query({ currency: otherCurrency() }).expect(200)).body.totalCount).toBe(0);
      const both = await agents.bothAccounts.as.get('/agents/me/internal-accounts').expect(200);
      expect(ids(both).sort()).toEqual([accounts.USD.id, accounts[otherCurrency()].id].sort());
      expect((await agents.noAccounts.as.get('/agents/me/internal-accounts').expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    });

    it('400: every bad parameter at once, a customer filter included', async () => {
      const response = await agents.full.as.get('/agents/me/internal-accounts').query({ type: 'SAVINGS', limit: 0, customerId: neighbour.id }).expect(400);
      expect(response.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      expect(fieldsOf(response.body)).toEqual(['customerId', 'limit', 'type']);
    });

    it('403 without VIEW_TRANSACTIONS (account balances), naming the permission; 401 without a token', async () => {
      const response = await agents.nothing.as.get('/agents/me/internal-accounts').expect(403);
      expect(response.body).toEqual({
        status: 403,
        code: 'FORBIDDEN',
        message: expect.any(String),
        details: { reason: 'AGENT_PERMISSION_MISSING', permission: 'VIEW_TRANSACTIONS' },
      });
      await anonymousClient(testApp.baseUrl).get('/agents/me/internal-accounts').expect(401);
      await api().get('/agents/me/internal-accounts').expect(401);
    });
  });

  describe('GET /agents/me/transactions', () => {
    it("200: the customer's transactions as GET /transactions?customerId= shows them; the reference's filters and pages", async () => {
      const platformView = (await api().get('/transactions').query({ customerId: customer.id }).expect(200)).body;
      expect(platformView.totalCount).toBe(2);
      expect((await agents.full.as.get('/agents/me/transactions').expect(200)).body).toEqual(platformView);
      const ascending = await agents.full.as.get('/agents/me/transactions').query({ sortOrder: 'asc' }).expect(200);
      expect(ids(ascending)).toEqual(ids({ body: platformView }).reverse());
      const first = await agents.full.as.get('/agents/me/transactions').query({ limit: 1 }).expect(200);
      const second = await agents.full.as.get('/agents/me/transactions').query({ limit: 1, cursor: first.body.nextCursor }).expect(200);
      expect([...ids(first), ...ids(second)]).toEqual(ids({ body: platformView }));
      expect(second.body.hasMore).toBe(false);
      expect(ids(await agents.full.as.get('/agents/me/transactions').query({ receiverAccountIdentifier: accounts.USD.id }).expect(200))).toHaveLength(1);
      expect((await agents.full.as.get('/agents/me/transactions').query({ type: 'OUTGOING' }).expect(200)).body.totalCount).toBe(0);
    });

    it('400 for a customer filter (not accepted) and every other bad parameter at once', async () => {
      const response = await agents.full.as.get('/agents/me/transactions').query({ customerId: customer.id, status: 'DONE', startDate: 'yesterday' }).expect(400);
      expect(fieldsOf(response.body)).toEqual(['customerId', 'startDate', 'status']);
    });

    it('account restrictions hide the transactions of other accounts, in lists, counts, pages and by id', async () => {
      const all = (await agents.full.as.get('/agents/me/transactions').expect(200)).body.data;
      const onUsd = all.filter((transaction: any) => transaction.destination.accountId === accounts.USD.id);
      const hidden = all.find((transaction: any) => transaction.destination.accountId !== accounts.USD.id);
      expect((await agents.usdOnly.as.get('/agents/me/transactions').expect(200)).body).toEqual({ data: onUsd, hasMore: false, totalCount: 1 });
      await agents.usdOnly.as.get(`/agents/me/transactions/${hidden.id}`).expect(404);
      expect((await agents.usdOnly.as.get(`/agents/me/transactions/${onUsd[0].id}`).expect(200)).body).toEqual(onUsd[0]);
      // Two allowed accounts: one list merged from both, paged by the same cursor.
      expect((await agents.bothAccounts.as.get('/agents/me/transactions').expect(200)).body).toEqual({ data: all, hasMore: false, totalCount: 2 });
      const first = await agents.bothAccounts.as.get('/agents/me/transactions').query({ limit: 1, sortOrder: 'asc' }).expect(200);
      expect(first.body).toMatchObject({ hasMore: true, totalCount: 2 });
      const second = await agents.bothAccounts.as.get('/agents/me/transactions').query({ limit: 1, sortOrder: 'asc', cursor: first.body.nextCursor }).expect(200);
      expect(second.body).toMatchObject({ hasMore: false, totalCount: 2 });
      expect([...ids(first), ...ids(second)]).toEqual(all.map((transaction: any) => transaction.id).reverse());
      expect((await agents.noAccounts.as.get('/agents/me/transactions').expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
      await agents.noAccounts.as.get(`/agents/me/transactions/${onUsd[0].id}`).expect(404);
    });

    it("GET /agents/me/transactions/{id}: the customer's own; another customer's, another platform's, a malformed id are 404", async () => {
      const own = (await api().get('/transactions').query({ customerId: customer.id }).expect(200)).body.data[0];
      expect((await agents.full.as.get(`/agents/me/transactions/${own.id}`).expect(200)).body).toEqual(own);
      const neighbours = (await api().get('/transactions').query({ customerId: neighbour.id }).expect(200)).body.data[0];
      for (const id of [neighbours.id, foreignTransaction, 'Transaction:nope', 'nope']) {
        const response = await agents.full.as.get(`/agents/me/transactions/${id}`).expect(404);
        expect(response.body).toMatchObject({ status: 404, code: 'TRANSACTION_NOT_FOUND' });
      }
      expect((await agents.neighbour.as.get(`/agents/me/transactions/${neighbours.id}`).expect(200)).body).toEqual(neighbours);
      expect(ids(await agents.neighbour.as.get('/agents/me/transactions').expect(200))).toEqual([neighbours.id]);
      expect(ids(await agents.foreign.as.get('/agents/me/transactions').expect(200))).toEqual([foreignTransaction]);
    });

    it('403 without VIEW_TRANSACTIONS, for the list and one transaction', async () => {
      const own = (await api().get('/transactions').query({ customerId: customer.id }).expect(200)).body.data[0];
      for (const path of ['/agents/me/transactions', `/agents/me/transactions/${own.id}`]) {
        const response = await agents.nothing.as.get(path).expect(403);
        expect(response.body.details).toEqual({ reason: 'AGENT_PERMISSION_MISSING', permission: 'VIEW_TRANSACTIONS' });
      }
    });
  });

  describe("the customer's card transactions", () => {
    it('are listed and read like GET /transactions shows them, within the account restrictions', async () => {
      const holder = await approvedCardholder(api());
      const card = await fundedCard(api(), holder, 5_000);
      const transactionId = await authorize(api(), card.id, 1_250);
      const platformView = (await api().get('/transactions').query({ customerId: holder.customer.id }).expect(200)).body;
      expect(platformView.data.map((row: any) => row.type)).toEqual(['CARD', 'INCOMING']);
      const cardholderAgent = await installed(api(), holder.customer.id, { permissions: ['VIEW_TRANSACTIONS'] });
      expect((await cardholderAgent.as.get('/agents/me/transactions').expect(200)).body).toEqual(platformView);
      const cardRow = (await api().get(`/transactions/${transactionId}`).expect(200)).body;
      expect((await cardholderAgent.as.get(`/agents/me/transactions/${transactionId}`).expect(200)).body).toEqual(cardRow);
      // Paging past the card row continues with the funding.
      const first = await cardholderAgent.as.get('/agents/me/transactions').query({ limit: 1 }).expect(200);
      const second = await cardholderAgent.as.get('/agents/me/transactions').query({ limit: 1, cursor: first.body.nextCursor }).expect(200);
      expect([...ids(first), ...ids(second)]).toEqual(platformView.data.map((row: any) => row.id));
      // An agent allowed only another account sees neither, by list or by id.
      const restricted = await installed(api(), holder.customer.id, {
        permissions: ['VIEW_TRANSACTIONS'],
        accountRestrictions: { allowedAccountIds: [holder.accounts.USDC.id], accountRules: [] },
      });
      expect((await restricted.as.get('/agents/me/transactions').expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
      await restricted.as.get(`/agents/me/transactions/${transactionId}`).expect(404);
      // Another customer's agent does not see it.
      await agents.full.as.get(`/agents/me/transactions/${transactionId}`).expect(404);
    });
  });

  describe('/agents/me/external-accounts', () => {
    it("GET lists the customer's accounts only: not another customer's, the platform's own or another platform's", async () => {
      const response = await agents.full.as.get('/agents/me/external-accounts').expect(200);
      expect(response.body).toEqual({ data: [payee], hasMore: false, totalCount: 1 });
      expect((await agents.full.as.get('/agents/me/external-accounts').query({ currency: 'EUR' }).expect(200)).body.totalCount).toBe(0);
      expect(ids(await agents.neighbour.as.get('/agents/me/external-accounts').expect(200))).toEqual([neighbourPayee.id]);
      expect(ids(await agents.foreign.as.get('/agents/me/external-accounts').expect(200))).toEqual([foreignPayee.id]);
      expect(fieldsOf((await agents.full.as.get('/agents/me/external-accounts').query({ customerId: customer.id }).expect(400)).body)).toEqual(['customerId']);
    });

    it("GET /{id}: the customer's own; another customer's, the platform's own, another platform's and malformed ids are 404", async () => {
      expect((await agents.full.as.get(`/agents/me/external-accounts/${payee.id}`).expect(200)).body).toEqual(payee);
      for (const id of [neighbourPayee.id, platformPayee.id, foreignPayee.id, 'ExternalAccount:nope']) {
        const response = await agents.full.as.get(`/agents/me/external-accounts/${id}`).expect(404);
        expect(response.body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
      }
    });

    it("POST adds an account for the agent's customer through the platform's command, recorded as the agent's", async () => {
      const created = await agents.full.as.post('/agents/me/external-accounts').send(usdAccountBody()).expect(201);
      expect(created.body).toMatchObject({ id: expect.stringMatching(/^ExternalAccount:/), customerId: customer.id, currency: 'USD' });
      expect((await api().get(`/customers/external-accounts/${created.body.id}`).expect(200)).body).toEqual(created.body);
      const history = (await api().get('/audit/events').query({ resourceId: created.body.id }).expect(200)).body;
      const creation = history.data.find((entry: any) => entry.type === 'ExternalAccountCreated');
      expect(creation.metadata.actor).toBe(`agent:${agents.full.id}`);
      // Naming its own customer is the same request.
      const named = await agents.full.as.post('/agents/me/external-accounts').send(usdAccountBody({ customerId: customer.id })).expect(201);
      expect(named.body.customerId).toBe(customer.id);
      await agents.full.as.delete(`/agents/me/external-accounts/${created.body.id}`).expect(204);
      await agents.full.as.delete(`/agents/me/external-accounts/${named.body.id}`).expect(204);
    });

    it("POST 400: another customer named, with every other bad field at once, as the platform's route validates", async () => {
      const body = { ...usdAccountBody({ customerId: neighbour.id, extra: 1 }), currency: 'EUR' };
      const response = await agents.full.as.post('/agents/me/external-accounts').send(body).expect(400);
      expect(response.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      expect(fieldsOf(response.body)).toEqual(['currency', 'customerId', 'extra']);
      const platformAnswer = await api().post('/customers/external-accounts').send({ ...body, customerId: customer.id }).expect(400);
      expect(fieldsOf(platformAnswer.body)).toEqual(['currency', 'extra']);
      expect(ids(await agents.full.as.get('/agents/me/external-accounts').expect(200))).toEqual([payee.id]);
    });

    it("DELETE removes the customer's own account; another customer's or platform's is 404 and stays", async () => {
      const doomed = await createUsdExternalAccount(api(), customer.id, '456');
      await agents.full.as.delete(`/agents/me/external-accounts/${doomed.id}`).expect(204);
      await agents.full.as.get(`/agents/me/external-accounts/${doomed.id}`).expect(404);
      await api().get(`/customers/external-accounts/${doomed.id}`).expect(404);
      for (const id of [neighbourPayee.id, platformPayee.id, foreignPayee.id, doomed.id, 'nope']) {
        await agents.full.as.delete(`/agents/me/external-accounts/${id}`).expect(404);
      }
      await api().get(`/customers/external-accounts/${neighbourPayee.id}`).expect(200);
      await api().get(`/platform/external-accounts/${platformPayee.id}`).expect(200);
      await other.api.get(`/customers/external-accounts/${foreignPayee.id}`).expect(200);
    });

    it('403 without MANAGE_EXTERNAL_ACCOUNTS on all four routes, naming it', async () => {
      const answers = [
        await agents.usdOnly.as.get('/agents/me/external-accounts').expect(403),
        await agents.usdOnly.as.post('/agents/me/external-accounts').send(usdAccountBody()).expect(403),
        await agents.usdOnly.as.get(`/agents/me/external-accounts/${payee.id}`).expect(403),
        await agents.usdOnly.as.delete(`/agents/me/external-accounts/${payee.id}`).expect(403),
      ];
      for (const answer of answers) expect(answer.body.details).toEqual({ reason: 'AGENT_PERMISSION_MISSING', permission: 'MANAGE_EXTERNAL_ACCOUNTS' });
      await api().get(`/customers/external-accounts/${payee.id}`).expect(200);
    });
  });

  describe('pause and policy changes', () => {
    it('a paused agent reads (accounts, transactions, external accounts) but adds and deletes nothing', async () => {
      await api().patch(`/agents/${agents.full.id}`).send({ isPaused: true }).expect(200);
      try {
        await agents.full.as.get('/agents/me/internal-accounts').expect(200);
        await agents.full.as.get('/agents/me/transactions').expect(200);
        await agents.full.as.get(`/agents/me/external-accounts/${payee.id}`).expect(200);
        const refusals = [
          await agents.full.as.post('/agents/me/external-accounts').send(usdAccountBody()).expect(403),
          await agents.full.as.delete(`/agents/me/external-accounts/${payee.id}`).expect(403),
        ];
        for (const refusal of refusals) expect(refusal.body).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'AGENT_PAUSED' } });
        expect(ids(await agents.full.as.get('/agents/me/external-accounts').expect(200))).toEqual([payee.id]);
      } finally {
        await api().patch(`/agents/${agents.full.id}`).send({ isPaused: false }).expect(200);
      }
    });

    it('a policy change applies to the next request', async () => {
      const { id, as } = agents.bothAccounts;
      await api().patch(`/agents/${id}/policy`).send({ permissions: ['CREATE_TRANSFERS'] }).expect(200);
      await as.get('/agents/me/transactions').expect(403);
      await api().patch(`/agents/${id}/policy`).send({ permissions: ['VIEW_TRANSACTIONS'], accountRestrictions: null }).expect(200);
      expect((await as.get('/agents/me/internal-accounts').expect(200)).body.totalCount).toBe(Object.keys(accounts).length);
    });
  });
});
