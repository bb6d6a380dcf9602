import { deciderSpec } from '../../../test/support/decider-spec';
import { AgentActionRequest } from './agent-action.events';
import { AgentCommand, ExistingAgent, agentDecider } from './agent.decider';
import { AgentEvent } from './agent.events';
import { AgentPolicy } from './policy/agent-policy';

const NOW = '2025-10-13T12:00:00.000Z';
const LATER = '2025-10-13T12:05:00.000Z';
const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const AGENT = 'Agent:0199a000-0000-7000-8000-0000000000a9';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000001';
const ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-00000000000a';
const QUOTE = 'Quote:0199a000-0000-7000-8000-0000000000c1';
const ACTION = 'AgentAction:0199a000-0000-7000-8000-0000000000d1';
const ref = { agentId: AGENT, platformId: PLATFORM };
const USD_VALUES = { USD: '1' };

const policy: AgentPolicy = {
  permissions: ['EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 60_000, dailyTransactionLimit: null, monthlyLimit: null },
  accountRestrictions: null,
  approvalThresholds: { currency: 'USD', amount: 40_000 },
};

const created: AgentEvent = { type: 'AgentCreated', data: { ...ref, customerId: CUSTOMER, name: 'Payroll', policy, createdAt: NOW } };
const quoteCreated: AgentEvent = { type: 'AgentQuoteCreated', data: { ...ref, quoteId: QUOTE, createdAt: NOW } };
const reservation = (amount: number) => ({ amount, currency: 'USD', day: '2025-10-13', month: '2025-10' });

function executeRequest(amount: number): AgentActionRequest {
  return { type: 'EXECUTE_QUOTE', accountId: ACCOUNT, amount, currency: 'USD', quoteId: QUOTE, quoteTransactionId: 'Transaction:1', transfer: null };
}

const submit = (amount: number, actionId = ACTION): AgentCommand => ({ type: 'SubmitAgentAction', actionId, request: executeRequest(amount), usdValues: USD_VALUES, now: NOW });

function submitted(amount: number, status: 'APPROVED' | 'PENDING_APPROVAL'): AgentEvent {
  return {
    type: 'AgentActionSubmitted',
    data: { ...ref, actionId: ACTION, customerId: CUSTOMER, request: executeRequest(amount), status, approvalCause: status === 'APPROVED' ? null : 'APPROVAL_THRESHOLD', reservation: reservation(amount), submittedAt: NOW },
  };
}

const spec = deciderSpec(agentDecider);
const usageOf = (events: AgentEvent[]) => (spec.state(events) as ExistingAgent).usage;

describe('agent actions (decider)', () => {
  it('a quote the agent created is recorded once', () => {
    spec.given([created]).when({ type: 'RecordAgentQuote', quoteId: QUOTE, now: NOW }).then([quoteCreated]);
    spec.given([created, quoteCreated]).when({ type: 'RecordAgentQuote', quoteId: QUOTE, now: LATER }).then([]);
  });

  it('within policy: APPROVED, or PENDING_APPROVAL above the threshold; both reserve usage', () => {
    spec.given([created, quoteCreated]).when(submit(30_000)).then([submitted(30_000, 'APPROVED')]);
    spec.given([created, quoteCreated]).when(submit(45_000)).then([submitted(45_000, 'PENDING_APPROVAL')]);
    expect(usageOf([created, quoteCreated, submitted(45_000, 'PENDING_APPROVAL')])).toEqual({
      day: '2025-10-13', dailySpend: 45_000, dailyTransactionCount: 1, month: '2025-10', monthlySpend: 45_000,
    });
  });

  it('what is reserved counts against the next action: the daily limit holds', () => {
    const second = { ...submit(30_001, 'AgentAction:second'), request: { ...executeRequest(30_001), quoteId: 'Quote:2' } };
    const quote2: AgentEvent = { type: 'AgentQuoteCreated', data: { ...ref, quoteId: 'Quote:2', createdAt: NOW } };
    const outcome = spec.given([created, quoteCreated, quote2, submitted(30_000, 'APPROVED')]).when(second);
    expect(outcome.error).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'DAILY_LIMIT_EXCEEDED', limit: 60_000, used: 30_000 } });
  });

  it('refusals: an unknown quote 404, a quote with a live action 409, outside policy 403', () => {
    spec.given([created]).when(submit(1)).thenError('QUOTE_NOT_FOUND');
    spec.given([created, quoteCreated, submitted(1, 'APPROVED')]).when(submit(1, 'AgentAction:again')).thenError('CONFLICT');
    spec.given([created, quoteCreated]).when(submit(50_001)).thenError('FORBIDDEN');
    const paused: AgentEvent = { type: 'AgentPaused', data: { ...ref, pausedAt: NOW } };
    expect(spec.given([created, quoteCreated, paused]).when(submit(1)).error?.details).toEqual({ reason: 'AGENT_PAUSED' });
  });

  it('approve or reject a pending action once; the loser of a race is 409', () => {
    const pending = [created, quoteCreated, submitted(45_000, 'PENDING_APPROVAL')];
    const decide = (decision: 'APPROVE' | 'REJECT'): AgentCommand => ({ type: 'DecideAgentAction', platformId: PLATFORM, actionId: ACTION, decision, reason: 'too much', actor: 'platform:ops', now: LATER });
    const approved: AgentEvent = { type: 'AgentActionApproved', data: { ...ref, actionId: ACTION, approvedBy: 'platform:ops', approvedAt: LATER } };
    const rejected: AgentEvent = { type: 'AgentActionRejected', data: { ...ref, actionId: ACTION, reason: 'too much', rejectedBy: 'platform:ops', reservation: reservation(45_000), rejectedAt: LATER } };
    spec.given(pending).when(decide('APPROVE')).then([approved]);
    spec.given(pending).when(decide('REJECT')).then([rejected]);
    spec.given([...pending, approved]).when(decide('REJECT')).thenError('CONFLICT');
    spec.given([...pending, rejected]).when(decide('APPROVE')).thenError('CONFLICT');
    spec.given(pending).when({ ...decide('APPROVE'), actionId: 'AgentAction:unknown' } as AgentCommand).thenError('REFERENCE_NOT_FOUND');
    spec.given(pending).when({ ...decide('APPROVE'), platformId: 'Platform:other' } as AgentCommand).thenError('REFERENCE_NOT_FOUND');
    expect(usageOf([...pending, rejected])).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0, monthlySpend: 0 });
  });

  it('the outcome is recorded once; a failure gives the reservation back', () => {
    const running = [created, quoteCreated, submitted(30_000, 'APPROVED')];
    const executed: AgentEvent = { type: 'AgentActionExecuted', data: { ...ref, actionId: ACTION, transactionId: 'Transaction:1', executedAt: LATER } };
    spec.given(running).when({ type: 'RecordAgentActionOutcome', actionId: ACTION, outcome: { kind: 'EXECUTED', transactionId: 'Transaction:1' }, now: LATER }).then([executed]);
    spec.given([...running, executed]).when({ type: 'RecordAgentActionOutcome', actionId: ACTION, outcome: { kind: 'EXECUTED', transactionId: 'Transaction:1' }, now: LATER }).then([]);
    const failed: AgentEvent = {
      type: 'AgentActionFailed',
      data: { ...ref, actionId: ACTION, code: 'QUOTE_EXPIRED', reason: 'The quote expired', reservation: reservation(30_000), failedAt: LATER },
    };
    spec.given(running).when({ type: 'RecordAgentActionOutcome', actionId: ACTION, outcome: { kind: 'FAILED', code: 'QUOTE_EXPIRED', reason: 'The quote expired' }, now: LATER }).then([failed]);
    expect(usageOf([...running, failed])).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
    expect(usageOf([...running, executed])).toMatchObject({ dailySpend: 30_000, dailyTransactionCount: 1 });
  });

  it('one run claims an approved action that has not run; a second claim, or one after the outcome, records nothing', () => {
    const running = [created, quoteCreated, submitted(30_000, 'APPROVED')];
    const claim = (runId: string): AgentCommand => ({ type: 'ClaimAgentActionRun', actionId: ACTION, runId, now: LATER });
    const claimed: AgentEvent = { type: 'AgentActionRunClaimed', data: { ...ref, actionId: ACTION, runId: 'run-1', claimedAt: LATER } };
    spec.given(running).when(claim('run-1')).then([claimed]);
    spec.given([...running, claimed]).when(claim('run-2')).then([]);
    const executed: AgentEvent = { type: 'AgentActionExecuted', data: { ...ref, actionId: ACTION, transactionId: 'Transaction:1', executedAt: LATER } };
    spec.given([...running, executed]).when(claim('run-2')).then([]);
    spec.given([created, quoteCreated, submitted(45_000, 'PENDING_APPROVAL')]).when(claim('run-1')).then([]);
  });

  it('a new spending currency converts the usage; a reservation released afterwards gives back exactly its converted amount', () => {
    // 1 EUR = 1.25 USD: 45,000 USD cents are 36,000 EUR cents; 10,001 USD cents 8,000.8, rounded up.
    const rates = { USD: '1', EUR: '1.25' };
    const second = { ...submitted(10_001, 'APPROVED'), data: { ...submitted(10_001, 'APPROVED').data, actionId: 'AgentAction:run', request: { ...executeRequest(10_001), quoteId: 'Quote:2' } } } as AgentEvent;
    const executed: AgentEvent = { type: 'AgentActionExecuted', data: { ...ref, actionId: 'AgentAction:run', transactionId: 'Transaction:2', executedAt: LATER } };
    const pending = [created, quoteCreated, submitted(45_000, 'PENDING_APPROVAL'), second, executed];
    const eurLimits = { currency: 'EUR', perTransactionLimit: 40_000, dailyLimit: 48_000, monthlyLimit: null };
    const change: AgentCommand = { type: 'ChangeAgentPolicy', platformId: PLATFORM, update: { spendingLimits: eurLimits }, usdValues: rates, now: LATER };
    const outcome = spec.given(pending).when(change);
    const converted = { amount: 36_000, currency: 'EUR', day: '2025-10-13', month: '2025-10' };
    expect(outcome.events).toEqual([{
      type: 'AgentPolicyChanged',
      data: {
        ...ref,
        previousPolicy: policy,
        policy: { ...policy, spendingLimits: { ...policy.spendingLimits, ...eurLimits } },
        usageRecast: {
          usage: { day: '2025-10-13', dailySpend: 44_001, dailyTransactionCount: 2, month: '2025-10', monthlySpend: 44_001 },
          // The executed action can no longer be given back: only the pending one keeps a reservation to release.
          reservations: { [ACTION]: converted },
        },
        changedAt: LATER,
      },
    }]);
    const afterChange = [...pending, ...outcome.events];
    const decide: AgentCommand = { type: 'DecideAgentAction', platformId: PLATFORM, actionId: ACTION, decision: 'REJECT', reason: null, actor: 'platform:ops', now: LATER };
    const rejection = spec.given(afterChange).when(decide);
    expect(rejection.events[0]).toMatchObject({ type: 'AgentActionRejected', data: { reservation: converted } });
    expect(usageOf([...afterChange, ...rejection.events])).toEqual({ day: '2025-10-13', dailySpend: 8_001, dailyTransactionCount: 1, month: '2025-10', monthlySpend: 8_001 });
  });

  it('a deleted agent has no actions', () => {
    const deleted: AgentEvent = { type: 'AgentDeleted', data: { ...ref, customerId: CUSTOMER, tokenHash: null, deletedAt: LATER } };
    spec.given([created, quoteCreated, deleted]).when(submit(1)).thenError('REFERENCE_NOT_FOUND');
  });
});
