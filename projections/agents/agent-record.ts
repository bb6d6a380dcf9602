import { AgentEvent, AgentRecord, noUsage, releasedUsage, reserveUsage } from '../../src/agents';

/**
 * The `agents` read model's own record of one agent: what its views and list filters show,
 * folded from the agent's events (never the decider's state, which also keeps device codes and
 * the token hash). Device codes and tokens have tables of their own (agents.projection.ts).
 */
export type AgentReadRecord = AgentRecord;

/** Folds one event; null before the agent exists and once it is deleted. */
export function evolveAgentRecord(record: AgentReadRecord | null, event: AgentEvent): AgentReadRecord | null {
  if (event.type === 'AgentCreated') {
    const { agentId, platformId, customerId, name, policy, createdAt } = event.data;
    return { agentId, platformId, customerId, name, isPaused: false, isConnected: false, policy, usage: noUsage(), createdAt, updatedAt: createdAt };
  }
  if (record === null) return null;
  switch (event.type) {
    case 'AgentRenamed':
      return { ...record, name: event.data.name, updatedAt: event.data.renamedAt };
    case 'AgentPaused':
      return { ...record, isPaused: true, updatedAt: event.data.pausedAt };
    case 'AgentResumed':
      return { ...record, isPaused: false, updatedAt: event.data.resumedAt };
    case 'AgentPolicyChanged': {
      // A new spending currency re-expresses the usage in it (src/agents/domain/usage-recast.ts).
      const usage = event.data.usageRecast?.usage ?? record.usage;
      return { ...record, policy: event.data.policy, usage, updatedAt: event.data.changedAt };
    }
    case 'AgentDeviceCodeRedeemed':
      return { ...record, isConnected: true, updatedAt: event.data.redeemedAt };
    case 'AgentDeviceCodeIssued':
    case 'AgentDeviceCodeInvalidated':
      return record;
    case 'AgentDeleted':
      return null;
    // Usage: reserved when an action is submitted, given back when it is rejected or fails.
    case 'AgentActionSubmitted':
      return { ...record, usage: reserveUsage(record.usage, event.data.reservation.amount, new Date(event.data.submittedAt)) };
    case 'AgentActionRejected':
    case 'AgentActionFailed':
      return { ...record, usage: releasedUsage(record.usage, record.policy, event.data.reservation) };
    case 'AgentQuoteCreated':
    case 'AgentActionApproved':
    case 'AgentActionRunClaimed':
    case 'AgentActionExecuted':
      return record;
  }
}
