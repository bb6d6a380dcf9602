import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { balances, fundedCustomer } from '../../support/quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { ACTION_ID, actionPolicy, agentQuote, connectedAgent } from './agent-action-fixtures';

/**
 * The platform's decisions on its agents' actions: the approval list, approve (the operation
 * runs; FAILED when it cannot), reject (usage released), races between decisions, the
 * `AGENT_ACTION.PENDING_APPROVAL` webhook, `POST /transactions/{id}/approve|reject` for the
 * transaction a pending quote execution covers, tenancy and the audit history's actors.
 */
describe('agents: approvals', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const platformActor = () => `platform:${testApp.platform.clientId}`;

  /** An agent that needs approval for everything, and one pending transfer-out of `amount`. */
  async function pendingTransfer(amount = 5_000, funds = 100_000) {
    const owner = await fundedCustomer(api(), funds);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const { agent, me } = await connectedAgent(testApp, owner.customer.id, actionPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
    const body = { source: { accountId: owner.usd.id }, destination: { accountId: external.id }, amount };
    const action = (await me.post('/agents/me/transfer-out').send(body).expect(201)).body;
    expect(action).toEqual(expect.objectContaining({ id: expect.stringMatching(ACTION_ID), status: 'PENDING_APPROVAL' }));
    return { owner, external, agent, me, action };
  }

  it('lists pending actions (filters, sortOrder); approve runs the transfer (200 APPROVED with its transaction)', async () => {
    const { owner, agent, me, action } = await pendingTransfer();
    const listed = (await api().get('/agents/approvals').query({ agentId: agent.id }).expect(200)).body;
    expect(listed).toEqual({ data: [action], hasMore: false, totalCount: 1 });
    expect((await api().get('/agents/approvals').query({ customerId: owner.customer.id, sortOrder: 'asc' }).expect(200)).body.data).toEqual([action]);
    const bad = await api().get('/agents/approvals').query({ agentId: 'nope', sortOrder: 'up' }).expect(400);
    expect(bad.body.details.errors.map((error: any) => error.field).sort()).toEqual(['agentId', 'sortOrder']);

    const approved = (await api().post(`/agents/${agent.id}/actions/${action.id}/approve`).expect(200)).body;
    expect(approved).toEqual({ ...action, status: 'APPROVED', transaction: expect.objectContaining({ type: 'OUTGOING' }), updatedAt: expect.any(String) });
    expect((await balances(api(), owner.usd.id)).available).toBe(95_000);
    expect((await me.get(`/agents/me/actions/${action.id}`).expect(200)).body).toEqual(approved);
    expect((await api().get('/agents/approvals').query({ agentId: agent.id }).expect(200)).body.totalCount).toBe(0);

    const again = await api().post(`/agents/${agent.id}/actions/${action.id}/approve`).expect(409);
    expect(again.body).toEqual({ status: 409, code: 'CONFLICT', message: 'The action is not pending approval', details: { status: 'APPROVED' } });
    const history = (await api().get('/audit/events').query({ resourceId: action.id }).expect(200)).body.data;
    expect(history.map((entry: any) => [entry.type, entry.metadata.actor])).toEqual([
      ['AgentActionSubmitted', `agent:${agent.id}`],
      ['AgentActionApproved', platformActor()],
      ['AgentActionExecuted', platformActor()],
    ]);
  });

  it('reject keeps the money, releases the usage and records the reason; deciding again is 409', async () => {
    const { owner, agent, me, action } = await pendingTransfer();
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: 5_000, dailyTransactionCount: 1 });
    const rejected = (await api().post(`/agents/${agent.id}/actions/${action.id}/reject`).send({ reason: 'Not this week' }).expect(200)).body;
    expect(rejected).toEqual({ ...action, status: 'REJECTED', rejectionReason: 'Not this week', updatedAt: expect.any(String) });
    expect((await balances(api(), owner.usd.id)).available).toBe(100_000);
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
    await api().post(`/agents/${agent.id}/actions/${action.id}/reject`).expect(409);
    await api().post(`/agents/${agent.id}/actions/${action.id}/approve`).expect(409);
    const history = (await api().get('/audit/events').query({ resourceId: action.id }).expect(200)).body.data;
    expect(history.map((entry: any) => entry.type)).toEqual(['AgentActionSubmitted', 'AgentActionRejected']);
    expect(history[1].data).toMatchObject({ reason: 'Not this week', rejectedBy: platformActor() });
  });

  it('a concurrent approve and reject: exactly one wins', async () => {
    const { agent, action } = await pendingTransfer();
    const answers = await Promise.all([
      api().post(`/agents/${agent.id}/actions/${action.id}/approve`),
      api().post(`/agents/${agent.id}/actions/${action.id}/reject`),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
  });

  it('approval of an action the funds no longer cover: 200 FAILED with the reason, usage released', async () => {
    const { owner, external, agent, me, action } = await pendingTransfer(5_000, 6_000);
    await api().post('/transfer-out').send({ source: { accountId: owner.usd.id }, destination: { accountId: external.id }, amount: 4_000 }).expect(201);
    const failed = (await api().post(`/agents/${agent.id}/actions/${action.id}/approve`).expect(200)).body;
    expect(failed).toEqual({ ...action, status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS', updatedAt: expect.any(String) });
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
  });

  it('a pending quote execution: the webhook, then POST /transactions/{id}/approve executes it', async () => {
    const owner = await fundedCustomer(api(), 100_000);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const { me } = await connectedAgent(testApp, owner.customer.id);
    const quote = await agentQuote(me, owner.usd.id, external.id, 40_000);
    const action = (await me.post(`/agents/me/quotes/${quote.id}/execute`).expect(200)).body;
    expect(action.status).toBe('PENDING_APPROVAL');
    const webhook = await receiver.waitFor((entry) => entry.body.type === 'AGENT_ACTION.PENDING_APPROVAL' && entry.body.data.id === action.id);
    expect(webhook.body.data).toEqual(action);
    expect(webhook.signatureValid).toBe(true);

    const transaction = (await api().post(`/transactions/${quote.transactionId}/approve`).expect(200)).body;
    expect(transaction).toEqual(expect.objectContaining({ id: quote.transactionId, type: 'OUTGOING' }));
    expect((await me.get(`/agents/me/actions/${action.id}`).expect(200)).body).toEqual(expect.objectContaining({ status: 'APPROVED', transaction: expect.objectContaining({ id: quote.transactionId }) }));
    expect((await balances(api(), owner.usd.id)).available).toBe(100_000 - quote.totalSendingAmount);
    expect((await api().post(`/transactions/${quote.transactionId}/approve`).expect(409)).body.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
  });

  it('POST /transactions/{id}/reject rejects the pending action covering it', async () => {
    const owner = await fundedCustomer(api(), 100_000);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const { me } = await connectedAgent(testApp, owner.customer.id);
    const quote = await agentQuote(me, owner.usd.id, external.id, 40_000);
    const action = (await me.post(`/agents/me/quotes/${quote.id}/execute`).expect(200)).body;
    const pendingQuoteTransaction = (await api().post(`/transactions/${quote.transactionId}/reject`).send({ reason: 'No' }).expect(200)).body;
    expect(pendingQuoteTransaction).toEqual(expect.objectContaining({ id: quote.transactionId, status: 'PENDING' }));
    expect((await me.get(`/agents/me/actions/${action.id}`).expect(200)).body).toEqual(expect.objectContaining({ status: 'REJECTED', rejectionReason: 'No' }));
    expect((await balances(api(), owner.usd.id)).available).toBe(100_000);
  });

  it("another platform's agent action is 404; malformed ids are 400 naming each", async () => {
    const { agent, action } = await pendingTransfer();
    const other = await testApp.createPlatform();
    const notFound = await other.api.post(`/agents/${agent.id}/actions/${action.id}/approve`).expect(404);
    expect(notFound.body.code).toBe('REFERENCE_NOT_FOUND');
    await other.api.post(`/agents/${agent.id}/actions/${action.id}/reject`).expect(404);
    expect((await other.api.get('/agents/approvals').expect(200)).body.totalCount).toBe(0);
    await other.api.get('/audit/events').query({ resourceId: action.id }).expect(404);
    const bad = await api().post('/agents/x/actions/y/approve').expect(400);
    expect(bad.body.details.errors.map((error: any) => error.field)).toEqual(['agentId', 'actionId']);
    expect((await api().get('/agents/approvals').query({ agentId: agent.id }).expect(200)).body.data).toEqual([action]);
  });
});

/** Approval after the quote expired, on an app whose quotes live one second. */
describe('agents: approving an expired quote', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SANDBOX_QUOTE_LIFETIME_MS: '1000' } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('the action is FAILED with QUOTE_EXPIRED (200), nothing moves, the usage is released', async () => {
    const api = testApp.platform.api;
    const owner = await fundedCustomer(api, 100_000);
    const external = await createUsdExternalAccount(api, owner.customer.id, '789');
    const { agent, me } = await connectedAgent(testApp, owner.customer.id, actionPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
    const quote = await agentQuote(me, owner.usd.id, external.id, 10_000);
    const action = (await me.post(`/agents/me/quotes/${quote.id}/execute`).expect(200)).body;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const failed = (await api.post(`/agents/${agent.id}/actions/${action.id}/approve`).expect(200)).body;
    expect(failed).toEqual(expect.objectContaining({ status: 'FAILED', failureReason: 'QUOTE_EXPIRED' }));
    expect(failed).not.toHaveProperty('transaction');
    expect((await balances(api, owner.usd.id)).available).toBe(100_000);
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
  });
});
