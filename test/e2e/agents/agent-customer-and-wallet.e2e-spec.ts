import { createIndividual, accountsByCurrency, createUsdExternalAccount, fund } from '../../support/customer-fixtures';
import { accountQuoteBody, fundedCustomer } from '../../support/quote-fixtures';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { actionPolicy, agentQuote, connectedAgent } from './agent-action-fixtures';

/**
 * Two edges of the agents' actions (docs/agents.md): an embedded wallet as the source is refused
 * when the action is submitted, and deleting the agent's customer deletes the customer's agents.
 */
describe('agents: embedded-wallet sources and the customer\'s deletion', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  it('executing a quote funded from an embedded wallet is 400 EMBEDDED_WALLET_SOURCE, nothing reserved or moved', async () => {
    const owner = await fundedCustomer(api(), 0);
    await fund(api(), owner.accounts.USDB.id, 20_000_000);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const { me } = await connectedAgent(testApp, owner.customer.id, actionPolicy());
    const quote = await agentQuote(me, owner.accounts.USDB.id, external.id, 1_000_000);

    const refused = await me.post(`/agents/me/quotes/${quote.id}/execute`).expect(400);
    expect(refused.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: "An agent cannot move money out of an embedded wallet: it needs the wallet owner's signature",
      details: { reason: 'EMBEDDED_WALLET_SOURCE', accountId: owner.accounts.USDB.id },
    });
    expect((await me.get('/agents/me/actions').expect(200)).body.totalCount).toBe(0);
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
    expect((await me.get(`/agents/me/quotes/${quote.id}`).expect(200)).body.status).toBe('PENDING');
  });

  it('deleting the customer deletes its agents: 404, token refused, pending actions off the approval list', async () => {
    const customer = await createIndividual(api());
    const { USD } = await accountsByCurrency(api(), customer.id);
    const external = await createUsdExternalAccount(api(), customer.id, '789');
    const { agent, me } = await connectedAgent(testApp, customer.id, actionPolicy());
    const body = { source: { accountId: external.id }, destination: { accountId: USD.id }, amount: 40_000 };
    const pending = (await me.post('/agents/me/transfer-in').send(body).expect(201)).body;
    expect(pending.status).toBe('PENDING_APPROVAL');

    await api().delete(`/customers/${customer.id}`).expect(200);

    await eventually(async () => (await api().get(`/agents/${agent.id}`)).status === 404);
    await me.get('/agents/me').expect(401);
    const approvals = (await api().get('/agents/approvals').query({ customerId: customer.id }).expect(200)).body;
    expect(approvals.totalCount).toBe(0);
    await api().post(`/agents/${agent.id}/actions/${pending.id}/approve`).expect(404);
    const history = (await api().get('/audit/events').query({ resourceId: agent.id }).expect(200)).body.data;
    const deletion = history.find((entry: any) => entry.type === 'AgentDeleted');
    expect(deletion.metadata.actor).toBe('system:agent-customer-deletion');
  });
});
