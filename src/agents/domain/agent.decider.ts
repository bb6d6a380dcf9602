import { Decider } from '../../infra/domain/decider';
import { DomainError } from '../../infra/domain/domain-error';
import { agentNotFound, deviceCodeNotFound, deviceCodeRefused } from './agents.errors';
import { AgentEvent } from './agent.events';
import { AGENT_ACTION_COMMAND_TYPES, AgentActionCommand, AgentActivity, decideAgentAction, evolveAgentActivity, noActivity } from './agent-actions';
import { AgentActionEvent } from './agent-action.events';
import { AgentPolicy, AgentPolicyUpdate, limitsNeedingRestatement, mergePolicy } from './policy/agent-policy';
import { UsdValues } from './policy/evaluation';
import { AgentUsageCounters, noUsage } from './usage';
import { recastUsage, withRecastReservations } from './usage-recast';

export type DeviceCodeStatus = 'ACTIVE' | 'REDEEMED' | 'INVALIDATED';

export interface DeviceCodeRecord {
  expiresAt: string;
  status: DeviceCodeStatus;
}

/** What an agent's views are made of; the read model's record carries the same fields. */
export interface AgentRecord {
  agentId: string;
  platformId: string;
  customerId: string;
  name: string;
  isPaused: boolean;
  isConnected: boolean;
  policy: AgentPolicy;
  usage: AgentUsageCounters;
  createdAt: string;
  updatedAt: string;
}

export type ExistingAgent = { status: 'active' } & AgentRecord & AgentActivity & {
  /** Every code ever issued, by sha256 hash. */
  deviceCodes: Record<string, DeviceCodeRecord>;
  /** The hash of the access token that works now (null until a code is redeemed). */
  tokenHash: string | null;
};

export type AgentState = { status: 'none' } | ExistingAgent | { status: 'deleted'; agentId: string; platformId: string };

/** `PATCH /agents/{id}`: absent fields stay. */
export interface AgentChanges {
  name?: string;
  isPaused?: boolean;
}

/**
 * What an agent can be asked. Its actions (agent-actions.ts: record a quote, submit an action,
 * approve or reject it, record its outcome) are decided on this same stream so that the usage
 * they reserve and the limits they are checked against never diverge under concurrency.
 */
export type AgentCommand =
  | {
      type: 'CreateAgent';
      agentId: string;
      platformId: string;
      customerId: string;
      name: string;
      policy: AgentPolicy;
      codeHash: string;
      codeExpiresAt: string;
      now: string;
    }
  | { type: 'UpdateAgent'; platformId: string; changes: AgentChanges; now: string }
  /** `usdValues`: the rate snapshot a change of the spending currency converts the usage at. */
  | { type: 'ChangeAgentPolicy'; platformId: string; update: AgentPolicyUpdate; usdValues: UsdValues; now: string }
  | { type: 'IssueDeviceCode'; platformId: string; codeHash: string; expiresAt: string; now: string }
  | { type: 'RedeemDeviceCode'; codeHash: string; tokenHash: string; now: string }
  | { type: 'DeleteAgent'; platformId: string; now: string }
  | AgentActionCommand;

export const agentDecider: Decider<AgentCommand, AgentState, AgentEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (isActionCommand(command)) return decideAgentAction(state.status === 'active' ? state : null, command);
    switch (command.type) {
      case 'CreateAgent': {
        if (state.status !== 'none') return [];
        const ref = { agentId: command.agentId, platformId: command.platformId };
        return [
          { type: 'AgentCreated', data: { ...ref, customerId: command.customerId, name: command.name, policy: command.policy, createdAt: command.now } },
          { type: 'AgentDeviceCodeIssued', data: { ...ref, codeHash: command.codeHash, expiresAt: command.codeExpiresAt, issuedAt: command.now } },
        ];
      }
      case 'UpdateAgent':
        return decideUpdate(ownAgent(state, command.platformId), command.changes, command.now);
      case 'ChangeAgentPolicy':
        return decidePolicyChange(ownAgent(state, command.platformId), command.update, command.usdValues, command.now);
      case 'IssueDeviceCode':
        return decideIssue(ownAgent(state, command.platformId), command.codeHash, command.expiresAt, command.now);
      case 'RedeemDeviceCode':
        return decideRedeem(state, command.codeHash, command.tokenHash, command.now);
      case 'DeleteAgent': {
        const agent = ownAgent(state, command.platformId);
        return [{ type: 'AgentDeleted', data: { ...refOf(agent), customerId: agent.customerId, tokenHash: agent.tokenHash, deletedAt: command.now } }];
      }
    }
  },

  evolve(state, event) {
    if (event.type === 'AgentCreated') {
      const data = event.data;
      return {
        status: 'active',
        agentId: data.agentId,
        platformId: data.platformId,
        customerId: data.customerId,
        name: data.name,
        isPaused: false,
        isConnected: false,
        policy: data.policy,
        usage: noUsage(),
        createdAt: data.createdAt,
        updatedAt: data.createdAt,
        deviceCodes: {},
        tokenHash: null,
        ...noActivity(),
      };
    }
    if (state.status !== 'active') return state;
    switch (event.type) {
      case 'AgentRenamed':
        return { ...state, name: event.data.name, updatedAt: event.data.renamedAt };
      case 'AgentPaused':
        return { ...state, isPaused: true, updatedAt: event.data.pausedAt };
      case 'AgentResumed':
        return { ...state, isPaused: false, updatedAt: event.data.resumedAt };
      case 'AgentPolicyChanged': {
        const recast = event.data.usageRecast;
        const changed = { ...state, policy: event.data.policy, updatedAt: event.data.changedAt };
        return recast ? { ...changed, usage: recast.usage, actions: withRecastReservations(state.actions, recast.reservations) } : changed;
      }
      case 'AgentDeviceCodeIssued':
        return { ...state, deviceCodes: { ...state.deviceCodes, [event.data.codeHash]: { expiresAt: event.data.expiresAt, status: 'ACTIVE' } } };
      case 'AgentDeviceCodeInvalidated':
        return withCodeStatus(state, event.data.codeHash, 'INVALIDATED');
      case 'AgentDeviceCodeRedeemed':
        return { ...withCodeStatus(state, event.data.codeHash, 'REDEEMED'), tokenHash: event.data.tokenHash, isConnected: true, updatedAt: event.data.redeemedAt };
      case 'AgentDeleted':
        return { status: 'deleted', agentId: state.agentId, platformId: state.platformId };
      default:
        return evolveAgentActivity(state, event as AgentActionEvent);
    }
  },
};

