import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { accountQuoteBody, balances, fundedCustomer } from '../../support/quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { ISO } from './agent-fixtures';
import { ACTION_ID, actionPolicy, agentQuote, connectedAgent } from './agent-action-fixtures';

/**
 * The agent's money-moving routes (AgentAuth): quotes (create, get, execute), transfer-out and
 * transfer-in as AgentActions under the policy, its actions list, usage accounting, the
 * concurrent-limit race, isolation and the audit history with the agent as actor.
 */
describe('agents: actions under the policy', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  async function setUp(policy = actionPolicy(), funds = 1_000_000) {
    const owner = await fundedCustomer(api(), funds);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const { agent, me } = await connectedAgent(testApp, owner.customer.id, policy);
    return { owner, external, agent, me };
  }

  it('quotes: 201 for the customer; GET only the agent\'s own; execute within policy runs at once (200 APPROVED)', async () => {
    const { owner, external, agent, me } = await setUp();
    const quote = await agentQuote(me, owner.usd.id, external.id, 10_000);
    expect(quote).toEqual(expect.objectContaining({ status: 'PENDING', source: expect.objectContaining({ accountId: owner.usd.id }) }));
    expect((await me.get(`/agents/me/quotes/${quote.id}`).expect(200)).body).toEqual(quote);

    const platformQuote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, 1_000)).expect(201)).body;
    const notFound = { status: 404, code: 'QUOTE_NOT_FOUND', message: 'Quote not found' };
    expect((await me.get(`/agents/me/quotes/${platformQuote.id}`).expect(404)).body).toEqual(notFound);
    expect((await me.get('/agents/me/quotes/not-a-quote').expect(404)).body).toEqual(notFound);
    expect((await me.post(`/agents/me/quotes/${platformQuote.id}/execute`).expect(404)).body).toEqual(notFound);

    const action = (await me.post(`/agents/me/quotes/${quote.id}/execute`).expect(200)).body;
    expect(action).toEqual({
      id: expect.stringMatching(ACTION_ID),
      agentId: agent.id,
      customerId: owner.customer.id,
      platformCustomerId: owner.customer.platformCustomerId,
      status: 'APPROVED',
      type: 'EXECUTE_QUOTE',
      quote: expect.objectContaining({ id: quote.id, status: expect.stringMatching(/^(PROCESSING|COMPLETED)$/) }),
      transaction: expect.objectContaining({ id: quote.transactionId }),
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect((await balances(api(), owner.usd.id)).available).toBe(1_000_000 - quote.totalSendingAmount);
    const usage = (await me.get('/agents/me').expect(200)).body.usage;
    expect(usage).toMatchObject({ dailySpend: quote.totalSendingAmount, dailyTransactionCount: 1, monthlySpend: quote.totalSendingAmount });

    expect((await me.get(`/agents/me/actions/${action.id}`).expect(200)).body).toEqual(expect.objectContaining({ id: action.id, status: 'APPROVED' }));
    const again = await me.post(`/agents/me/quotes/${quote.id}/execute`).expect(409);
    expect(again.body).toMatchObject({ code: 'CONFLICT', details: { actionId: action.id, status: 'APPROVED' } });
  });

  it('quotes: the source and an ACCOUNT destination must be the customer\'s (400); no immediatelyExecute or fee override', async () => {
    const { owner, external, me } = await setUp();
    const other = await fundedCustomer(api(), 0);
    const response = await me.post('/agents/me/quotes').send(accountQuoteBody(other.usd.id, external.id, 1_000, { immediatelyExecute: true })).expect(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    expect(response.body.details.errors.map((error: any) => error.field).sort()).toEqual(['immediatelyExecute', 'source.accountId']);
    const otherExternal = await createUsdExternalAccount(api(), other.customer.id, '789');
    const destination = await me.post('/agents/me/quotes').send(accountQuoteBody(owner.usd.id, otherExternal.id, 1_000)).expect(400);
    expect(destination.body.details.errors.map((error: any) => error.field)).toEqual(['destination.accountId']);
  });

  it('403 FORBIDDEN with details.reason outside the policy; nothing recorded, nothing moved', async () => {
    const policy = actionPolicy({
      permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
      spendingLimits: { currency: 'USD', perTransactionLimit: 20_000, dailyLimit: 200_000 },
      approvalThresholds: undefined,
    });
    const { owner, external, me } = await setUp(policy);
    const large = await agentQuote(me, owner.usd.id, external.id, 25_000);
    const refused = await me.post(`/agents/me/quotes/${large.id}/execute`).expect(403);
    expect(refused.body).toEqual({
      status: 403, code: 'FORBIDDEN', message: 'The amount exceeds the per-transaction limit',
      details: { reason: 'PER_TRANSACTION_LIMIT_EXCEEDED', limit: 20_000, amount: large.totalSendingAmount, currency: 'USD' },
    });
    const transfer = await me.post('/agents/me/transfer-out').send({ source: { accountId: owner.usd.id }, destination: { accountId: external.id }, amount: 1_000 }).expect(403);
    expect(transfer.body.details).toEqual({ reason: 'AGENT_PERMISSION_MISSING', permission: 'CREATE_TRANSFERS' });
    expect((await me.get('/agents/me/actions').expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect((await balances(api(), owner.usd.id)).available).toBe(1_000_000);
  });

  it('a paused agent is refused; an account outside allowedAccountIds is refused', async () => {
    const { owner, external, agent, me } = await setUp();
    const quote = await agentQuote(me, owner.usd.id, external.id, 1_000);
    await api().patch(`/agents/${agent.id}`).send({ isPaused: true }).expect(200);
    expect((await me.post(`/agents/me/quotes/${quote.id}/execute`).expect(403)).body.details).toEqual({ reason: 'AGENT_PAUSED' });
    await api().patch(`/agents/${agent.id}`).send({ isPaused: false }).expect(200);
    // An empty list allows no account.
    await api().patch(`/agents/${agent.id}/policy`).send({ accountRestrictions: { allowedAccountIds: [], accountRules: [] } }).expect(200);
    const refused = await me.post(`/agents/me/quotes/${quote.id}/execute`).expect(403);
    expect(refused.body.details).toEqual({ reason: 'ACCOUNT_NOT_ALLOWED', accountId: owner.usd.id });
    expect((await me.post('/agents/me/quotes').send(accountQuoteBody(owner.usd.id, external.id, 1_000)).expect(403)).body.details.reason).toBe('ACCOUNT_NOT_ALLOWED');
  });

  it('above the approval threshold: PENDING_APPROVAL, no money moves, usage reserved', async () => {
    const { owner, external, me } = await setUp();
    const quote = await agentQuote(me, owner.usd.id, external.id, 40_000);
    const action = (await me.post(`/agents/me/quotes/${quote.id}/execute`).expect(200)).body;
    expect(action).toEqual(expect.objectContaining({ status: 'PENDING_APPROVAL', type: 'EXECUTE_QUOTE', quote: expect.objectContaining({ id: quote.id, status: 'PENDING' }) }));
    expect(action).not.toHaveProperty('transaction');
    expect((await balances(api(), owner.usd.id)).available).toBe(1_000_000);
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: quote.totalSendingAmount, dailyTransactionCount: 1 });
    const pending = (await me.get('/agents/me/actions').query({ status: 'PENDING_APPROVAL' }).expect(200)).body;
    expect(pending).toEqual({ data: [action], hasMore: false, totalCount: 1 });
    expect((await me.get('/agents/me/actions').query({ status: 'APPROVED' }).expect(200)).body.data).toEqual([]);
    const bad = await me.get('/agents/me/actions').query({ status: 'DONE', limit: 0 }).expect(400);
    expect(bad.body.details.errors.map((error: any) => error.field).sort()).toEqual(['limit', 'status']);
  });

  it('transfer-out and transfer-in: 201 APPROVED with the transaction; another customer\'s account is 404', async () => {
    const { owner, external, me } = await setUp();
    const out = (await me.post('/agents/me/transfer-out').send({ source: { accountId: owner.usd.id }, destination: { accountId: external.id }, amount: 5_000 }).expect(201)).body;
    expect(out).toEqual(expect.objectContaining({
      status: 'APPROVED', type: 'TRANSFER_OUT',
      transferDetails: { amount: 5_000, currency: 'USD', sourceAccountId: owner.usd.id, destinationAccountId: external.id },
      transaction: expect.objectContaining({ type: 'OUTGOING' }),
    }));
    const into = (await me.post('/agents/me/transfer-in').send({ source: { accountId: external.id }, destination: { accountId: owner.usd.id }, amount: 7_000 }).expect(201)).body;
    expect(into).toEqual(expect.objectContaining({ status: 'APPROVED', type: 'TRANSFER_IN', transaction: expect.objectContaining({ type: 'INCOMING' }) }));
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: 12_000, dailyTransactionCount: 2 });

    const other = await fundedCustomer(api(), 10_000);
    const response = await me.post('/agents/me/transfer-out').send({ source: { accountId: other.usd.id }, destination: { accountId: external.id }, amount: 1_000 }).expect(404);
    expect(response.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Source internal account not found' });
    expect((await me.get('/agents/me/actions').expect(200)).body.totalCount).toBe(2);
  });

  it('Idempotency-Key: a retried transfer-out answers the same action and moves the money once', async () => {
    const { owner, external, me } = await setUp();
    const body = { source: { accountId: owner.usd.id }, destination: { accountId: external.id }, amount: 3_000 };
    const first = (await me.post('/agents/me/transfer-out').set('Idempotency-Key', 'agent-retry-1').send(body).expect(201)).body;
    const second = (await me.post('/agents/me/transfer-out').set('Idempotency-Key', 'agent-retry-1').send(body).expect(201)).body;
    expect(second).toEqual(first);
    expect((await me.get('/agents/me/actions').expect(200)).body.totalCount).toBe(1);
    expect((await balances(api(), owner.usd.id)).available).toBe(1_000_000 - 3_000);
  });

  it('an AUTO action whose operation is refused is FAILED, the refusal answered and the usage released', async () => {
    const { owner, external, me } = await setUp(actionPolicy(), 1_000);
    const response = await me.post('/agents/me/transfer-out').send({ source: { accountId: owner.usd.id }, destination: { accountId: external.id }, amount: 5_000 }).expect(400);
    expect(response.body).toMatchObject({ code: 'INVALID_AMOUNT', details: expect.objectContaining({ reason: 'INSUFFICIENT_FUNDS' }) });
    const failed = (await me.get('/agents/me/actions').expect(200)).body.data;
    expect(failed).toEqual([expect.objectContaining({ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' })]);
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
  });

  it('race: 20 concurrent executes that together exceed the daily limit never spend past it', async () => {
    const policy = actionPolicy({ spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 100_000 }, approvalThresholds: undefined });
    const { owner, external, me } = await setUp(policy);
    const quotes = [];
    for (let index = 0; index < 20; index += 1) quotes.push(await agentQuote(me, owner.usd.id, external.id, 10_000));
    const amount = quotes[0].totalSendingAmount;
    const fitting = Math.floor(100_000 / amount);
    const answers = await Promise.all(quotes.map((quote) => me.post(`/agents/me/quotes/${quote.id}/execute`)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(fitting);
    expect(statuses.filter((status) => status === 403)).toHaveLength(20 - fitting);
    for (const answer of answers.filter((candidate) => candidate.status === 403)) expect(answer.body.details.reason).toBe('DAILY_LIMIT_EXCEEDED');
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: fitting * amount, dailyTransactionCount: fitting });
    expect((await balances(api(), owner.usd.id)).available).toBe(1_000_000 - fitting * amount);
  });

  it('audit: the action\'s history with the agent as actor, found by AgentAction id', async () => {
    const { owner, external, agent, me } = await setUp();
    const action = (await me.post('/agents/me/transfer-out').send({ source: { accountId: owner.usd.id }, destination: { accountId: external.id }, amount: 2_000 }).expect(201)).body;
    const history = (await api().get('/audit/events').query({ resourceId: action.id }).expect(200)).body.data;
    expect(history.map((event: any) => [event.type, event.metadata.actor])).toEqual([
      ['AgentActionSubmitted', `agent:${agent.id}`],
      ['AgentActionExecuted', `agent:${agent.id}`],
    ]);
  });
});
