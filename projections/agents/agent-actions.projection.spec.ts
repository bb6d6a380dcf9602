import { projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { agentActionsProjection } from './agent-actions.projection';
import { agentsProjection } from './agents.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const AGENT = 'Agent:0199a000-0000-7000-8000-0000000000a9';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ACTION = 'AgentAction:0199a000-0000-7000-8000-0000000000d1';
const QUOTE = 'Quote:0199a000-0000-7000-8000-0000000000c1';
const ref = { agentId: AGENT, platformId: PLATFORM };
const stream = 'agent-0199a000-0000-7000-8000-0000000000a9';
const NOW = '2025-10-13T12:00:00.000Z';
const LATER = '2025-10-13T12:05:00.000Z';
const reservation = { amount: 40_000, currency: 'USD', day: '2025-10-13', month: '2025-10' };
const request = { type: 'EXECUTE_QUOTE', accountId: 'InternalAccount:a', amount: 40_000, currency: 'USD', quoteId: QUOTE, quoteTransactionId: 'Transaction:t', transfer: null };
const policy = {
  permissions: ['EXECUTE_QUOTES'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50000, dailyLimit: null, dailyTransactionLimit: null, monthlyLimit: null },
  accountRestrictions: null,
  approvalThresholds: null,
};

const created = { stream, type: 'AgentCreated', data: { ...ref, customerId: CUSTOMER, name: 'Payroll', policy, createdAt: NOW } };
const quoteCreated = { stream, type: 'AgentQuoteCreated', data: { ...ref, quoteId: QUOTE, createdAt: NOW } };
const submitted = {
  stream, type: 'AgentActionSubmitted',
  data: { ...ref, actionId: ACTION, customerId: CUSTOMER, request, status: 'PENDING_APPROVAL', approvalCause: 'APPROVAL_THRESHOLD', reservation, submittedAt: NOW },
};
const rejected = { stream, type: 'AgentActionRejected', data: { ...ref, actionId: ACTION, reason: 'No', rejectedBy: 'platform:ops', reservation, rejectedAt: LATER } };
const deleted = { stream, type: 'AgentDeleted', data: { ...ref, customerId: CUSTOMER, tokenHash: null, deletedAt: LATER } };

describe('agent-actions projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(agentActionsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a submitted action is one row with its filter columns; the agent\'s quotes are kept', async () => {
    await spec.given([created, quoteCreated, submitted]);
    expect(await spec.rows('SELECT platform_id, action_id, agent_id, customer_id, status, covered_transaction_id, agent_deleted, record::json AS record FROM agent_actions')).toEqual([
      {
        platform_id: PLATFORM, action_id: ACTION, agent_id: AGENT, customer_id: CUSTOMER, status: 'PENDING_APPROVAL', covered_transaction_id: 'Transaction:t', agent_deleted: false,
        record: {
          actionId: ACTION, ...ref, customerId: CUSTOMER, request, status: 'PENDING_APPROVAL',
          transactionId: null, rejectionReason: null, failureReason: null, createdAt: NOW, updatedAt: NOW,
        },
      },
    ]);
    expect(await spec.rows('SELECT platform_id, quote_id, agent_id FROM agent_quotes')).toEqual([{ platform_id: PLATFORM, quote_id: QUOTE, agent_id: AGENT }]);
  });

  it('a rejection sets status and reason; an execution its transaction; a deleted agent\'s actions are marked', async () => {
    const executed = { stream, type: 'AgentActionExecuted', data: { ...ref, actionId: ACTION, transactionId: 'Transaction:t', executedAt: LATER } };
    await spec.given([created, submitted, rejected]);
    expect(await spec.rows('SELECT status, record::json ->> \'rejectionReason\' AS reason, updated_at FROM agent_actions')).toEqual([
      { status: 'REJECTED', reason: 'No', updated_at: new Date(LATER) },
    ]);
    await spec.given([executed, deleted]);
    expect(await spec.rows('SELECT status, record::json ->> \'transactionId\' AS transaction_id, agent_deleted FROM agent_actions')).toEqual([
      { status: 'REJECTED', transaction_id: 'Transaction:t', agent_deleted: true },
    ]);
  });
});

describe('agents projection: usage', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(agentsProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('a submission reserves its amount and count; a rejection gives them back', async () => {
    await spec.given([created, submitted]);
    const usage = async () => (await spec.rows<{ usage: unknown }>('SELECT record::json -> \'usage\' AS usage FROM agents'))[0].usage;
    expect(await usage()).toEqual({ day: '2025-10-13', dailySpend: 40_000, dailyTransactionCount: 1, month: '2025-10', monthlySpend: 40_000 });
    await spec.given([rejected]);
    expect(await usage()).toEqual({ day: '2025-10-13', dailySpend: 0, dailyTransactionCount: 0, month: '2025-10', monthlySpend: 0 });
  });
});
