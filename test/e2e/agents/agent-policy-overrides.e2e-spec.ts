import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { balances, fundedCustomer } from '../../support/quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { actionPolicy, agentQuote, connectedAgent } from './agent-action-fixtures';

/**
 * The policy's finer parts, end to end through the agent's Bearer API (docs/agents.md "Actions and
 * policy"): account rules overriding the execution mode and the per-transaction limit,
 * `allowedAccountIds`, an approval threshold in another currency, a policy change applied to the
 * very next action, the daily transaction count, and a rejection giving its reservation back.
 * Transfers carry exact amounts (no fees), so every boundary is tested at the unit.
 */
describe('agents: policy account rules and overrides', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  /** A funded customer, a payee and an installed agent with `policy` (built with the customer's accounts). */
  async function setUp(policyFor: (usdAccountId: string, otherAccountId: string) => Record<string, any>) {
    const owner = await fundedCustomer(api(), 1_000_000);
    const otherAccountId = secondAccountId(owner.accounts);
    const external = await createUsdExternalAccount(api(), owner.customer.id, '789');
    const { agent, me } = await connectedAgent(testApp, owner.customer.id, policyFor(owner.usd.id, otherAccountId));
    const transferOut = (amount: number, sourceId = owner.usd.id) => me.post('/agents/me/transfer-out').send({ source: { accountId: sourceId }, destination: { accountId: external.id }, amount });
    return { owner, otherAccountId, external, agent, me, transferOut };
  }

  /**
   * Another account of the customer money can leave without a wallet signature: the first by
   * currency code that is no embedded wallet (an agent's transfer out of one is refused before its
   * policy is read), so the choice does not depend on the order the accounts were opened in.
   */
  function secondAccountId(accounts: Record<string, any>): string {
    const codes = Object.keys(accounts).filter((code) => code !== 'USD' && accounts[code].type !== 'EMBEDDED_WALLET').sort();
    return accounts[codes[0]].id;
  }

  const restrictions = (allowedAccountIds: string[] | null, accountRules: Array<Record<string, unknown>>) => ({ accountRestrictions: { allowedAccountIds, accountRules } });

  it('AUTO by default, an APPROVAL_REQUIRED rule on the account: its actions wait, nothing moves; without the rule they run', async () => {
    const { owner, otherAccountId, agent, transferOut } = await setUp((usd) => actionPolicy({
      approvalThresholds: undefined,
      ...restrictions(null, [{ accountId: usd, executionMode: 'APPROVAL_REQUIRED' }]),
    }));
    const pending = (await transferOut(1_000).expect(201)).body;
    expect(pending).toEqual(expect.objectContaining({ status: 'PENDING_APPROVAL', type: 'TRANSFER_OUT' }));
    expect(pending).not.toHaveProperty('transaction');
    expect((await balances(api(), owner.usd.id)).available).toBe(1_000_000);
    const history = (await api().get('/audit/events').query({ resourceId: pending.id }).expect(200)).body.data;
    expect(history[0]).toMatchObject({ type: 'AgentActionSubmitted', data: expect.objectContaining({ approvalCause: 'EXECUTION_MODE' }) });

    // The rule moved to another account: this account falls back to the AUTO default.
    await api().patch(`/agents/${agent.id}/policy`).send(restrictions(null, [{ accountId: otherAccountId, executionMode: 'APPROVAL_REQUIRED' }])).expect(200);
    const ran = (await transferOut(1_000).expect(201)).body;
    expect(ran).toEqual(expect.objectContaining({ status: 'APPROVED', transaction: expect.objectContaining({ type: 'OUTGOING' }) }));
    expect((await balances(api(), owner.usd.id)).available).toBe(999_000);
  });

  it('APPROVAL_REQUIRED by default, an AUTO rule on the account: its actions run at once', async () => {
    const { owner, transferOut } = await setUp((usd) => actionPolicy({
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      approvalThresholds: undefined,
      ...restrictions(null, [{ accountId: usd, executionMode: 'AUTO' }]),
    }));
    const ran = (await transferOut(2_000).expect(201)).body;
    expect(ran).toEqual(expect.objectContaining({ status: 'APPROVED', transaction: expect.objectContaining({ type: 'OUTGOING' }) }));
    expect((await balances(api(), owner.usd.id)).available).toBe(998_000);
  });

  it('an AUTO rule still yields to the approval threshold (strictly above waits)', async () => {
    const { transferOut } = await setUp((usd) => actionPolicy({
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      ...restrictions(null, [{ accountId: usd, executionMode: 'AUTO' }]),
    }));
    expect((await transferOut(30_000).expect(201)).body.status).toBe('APPROVED');
    expect((await transferOut(30_001).expect(201)).body.status).toBe('PENDING_APPROVAL');
  });

  it("a rule's perTransactionLimit replaces the agent's, lower or higher: above it 403, at it allowed", async () => {
    const { owner, agent, me, transferOut } = await setUp((usd) => actionPolicy({
      approvalThresholds: undefined,
      ...restrictions(null, [{ accountId: usd, perTransactionLimit: 10_000 }]),
    }));
    const refused = await transferOut(10_001).expect(403);
    expect(refused.body).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: 'The amount exceeds the per-transaction limit',
      details: { reason: 'PER_TRANSACTION_LIMIT_EXCEEDED', limit: 10_000, amount: 10_001, currency: 'USD' },
    });
    expect((await transferOut(10_000).expect(201)).body.status).toBe('APPROVED');

    // Higher than the agent's $500: the rule's $800 applies to this account.
    await api().patch(`/agents/${agent.id}/policy`).send(restrictions(null, [{ accountId: owner.usd.id, perTransactionLimit: 80_000 }])).expect(200);
    expect((await transferOut(80_000).expect(201)).body.status).toBe('APPROVED');
    expect((await transferOut(80_001).expect(403)).body.details).toEqual({ reason: 'PER_TRANSACTION_LIMIT_EXCEEDED', limit: 80_000, amount: 80_001, currency: 'USD' });
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: 90_000, dailyTransactionCount: 2 });
  });

  it("a quote execution follows the rules of the quote's source account: limit at the unit, then the rule's execution mode", async () => {
    const { owner, external, agent, me } = await setUp(() => actionPolicy({ defaultExecutionMode: 'APPROVAL_REQUIRED', approvalThresholds: undefined }));
    const quote = await agentQuote(me, owner.usd.id, external.id, 10_000);
    const total = quote.totalSendingAmount;
    const rule = (perTransactionLimit: number) => restrictions(null, [{ accountId: owner.usd.id, executionMode: 'AUTO', perTransactionLimit }]);
    await api().patch(`/agents/${agent.id}/policy`).send(rule(total - 1)).expect(200);
    const refused = await me.post(`/agents/me/quotes/${quote.id}/execute`).expect(403);
    expect(refused.body.details).toEqual({ reason: 'PER_TRANSACTION_LIMIT_EXCEEDED', limit: total - 1, amount: total, currency: 'USD' });
    await api().patch(`/agents/${agent.id}/policy`).send(rule(total)).expect(200);
    const ran = (await me.post(`/agents/me/quotes/${quote.id}/execute`).expect(200)).body;
    expect(ran).toEqual(expect.objectContaining({ status: 'APPROVED', type: 'EXECUTE_QUOTE', transaction: expect.objectContaining({ id: quote.transactionId }) }));
    expect((await balances(api(), owner.usd.id)).available).toBe(1_000_000 - total);
  });

  it("allowedAccountIds: an action from another of the customer's accounts is refused (403 ACCOUNT_NOT_ALLOWED), nothing recorded", async () => {
    const { owner, otherAccountId, me, transferOut } = await setUp((usd) => actionPolicy(restrictions([usd], [])));
    const refused = await transferOut(1_000, otherAccountId).expect(403);
    expect(refused.body).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: "The agent's policy does not allow this account",
      details: { reason: 'ACCOUNT_NOT_ALLOWED', accountId: otherAccountId },
    });
    const into = await me.post('/agents/me/transfer-in').send({ source: { accountId: (await createUsdExternalAccount(api(), owner.customer.id, '789')).id }, destination: { accountId: otherAccountId }, amount: 1_000 }).expect(403);
    expect(into.body.details).toEqual({ reason: 'ACCOUNT_NOT_ALLOWED', accountId: otherAccountId });
    expect((await me.get('/agents/me/actions').expect(200)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect((await transferOut(1_000).expect(201)).body.status).toBe('APPROVED');
  });

  it('an approval threshold in another currency (USDC, 6 decimals) is compared after conversion', async () => {
    // $300 as USDC micro-units; USD and USDC are 1:1 in the rate snapshot.
    const { transferOut } = await setUp(() => actionPolicy({ approvalThresholds: { currency: 'USDC', amount: 300_000_000 } }));
    expect((await transferOut(30_000).expect(201)).body.status).toBe('APPROVED');
    const pending = (await transferOut(30_001).expect(201)).body;
    expect(pending.status).toBe('PENDING_APPROVAL');
    const history = (await api().get('/audit/events').query({ resourceId: pending.id }).expect(200)).body.data;
    expect(history[0].data).toMatchObject({ approvalCause: 'APPROVAL_THRESHOLD' });
  });

  it('a policy PATCH applies to the very next action: limit, execution mode, permissions', async () => {
    const { agent, transferOut } = await setUp(() => actionPolicy({ approvalThresholds: undefined, spendingLimits: { currency: 'USD', perTransactionLimit: 5_000 } }));
    expect((await transferOut(6_000).expect(403)).body.details).toMatchObject({ reason: 'PER_TRANSACTION_LIMIT_EXCEEDED', limit: 5_000 });
    await api().patch(`/agents/${agent.id}/policy`).send({ spendingLimits: { perTransactionLimit: 6_000 } }).expect(200);
    expect((await transferOut(6_000).expect(201)).body.status).toBe('APPROVED');
    await api().patch(`/agents/${agent.id}/policy`).send({ defaultExecutionMode: 'APPROVAL_REQUIRED' }).expect(200);
    expect((await transferOut(6_000).expect(201)).body.status).toBe('PENDING_APPROVAL');
    await api().patch(`/agents/${agent.id}/policy`).send({ permissions: ['VIEW_TRANSACTIONS'] }).expect(200);
    expect((await transferOut(6_000).expect(403)).body.details).toEqual({ reason: 'AGENT_PERMISSION_MISSING', permission: 'CREATE_TRANSFERS' });
  });

  it('dailyTransactionLimit counts every action, pending ones too; the next one is refused with the count', async () => {
    const { owner, me, transferOut } = await setUp(() => actionPolicy({
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyTransactionLimit: 2 },
    }));
    expect((await transferOut(1_000).expect(201)).body.status).toBe('APPROVED');
    expect((await transferOut(40_000).expect(201)).body.status).toBe('PENDING_APPROVAL');
    const refused = await transferOut(1).expect(403);
    expect(refused.body).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: 'The daily transaction limit is reached',
      details: { reason: 'DAILY_TRANSACTION_LIMIT_EXCEEDED', limit: 2, used: 2 },
    });
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: 41_000, dailyTransactionCount: 2 });
    expect((await balances(api(), owner.usd.id)).available).toBe(999_000);
  });

  it('a rejected action gives its reservation back: the next action that did not fit now fits', async () => {
    const { agent, me, transferOut } = await setUp(() => actionPolicy({
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 10_000, dailyTransactionLimit: 1 },
    }));
    const pending = (await transferOut(8_000).expect(201)).body;
    const refused = await transferOut(5_000).expect(403);
    expect(refused.body.details).toEqual({ reason: 'DAILY_TRANSACTION_LIMIT_EXCEEDED', limit: 1, used: 1 });
    await api().patch(`/agents/${agent.id}/policy`).send({ spendingLimits: { dailyTransactionLimit: null } }).expect(200);
    expect((await transferOut(5_000).expect(403)).body).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: 'The amount exceeds what is left of the daily limit',
      details: { reason: 'DAILY_LIMIT_EXCEEDED', limit: 10_000, used: 8_000, amount: 5_000, currency: 'USD' },
    });
    await api().post(`/agents/${agent.id}/actions/${pending.id}/reject`).send({ reason: 'Too much' }).expect(200);
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
    const fits = (await transferOut(5_000).expect(201)).body;
    expect(fits.status).toBe('PENDING_APPROVAL');
    expect((await me.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: 5_000, dailyTransactionCount: 1 });
  });
});
