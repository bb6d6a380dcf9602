import { AGENT_ACTION_EVENT_TYPES, AgentActionEvent } from './agent-action.events';
import { AgentPolicy } from './policy/agent-policy';
import { UsageRecast } from './usage-recast';

/**
 * Agent events (issue 26, docs/agents.md), all on the agent's stream `agent-<uuid>`. Every
 * payload carries the agent id and the platform id (tenancy, audit). Device codes and access
 * tokens appear only as sha256 hashes: the secrets themselves are answered once and never stored.
 * Never rename an event type: add a new one.
 */
type AgentRef = {
  agentId: string;
  platformId: string;
};

export interface AgentCreated {
  type: 'AgentCreated';
  data: AgentRef & { customerId: string; name: string; policy: AgentPolicy; createdAt: string };
}

export interface AgentRenamed {
  type: 'AgentRenamed';
  data: AgentRef & { previousName: string; name: string; renamedAt: string };
}

export interface AgentPaused {
  type: 'AgentPaused';
  data: AgentRef & { pausedAt: string };
}

export interface AgentResumed {
  type: 'AgentResumed';
  data: AgentRef & { resumedAt: string };
}

/** `usageRecast`: when `spendingLimits.currency` changed, the usage in the new currency (usage-recast.ts). */
export interface AgentPolicyChanged {
  type: 'AgentPolicyChanged';
  data: AgentRef & { previousPolicy: AgentPolicy; policy: AgentPolicy; usageRecast?: UsageRecast; changedAt: string };
}

/** A code the agent software can redeem once before `expiresAt`. */
export interface AgentDeviceCodeIssued {
  type: 'AgentDeviceCodeIssued';
  data: AgentRef & { codeHash: string; expiresAt: string; issuedAt: string };
}

/** An unredeemed code made unusable because a newer one was issued. */
export interface AgentDeviceCodeInvalidated {
  type: 'AgentDeviceCodeInvalidated';
  data: AgentRef & { codeHash: string; reason: 'REPLACED'; invalidatedAt: string };
}

/** The agent software installed itself: its token (hash) replaces any previous one. */
export interface AgentDeviceCodeRedeemed {
  type: 'AgentDeviceCodeRedeemed';
  data: AgentRef & { codeHash: string; tokenHash: string; previousTokenHash: string | null; redeemedAt: string };
}

/** Deleted for good: its token and codes stop working with this event. */
export interface AgentDeleted {
  type: 'AgentDeleted';
  data: AgentRef & { customerId: string; tokenHash: string | null; deletedAt: string };
}

export type AgentEvent =
  | AgentCreated
  | AgentRenamed
  | AgentPaused
  | AgentResumed
  | AgentPolicyChanged
  | AgentDeviceCodeIssued
  | AgentDeviceCodeInvalidated
  | AgentDeviceCodeRedeemed
  | AgentDeleted
  | AgentActionEvent;

export const AGENT_EVENT_TYPES: AgentEvent['type'][] = [
  'AgentCreated',
  'AgentRenamed',
  'AgentPaused',
  'AgentResumed',
  'AgentPolicyChanged',
  'AgentDeviceCodeIssued',
  'AgentDeviceCodeInvalidated',
  'AgentDeviceCodeRedeemed',
  'AgentDeleted',
  ...AGENT_ACTION_EVENT_TYPES,
];
