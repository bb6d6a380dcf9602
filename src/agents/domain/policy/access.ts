import { DomainError } from '../../../infra/domain/domain-error';
import { AgentPermission, AgentPolicy } from './agent-policy';

/**
 * What an agent's own reads and account changes may reach (docs/agents.md "Agent API: reads and
 * accounts"): its permissions, its pause, and the internal accounts its policy restricts it to.
 * Pure; spending limits and approvals are evaluated in `evaluation.ts`.
 */

/** The agent's standing as a request finds it (read per request: a policy change is effective at once). */
export interface AgentStanding {
  isPaused: boolean;
  policy: AgentPolicy;
}

/** What an agent request may reach: its platform's resources of its customer, within its policy. */
export interface AgentScope {
  platformId: string;
  customerId: string;
  policy: AgentPolicy;
}

/**
 * READ: lists and gets, which a paused agent still makes ("paused agents cannot initiate any
 * actions": a read is not an action). CHANGE: creating or deleting something, refused while paused.
 */
export type AgentAccessKind = 'READ' | 'CHANGE';

/** Why the agent may not make this request (403), or null when it may. Permissions are checked first. */
export function accessRefusal(agent: AgentStanding, permission: AgentPermission, kind: AgentAccessKind): DomainError | null {
  if (!agent.policy.permissions.includes(permission)) return permissionMissing(permission);
  if (kind === 'CHANGE' && agent.isPaused) return agentPaused();
  return null;
}

export function permissionMissing(permission: AgentPermission): DomainError {
  return new DomainError('FORBIDDEN', `The agent's policy does not grant ${permission}`, { reason: 'AGENT_PERMISSION_MISSING', permission });
}

export function agentPaused(): DomainError {
  return new DomainError('FORBIDDEN', 'The agent is paused: it may read, not act', { reason: 'AGENT_PAUSED' });
}

/**
 * The internal accounts the agent may see and use: null for every account of its customer.
 * An empty list allows none (a restriction that names nothing restricts to nothing).
 */
export function allowedAccountIds(policy: AgentPolicy): readonly string[] | null {
  return policy.accountRestrictions?.allowedAccountIds ?? null;
}

export function isAccountAllowed(policy: AgentPolicy, accountId: string): boolean {
  const allowed = allowedAccountIds(policy);
  return allowed === null || allowed.includes(accountId);
}

/**
 * A transaction's accounts as the API shows them: a payment's two sides (either may name an
 * account), or a card transaction's funding account.
 */
export type TransactionSides =
  | { source: { accountId?: string } | null; destination: { accountId?: string } | null }
  | { type: 'CARD'; accountId: string };

/**
 * Under account restrictions a transaction is visible when its source or its destination is an
 * allowed account; one touching none of them (another account of the customer only, or no
 * internal account at all) is hidden as if it did not exist.
 */
export function isTransactionVisible(policy: AgentPolicy, transaction: TransactionSides): boolean {
  const allowed = allowedAccountIds(policy);
  if (allowed === null) return true;
  const accounts = 'source' in transaction ? [transaction.source?.accountId, transaction.destination?.accountId] : [transaction.accountId];
  return accounts.some((accountId) => accountId !== undefined && allowed.includes(accountId));
}
