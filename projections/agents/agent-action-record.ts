import { AgentActionEvent, AgentActionSource } from '../../src/agents';

/**
 * The `agent_actions` read model's own record of one agent action: what its view, the agent's
 * action list and the platform's approval list show, folded from the agent's action events: the
 * fields an action's view is made of (AgentActionSource), so the read model stores no other shape.
 */
export type AgentActionReadRecord = AgentActionSource;

/** Folds one action event; null for events that concern no action (a quote the agent created). */
export function evolveAgentActionRecord(record: AgentActionReadRecord | null, event: AgentActionEvent): AgentActionReadRecord | null {
  if (event.type === 'AgentActionSubmitted') {
    const { actionId, agentId, platformId, customerId, request, status, submittedAt } = event.data;
    return { actionId, agentId, platformId, customerId, request, status, transactionId: null, rejectionReason: null, failureReason: null, createdAt: submittedAt, updatedAt: submittedAt };
  }
  if (record === null) return null;
  switch (event.type) {
    case 'AgentActionApproved':
      return { ...record, status: 'APPROVED', updatedAt: event.data.approvedAt };
    case 'AgentActionRejected':
      return { ...record, status: 'REJECTED', rejectionReason: event.data.reason, updatedAt: event.data.rejectedAt };
    case 'AgentActionExecuted':
      return { ...record, transactionId: event.data.transactionId, updatedAt: event.data.executedAt };
    case 'AgentActionFailed':
      return { ...record, status: 'FAILED', failureReason: event.data.reason, updatedAt: event.data.failedAt };
    case 'AgentQuoteCreated':
    case 'AgentActionRunClaimed':
      return record;
  }
}
