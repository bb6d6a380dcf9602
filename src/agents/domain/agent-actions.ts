import { DomainError } from '../../infra/domain/domain-error';
import {
  AgentActionEvent,
  AgentActionRequest,
  AgentActionStatus,
  AgentActionType,
  UsageReservation,
} from './agent-action.events';
import { agentNotFound } from './agents.errors';
import { agentPaused, permissionMissing } from './policy/access';
import { AgentPermission, AgentPolicy } from './policy/agent-policy';
import { PolicyRefusal, UsdValues, evaluateAction } from './policy/evaluation';
import { AgentUsageCounters, releaseUsage, reserveUsage, utcDay, utcMonth } from './usage';

/** One action as the agent's stream knows it. */
export interface AgentActionState {
  actionId: string;
  customerId: string;
  request: AgentActionRequest;
  status: AgentActionStatus;
  reservation: UsageReservation;
  /** The transaction the underlying operation created, once it ran. */
  transactionId: string | null;
  /** The run that took the approved action on (AgentActionRunClaimed); null before. */
  runId: string | null;
  rejectionReason: string | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the agent's stream keeps of its activity: the quotes it created and its actions. */
export interface AgentActivity {
  quoteIds: Record<string, true>;
  actions: Record<string, AgentActionState>;
}

/** The parts of a live agent the action rules read and fold. */
export interface ActingAgent extends AgentActivity {
  status: 'active';
  agentId: string;
  platformId: string;
  customerId: string;
  isPaused: boolean;
  policy: AgentPolicy;
  usage: AgentUsageCounters;
}

export type AgentActionOutcome = { kind: 'EXECUTED'; transactionId: string } | { kind: 'FAILED'; code: string; reason: string };

export type AgentActionCommand =
  | { type: 'RecordAgentQuote'; quoteId: string; now: string }
  | { type: 'SubmitAgentAction'; actionId: string; request: AgentActionRequest; usdValues: UsdValues; now: string }
  | { type: 'DecideAgentAction'; platformId: string; actionId: string; decision: 'APPROVE' | 'REJECT'; reason: string | null; actor: string; now: string }
  | { type: 'ClaimAgentActionRun'; actionId: string; runId: string; now: string }
  | { type: 'RecordAgentActionOutcome'; actionId: string; outcome: AgentActionOutcome; now: string };

export const AGENT_ACTION_COMMAND_TYPES: ReadonlySet<string> = new Set<AgentActionCommand['type']>([
  'RecordAgentQuote',
  'SubmitAgentAction',
  'DecideAgentAction',
  'ClaimAgentActionRun',
  'RecordAgentActionOutcome',
]);

const PERMISSION_BY_TYPE: Record<AgentActionType, AgentPermission> = {
  EXECUTE_QUOTE: 'EXECUTE_QUOTES',
  TRANSFER_OUT: 'CREATE_TRANSFERS',
  TRANSFER_IN: 'CREATE_TRANSFERS',
};

export function noActivity(): AgentActivity {
  return { quoteIds: {}, actions: {} };
}

export function decideAgentAction(agent: ActingAgent | null, command: AgentActionCommand): AgentActionEvent[] {
  if (agent === null) throw agentNotFound();
  const ref = { agentId: agent.agentId, platformId: agent.platformId };
  switch (command.type) {
    case 'RecordAgentQuote':
      if (agent.quoteIds[command.quoteId]) return [];
      return [{ type: 'AgentQuoteCreated', data: { ...ref, quoteId: command.quoteId, createdAt: command.now } }];
    case 'SubmitAgentAction':
      return decideSubmission(agent, command.actionId, command.request, command.usdValues, command.now);
    case 'DecideAgentAction': {
      if (agent.platformId !== command.platformId) throw agentNotFound();
      const action = pendingAction(agent, command.actionId);
      if (command.decision === 'APPROVE') {
        return [{ type: 'AgentActionApproved', data: { ...ref, actionId: action.actionId, approvedBy: command.actor, approvedAt: command.now } }];
      }
      return [{
        type: 'AgentActionRejected',
        data: { ...ref, actionId: action.actionId, reason: command.reason, rejectedBy: command.actor, reservation: action.reservation, rejectedAt: command.now },
      }];
    }
    case 'ClaimAgentActionRun': {
      const action = agent.actions[command.actionId];
      // Only an approved action that has not run, once: a second claim records nothing.
      if (!action || !isUnsettled(action) || action.runId) return [];
      return [{ type: 'AgentActionRunClaimed', data: { ...ref, actionId: action.actionId, runId: command.runId, claimedAt: command.now } }];
    }
    case 'RecordAgentActionOutcome': {
      const action = agent.actions[command.actionId];
      // Recorded once, for an approved action that has not run yet; a repeat records nothing.
      if (!action || !isUnsettled(action)) return [];
      const { outcome, now } = command;
      if (outcome.kind === 'EXECUTED') return [{ type: 'AgentActionExecuted', data: { ...ref, actionId: action.actionId, transactionId: outcome.transactionId, executedAt: now } }];
      return [{
        type: 'AgentActionFailed',
        data: { ...ref, actionId: action.actionId, code: outcome.code, reason: outcome.reason, reservation: action.reservation, failedAt: now },
      }];
    }
  }
}

/**
 * An EXECUTE_QUOTE names a quote this agent created (404 otherwise) with no live action (409).
 * Within policy, the action and its reservation are one event; outside, 403 FORBIDDEN with
 * `details.reason`. Pending actions reserve too: approving them can never overshoot a limit.
 */
function decideSubmission(agent: ActingAgent, actionId: string, request: AgentActionRequest, usdValues: UsdValues, now: string): AgentActionEvent[] {
  if (agent.actions[actionId]) return [];
  if (request.type === 'EXECUTE_QUOTE') {
    if (!request.quoteId || !agent.quoteIds[request.quoteId]) throw new DomainError('QUOTE_NOT_FOUND', 'Quote not found');
    const live = Object.values(agent.actions).find((action) => action.request.quoteId === request.quoteId && isLive(action));
    if (live) throw new DomainError('CONFLICT', 'The quote already has an action', { actionId: live.actionId, status: live.status });
  }
  const instant = new Date(now);
  const permission = PERMISSION_BY_TYPE[request.type];
  const decision = evaluateAction(agent, { permission, accountId: request.accountId, amount: request.amount, currency: request.currency }, usdValues, instant);
  if (decision.outcome === 'REFUSED') throw policyRefusal(decision);
  const reservation: UsageReservation = {
    amount: decision.amountInPolicyCurrency,
    currency: agent.policy.spendingLimits.currency,
    day: utcDay(instant),
    month: utcMonth(instant),
  };
  const pending = decision.outcome === 'APPROVAL_REQUIRED';
  return [{
    type: 'AgentActionSubmitted',
    data: {
      agentId: agent.agentId,
      platformId: agent.platformId,
      actionId,
      customerId: agent.customerId,
      request,
      status: pending ? 'PENDING_APPROVAL' : 'APPROVED',
      approvalCause: pending ? decision.cause : null,
      reservation,
      submittedAt: now,
    },
  }];
}

/** Approved, and its operation's outcome not recorded yet. */
export function isUnsettled(action: AgentActionState): boolean {
  return action.status === 'APPROVED' && action.transactionId === null;
}

/** Waiting for the platform, or approved and not yet run (or run): a quote has one at a time. */
function isLive(action: AgentActionState): boolean {
  return action.status === 'PENDING_APPROVAL' || action.status === 'APPROVED';
}

function pendingAction(agent: ActingAgent, actionId: string): AgentActionState {
  const action = agent.actions[actionId];
  if (!action) throw new DomainError('REFERENCE_NOT_FOUND', 'Agent action not found');
  if (action.status !== 'PENDING_APPROVAL') {
    throw new DomainError('CONFLICT', 'The action is not pending approval', { status: action.status });
  }
  return action;
}

const REFUSAL_MESSAGES: Record<Exclude<PolicyRefusal['reason'], 'AGENT_PAUSED' | 'AGENT_PERMISSION_MISSING'>, string> = {
  ACCOUNT_NOT_ALLOWED: "The agent's policy does not allow this account",
  PER_TRANSACTION_LIMIT_EXCEEDED: 'The amount exceeds the per-transaction limit',
  DAILY_TRANSACTION_LIMIT_EXCEEDED: 'The daily transaction limit is reached',
  DAILY_LIMIT_EXCEEDED: 'The amount exceeds what is left of the daily limit',
  MONTHLY_LIMIT_EXCEEDED: 'The amount exceeds what is left of the monthly limit',
};

/** 403 FORBIDDEN, the refusal's reason in `details.reason` (with its facts). */
export function policyRefusal(refusal: PolicyRefusal): DomainError {
  // The same answers as the agent's other routes give (access.ts).
  if (refusal.reason === 'AGENT_PAUSED') return agentPaused();
  if (refusal.reason === 'AGENT_PERMISSION_MISSING') return permissionMissing(refusal.facts.permission as AgentPermission);
  return new DomainError('FORBIDDEN', REFUSAL_MESSAGES[refusal.reason], { reason: refusal.reason, ...refusal.facts });
}

/** Folds an activity event into the agent; usage reserved at submission, released on rejection or failure. */
export function evolveAgentActivity<T extends ActingAgent>(agent: T, event: AgentActionEvent): T {
  switch (event.type) {
    case 'AgentQuoteCreated':
      return { ...agent, quoteIds: { ...agent.quoteIds, [event.data.quoteId]: true } };
    case 'AgentActionSubmitted': {
      const data = event.data;
      const action: AgentActionState = {
        actionId: data.actionId,
        customerId: data.customerId,
        request: data.request,
        status: data.status,
        reservation: data.reservation,
        transactionId: null,
        runId: null,
        rejectionReason: null,
        failureReason: null,
        createdAt: data.submittedAt,
        updatedAt: data.submittedAt,
      };
      return { ...agent, actions: { ...agent.actions, [action.actionId]: action }, usage: reserveUsage(agent.usage, data.reservation.amount, new Date(data.submittedAt)) };
    }
    case 'AgentActionApproved':
      return withAction(agent, event.data.actionId, { status: 'APPROVED', updatedAt: event.data.approvedAt });
    case 'AgentActionRunClaimed':
      return withAction(agent, event.data.actionId, { runId: event.data.runId });
    case 'AgentActionExecuted':
      return withAction(agent, event.data.actionId, { transactionId: event.data.transactionId, updatedAt: event.data.executedAt });
    case 'AgentActionRejected':
      return released(withAction(agent, event.data.actionId, { status: 'REJECTED', rejectionReason: event.data.reason, updatedAt: event.data.rejectedAt }), event.data.reservation);
    case 'AgentActionFailed':
      return released(withAction(agent, event.data.actionId, { status: 'FAILED', failureReason: event.data.reason, updatedAt: event.data.failedAt }), event.data.reservation);
  }
}

/** Counters are kept in the policy's currency: a reservation made in another one is not subtracted. */
export function releasedUsage(usage: AgentUsageCounters, policy: AgentPolicy, reservation: UsageReservation): AgentUsageCounters {
  return reservation.currency === policy.spendingLimits.currency ? releaseUsage(usage, reservation) : usage;
}

function released<T extends ActingAgent>(agent: T, reservation: UsageReservation): T {
  return { ...agent, usage: releasedUsage(agent.usage, agent.policy, reservation) };
}

function withAction<T extends ActingAgent>(agent: T, actionId: string, changes: Partial<AgentActionState>): T {
  const action = agent.actions[actionId];
  if (!action) return agent;
  return { ...agent, actions: { ...agent.actions, [actionId]: { ...action, ...changes } } };
}