function isActionCommand(command: AgentCommand): command is AgentActionCommand {
  return AGENT_ACTION_COMMAND_TYPES.has(command.type);
}

/** The agent when it exists and is this platform's; otherwise 404, exactly as for an unknown id. */
export function ownAgent(state: AgentState, platformId: string): ExistingAgent {
  if (state.status !== 'active' || state.platformId !== platformId) throw agentNotFound();
  return state;
}

function refOf(agent: ExistingAgent): { agentId: string; platformId: string } {
  return { agentId: agent.agentId, platformId: agent.platformId };
}

/** Fields equal to what the agent already has record nothing. */
function decideUpdate(agent: ExistingAgent, changes: AgentChanges, now: string): AgentEvent[] {
  const ref = refOf(agent);
  const events: AgentEvent[] = [];
  if (changes.name !== undefined && changes.name !== agent.name) {
    events.push({ type: 'AgentRenamed', data: { ...ref, previousName: agent.name, name: changes.name, renamedAt: now } });
  }
  if (changes.isPaused === true && !agent.isPaused) events.push({ type: 'AgentPaused', data: { ...ref, pausedAt: now } });
  if (changes.isPaused === false && agent.isPaused) events.push({ type: 'AgentResumed', data: { ...ref, resumedAt: now } });
  return events;
}

function decidePolicyChange(agent: ExistingAgent, update: AgentPolicyUpdate, usdValues: UsdValues, now: string): AgentEvent[] {
  const unrestated = update.spendingLimits ? limitsNeedingRestatement(agent.policy, update.spendingLimits) : [];
  if (unrestated.length > 0) {
    const errors = unrestated.map((field) => ({
      field: `spendingLimits.${field}`,
      constraint: {},
      message: `spendingLimits.${field} must be given (or null) when the currency changes`,
    }));
    throw new DomainError('INVALID_INPUT', 'A new spending currency needs every amount limit restated in it', { errors, reason: 'LIMITS_NOT_RESTATED' });
  }
  const policy = mergePolicy(agent.policy, update);
  if (JSON.stringify(policy) === JSON.stringify(agent.policy)) return [];
  const currency = policy.spendingLimits.currency;
  const usageRecast = currency !== agent.policy.spendingLimits.currency ? { usageRecast: recastUsage(agent.usage, agent.actions, currency, usdValues) } : {};
  return [{ type: 'AgentPolicyChanged', data: { ...refOf(agent), previousPolicy: agent.policy, policy, ...usageRecast, changedAt: now } }];
}

/**
 * A new code invalidates the unredeemed, unexpired ones. An installed agent may get a code too
 * (reinstalling the software): its current token keeps working until the new code is redeemed.
 */
function decideIssue(agent: ExistingAgent, codeHash: string, expiresAt: string, now: string): AgentEvent[] {
  const ref = refOf(agent);
  const invalidated: AgentEvent[] = Object.entries(agent.deviceCodes)
    .filter(([, code]) => code.status === 'ACTIVE' && code.expiresAt > now)
    .map(([hash]) => ({ type: 'AgentDeviceCodeInvalidated', data: { ...ref, codeHash: hash, reason: 'REPLACED', invalidatedAt: now } }));
  return [...invalidated, { type: 'AgentDeviceCodeIssued', data: { ...ref, codeHash, expiresAt, issuedAt: now } }];
}

/** Single use, before expiry, newest code only; a deleted agent's codes are unknown. */
function decideRedeem(state: AgentState, codeHash: string, tokenHash: string, now: string): AgentEvent[] {
  const code = state.status === 'active' ? state.deviceCodes[codeHash] : undefined;
  if (state.status !== 'active' || !code) throw deviceCodeNotFound();
  if (code.status === 'REDEEMED') throw deviceCodeRefused('DEVICE_CODE_ALREADY_REDEEMED');
  if (code.status === 'INVALIDATED') throw deviceCodeRefused('DEVICE_CODE_INVALIDATED');
  if (code.expiresAt <= now) throw deviceCodeRefused('DEVICE_CODE_EXPIRED');
  return [{ type: 'AgentDeviceCodeRedeemed', data: { ...refOf(state), codeHash, tokenHash, previousTokenHash: state.tokenHash, redeemedAt: now } }];
}

function withCodeStatus(agent: ExistingAgent, codeHash: string, status: DeviceCodeStatus): ExistingAgent {
  const code = agent.deviceCodes[codeHash];
  if (!code) return agent;
  return { ...agent, deviceCodes: { ...agent.deviceCodes, [codeHash]: { ...code, status } } };
}
