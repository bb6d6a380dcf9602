import { accountsByCurrency, createIndividual } from '../../support/customer-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { AGENT_ID, DEVICE_CODE, ISO, createAgent, fieldsOf, fullPolicy, minimalPolicy } from './agent-fixtures';

/** Agent management with platform credentials: create, list, get, update, policy, delete. */
describe('agents: management', () => {
  let testApp: TestApp;
  let customer: any;
  let accounts: Record<string, any>;

  beforeAll(async () => {
    testApp = await startTestApp();
    customer = await createIndividual(testApp.platform.api);
    accounts = await accountsByCurrency(testApp.platform.api, customer.id);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  describe('POST /agents', () => {
    it('201: the agent (not paused, not connected, zero usage) and its first device code, valid 24 hours', async () => {
      const policy = fullPolicy({ accountRestrictions: { allowedAccountIds: [accounts.USD.id], accountRules: [{ accountId: accounts.USD.id, executionMode: 'APPROVAL_REQUIRED' }] } });
      const response = await api().post('/agents').send({ name: 'Payroll Automation Agent', customerId: customer.id, policy }).expect(201);
      const { agent, deviceCode } = response.body;
      const today = new Date();
      const tomorrow = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1)).toISOString().slice(0, 10);
      expect(agent).toEqual({
        id: expect.stringMatching(AGENT_ID),
        name: 'Payroll Automation Agent',
        customerId: customer.id,
        isPaused: false,
        isConnected: false,
        policy: {
          permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'],
          defaultExecutionMode: 'AUTO',
          spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 500_000, dailyTransactionLimit: 10 },
          // Null fields are left out: the rule inherits the per-transaction limit.
          accountRestrictions: { allowedAccountIds: [accounts.USD.id], accountRules: [{ accountId: accounts.USD.id, executionMode: 'APPROVAL_REQUIRED' }] },
          approvalThresholds: { currency: 'USD', amount: 100_000 },
        },
        usage: { dailyTransactionCount: 0, dailySpend: 0, dailyResetDate: tomorrow, monthlySpend: 0, monthlyResetMonth: expect.stringMatching(/^\d{4}-\d{2}$/) },
        createdAt: expect.stringMatching(ISO),
        updatedAt: agent.createdAt,
      });
      expect(deviceCode).toEqual({ code: expect.stringMatching(DEVICE_CODE), agentId: agent.id, expiresAt: expect.stringMatching(ISO), redeemed: false });
      expect(Date.parse(deviceCode.expiresAt) - Date.parse(agent.createdAt)).toBe(24 * 60 * 60 * 1000);
      expect((await api().get(`/agents/${agent.id}`).expect(200)).body).toEqual(agent);
    });

    it('400: every bad field at once, unknown ones included', async () => {
      const response = await api()
        .post('/agents')
        .send({
          name: '',
          customerId: 'Customer:nope',
          policy: {
            permissions: ['VIEW_TRANSACTIONS', 'FLY', 'VIEW_TRANSACTIONS'],
            defaultExecutionMode: 'SOMETIMES',
            spendingLimits: { currency: 'XYZ', perTransactionLimit: -1, dailyLimit: 1.5, monthlyLimit: '100' },
            accountRestrictions: { allowedAccountIds: ['Customer:0199a000-0000-7000-8000-000000000001'], accountRules: [{ accountId: 'x', executionMode: 'NEVER' }] },
            approvalThresholds: { amount: 100 },
          },
          extra: true,
        })
        .expect(400);
      expect(response.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      expect(fieldsOf(response.body)).toEqual([
        'customerId',
        'extra',
        'name',
        'policy.accountRestrictions.accountRules.0.executionMode',
        'policy.approvalThresholds.currency',
        'policy.defaultExecutionMode',
        'policy.permissions',
        'policy.spendingLimits.currency',
        'policy.spendingLimits.dailyLimit',
        'policy.spendingLimits.monthlyLimit',
        'policy.spendingLimits.perTransactionLimit',
      ]);
    });

    it('400: semantic policy checks listed together (ids, duplicates, a threshold amount without currency)', async () => {
      const response = await api()
        .post('/agents')
        .send({
          name: 'Agent',
          customerId: customer.id,
          policy: fullPolicy({
            permissions: ['VIEW_TRANSACTIONS', 'VIEW_TRANSACTIONS'],
            accountRestrictions: { allowedAccountIds: ['Customer:0199a000-0000-7000-8000-000000000001'], accountRules: [{ accountId: 'x' }] },
            approvalThresholds: { amount: 100 },
          }),
        })
        .expect(400);
      expect(fieldsOf(response.body)).toEqual([
        'policy.accountRestrictions.accountRules.0.accountId',
        'policy.accountRestrictions.allowedAccountIds.0',
        'policy.approvalThresholds.currency',
        'policy.permissions.1',
      ]);
    });

    it('400: required fields, and a body that is not an object', async () => {
      expect(fieldsOf((await api().post('/agents').send({}).expect(400)).body)).toEqual(['customerId', 'name', 'policy']);
      const noLimits = await api().post('/agents').send({ name: 'A', customerId: customer.id, policy: { permissions: [], defaultExecutionMode: 'AUTO', spendingLimits: {} } }).expect(400);
      expect(fieldsOf(noLimits.body)).toEqual(['policy.spendingLimits.currency', 'policy.spendingLimits.perTransactionLimit']);
      expect(fieldsOf((await api().post('/agents').set('Content-Type', 'application/json').send('[1]').expect(400)).body)).toEqual(['body']);
    });

    it("400: the customer must be this platform's and not deleted; the accounts the customer's own", async () => {
      const other = await testApp.createPlatform();
      const stranger = await createIndividual(other.api);
      const neighbour = await createIndividual(api());
      const neighbourAccounts = await accountsByCurrency(api(), neighbour.id);
      const strangerAccounts = await accountsByCurrency(other.api, stranger.id);
      const policy = fullPolicy({
        accountRestrictions: { allowedAccountIds: [accounts.USD.id, neighbourAccounts.USD.id], accountRules: [{ accountId: strangerAccounts.USD.id }] },
      });
      const mixed = await api().post('/agents').send({ name: 'A', customerId: customer.id, policy }).expect(400);
      expect(mixed.body.details.errors).toEqual([
        { field: 'policy.accountRestrictions.allowedAccountIds.1', constraint: {}, message: expect.stringContaining("not an internal account of the agent's customer") },
        { field: 'policy.accountRestrictions.accountRules.0.accountId', constraint: {}, message: expect.stringContaining('not an internal account of this platform') },
      ]);
      const strangers = await api().post('/agents').send({ name: 'A', customerId: stranger.id, policy: minimalPolicy() }).expect(400);
      expect(strangers.body.details.errors).toEqual([{ field: 'customerId', constraint: {}, message: 'No customer with this id exists' }]);
      await api().delete(`/customers/${neighbour.id}`).expect(200);
      const gone = await api().post('/agents').send({ name: 'A', customerId: neighbour.id, policy: minimalPolicy() }).expect(400);
      expect(gone.body.details.errors).toEqual([{ field: 'customerId', constraint: {}, message: 'The customer was deleted' }]);
    });
  });
  describe('GET /agents', () => {
    it('filters by customer, paused, connected and times; pages newest first with totalCount', async () => {
      const owner = await createIndividual(api());
      const first = (await createAgent(api(), owner.id, { name: 'first' })).agent;
      const second = (await createAgent(api(), owner.id, { name: 'second' })).agent;
      const third = (await createAgent(api(), owner.id, { name: 'third' })).agent;
      await api().patch(`/agents/${second.id}`).send({ isPaused: true }).expect(200);

      const page1 = (await api().get('/agents').query({ customerId: owner.id, limit: 2 }).expect(200)).body;
      expect(page1).toEqual({
        data: [third, { ...second, isPaused: true, updatedAt: expect.stringMatching(ISO) }],
        hasMore: true,
        nextCursor: expect.any(String),
        totalCount: 3,
      });
      const page2 = (await api().get('/agents').query({ customerId: owner.id, limit: 2, cursor: page1.nextCursor }).expect(200)).body;
      expect(page2).toEqual({ data: [first], hasMore: false, totalCount: 3 });

      const ids = async (query: Record<string, string>) => (await api().get('/agents').query({ customerId: owner.id, ...query }).expect(200)).body.data.map((agent: any) => agent.id);
      expect(await ids({ isPaused: 'true' })).toEqual([second.id]);
      expect(await ids({ isPaused: 'false' })).toEqual([third.id, first.id]);
      expect(await ids({ isConnected: 'true' })).toEqual([]);
      expect(await ids({ isConnected: 'false' })).toHaveLength(3);
      expect(await ids({ createdAfter: second.createdAt })).toEqual([third.id, second.id]);
      expect(await ids({ createdBefore: second.createdAt })).toEqual([second.id, first.id]);
      const paused = (await api().get(`/agents/${second.id}`).expect(200)).body;
      expect(await ids({ updatedAfter: paused.updatedAt })).toEqual([second.id]);
      expect(await ids({ updatedBefore: third.updatedAt })).toEqual([third.id, first.id]);
    });

    it("400: every bad parameter at once; another platform's agents are not listed", async () => {
      const response = await api().get('/agents').query({ customerId: 'nope', isPaused: 'maybe', createdAfter: 'yesterday', limit: '0', colour: 'red' }).expect(400);
      expect(fieldsOf(response.body)).toEqual(['colour', 'createdAfter', 'customerId', 'isPaused', 'limit']);
      const other = await testApp.createPlatform();
      expect((await other.api.get('/agents').expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    });
  });

  describe('GET, PATCH and DELETE /agents/{id}', () => {
    it("404 for an unknown, a malformed or another platform's id, on every operation", async () => {
      const { agent } = await createAgent(api(), customer.id);
      const other = await testApp.createPlatform();
      const unknown = 'Agent:0199a000-0000-7000-8000-0000000000a9';
      for (const [client, id] of [[api(), unknown], [other.api, agent.id]] as const) {
        expect((await client.get(`/agents/${id}`).expect(404)).body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Agent not found' });
        await client.patch(`/agents/${id}`).send({ name: 'x' }).expect(404);
        await client.patch(`/agents/${id}/policy`).send({ defaultExecutionMode: 'AUTO' }).expect(404);
        await client.post(`/agents/${id}/device-codes`).expect(404);
        await client.delete(`/agents/${id}`).expect(404);
      }
      await api().get('/agents/nope').expect(404);
      await api().delete('/agents/nope').expect(404);
      expect(fieldsOf((await api().patch('/agents/nope').send({ name: 'x' }).expect(400)).body)).toEqual(['agentId']);
      expect((await api().get(`/agents/${agent.id}`).expect(200)).body).toEqual(agent);
    });

    it('PATCH renames and pauses (updatedAt moves); at least one field; bad fields listed', async () => {
      const { agent } = await createAgent(api(), customer.id);
      const renamed = (await api().patch(`/agents/${agent.id}`).send({ name: 'Renamed', isPaused: true }).expect(200)).body;
      expect(renamed).toEqual({ ...agent, name: 'Renamed', isPaused: true, updatedAt: expect.stringMatching(ISO) });
      expect(Date.parse(renamed.updatedAt)).toBeGreaterThan(Date.parse(agent.updatedAt));
      const resumed = (await api().patch(`/agents/${agent.id}`).send({ isPaused: false }).expect(200)).body;
      expect(resumed.isPaused).toBe(false);
      // The same values again change nothing.
      expect((await api().patch(`/agents/${agent.id}`).send({ isPaused: false }).expect(200)).body).toEqual(resumed);
      expect(fieldsOf((await api().patch(`/agents/${agent.id}`).send({}).expect(400)).body)).toEqual(['body']);
      expect(fieldsOf((await api().patch(`/agents/${agent.id}`).send({ name: '', isPaused: 'yes', policy: {} }).expect(400)).body)).toEqual(['isPaused', 'name', 'policy']);
    });

    it('DELETE answers 204; the agent is then 404 everywhere and gone from the list', async () => {
      const { agent } = await createAgent(api(), customer.id);
      const response = await api().delete(`/agents/${agent.id}`).expect(204);
      expect(response.text).toBe('');
      await api().get(`/agents/${agent.id}`).expect(404);
      await api().delete(`/agents/${agent.id}`).expect(404);
      await api().patch(`/agents/${agent.id}`).send({ name: 'x' }).expect(404);
      const listed = (await api().get('/agents').query({ customerId: customer.id, limit: 100 }).expect(200)).body.data.map((item: any) => item.id);
      expect(listed).not.toContain(agent.id);
    });
  });

  describe('PATCH /agents/{id}/policy', () => {
    it('partial: omitted fields stay; spending limits merge field by field; null removes limits, restrictions, thresholds', async () => {
      const { agent } = await createAgent(api(), customer.id, { policy: fullPolicy({ spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 500_000, monthlyLimit: 5_000_000 } }) });
      const permissions = (await api().patch(`/agents/${agent.id}/policy`).send({ permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'] }).expect(200)).body;
      expect(permissions).toEqual({ ...agent, policy: { ...agent.policy, permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'] }, updatedAt: expect.stringMatching(ISO) });
      const limits = (await api().patch(`/agents/${agent.id}/policy`).send({ spendingLimits: { dailyLimit: null, dailyTransactionLimit: 3 } }).expect(200)).body;
      expect(limits.policy.spendingLimits).toEqual({ currency: 'USD', perTransactionLimit: 50_000, dailyTransactionLimit: 3, monthlyLimit: 5_000_000 });
      const restricted = (await api()
        .patch(`/agents/${agent.id}/policy`)
        .send({ approvalThresholds: null, accountRestrictions: { allowedAccountIds: [accounts.USD.id] }, defaultExecutionMode: 'APPROVAL_REQUIRED' })
        .expect(200)).body;
      expect(restricted.policy).toEqual({
        permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
        defaultExecutionMode: 'APPROVAL_REQUIRED',
        spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyTransactionLimit: 3, monthlyLimit: 5_000_000 },
        accountRestrictions: { allowedAccountIds: [accounts.USD.id], accountRules: [] },
      });
      // Effective at once: the next read shows it.
      expect((await api().get(`/agents/${agent.id}`).expect(200)).body).toEqual(restricted);
    });

    it('a new currency needs every amount limit restated; then it takes', async () => {
      const { agent } = await createAgent(api(), customer.id, { policy: fullPolicy() });
      const refused = await api().patch(`/agents/${agent.id}/policy`).send({ spendingLimits: { currency: 'EUR', perTransactionLimit: 40_000 } }).expect(400);
      expect(refused.body).toMatchObject({ code: 'INVALID_INPUT', details: { reason: 'LIMITS_NOT_RESTATED' } });
      expect(fieldsOf(refused.body)).toEqual(['spendingLimits.dailyLimit']);
      const changed = (await api().patch(`/agents/${agent.id}/policy`).send({ spendingLimits: { currency: 'EUR', perTransactionLimit: 40_000, dailyLimit: null } }).expect(200)).body;
      expect(changed.policy.spendingLimits).toEqual({ currency: 'EUR', perTransactionLimit: 40_000, dailyTransactionLimit: 10 });
    });

    it("400: no field, bad fields listed at once, another customer's account", async () => {
      const { agent } = await createAgent(api(), customer.id);
      expect(fieldsOf((await api().patch(`/agents/${agent.id}/policy`).send({}).expect(400)).body)).toEqual(['body']);
      const bad = await api()
        .patch(`/agents/${agent.id}/policy`)
        .send({ permissions: ['FLY'], spendingLimits: { currency: 'XYZ', perTransactionLimit: null, monthlyLimit: -5 }, approvalThresholds: { amount: 5 }, name: 'x' })
        .expect(400);
      expect(fieldsOf(bad.body)).toEqual(['approvalThresholds.currency', 'name', 'permissions', 'spendingLimits.currency', 'spendingLimits.monthlyLimit', 'spendingLimits.perTransactionLimit']);
      const neighbour = await createIndividual(api());
      const theirs = await accountsByCurrency(api(), neighbour.id);
      const foreign = await api().patch(`/agents/${agent.id}/policy`).send({ accountRestrictions: { accountRules: [{ accountId: theirs.USD.id, perTransactionLimit: 10 }] } }).expect(400);
      expect(fieldsOf(foreign.body)).toEqual(['accountRestrictions.accountRules.0.accountId']);
      expect((await api().get(`/agents/${agent.id}`).expect(200)).body).toEqual(agent);
    });
  });
});
