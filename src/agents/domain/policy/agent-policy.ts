/**
 * An agent's policy (the reference's AgentPolicy): what it may do, how its actions run and how
 * much it may spend. Amounts are integers in minor units of the currency named next to them.
 * Pure types and merge rules; evaluating an action against the policy (permissions, limits,
 * account rules, thresholds) belongs in this folder too, next to these types.
 */
export const AGENT_PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'] as const;
export type AgentPermission = (typeof AGENT_PERMISSIONS)[number];

export const AGENT_EXECUTION_MODES = ['AUTO', 'APPROVAL_REQUIRED'] as const;
export type AgentExecutionMode = (typeof AGENT_EXECUTION_MODES)[number];

/** Null: no such limit. */
export interface AgentSpendingLimits {
  currency: string;
  perTransactionLimit: number;
  dailyLimit: number | null;
  dailyTransactionLimit: number | null;
  monthlyLimit: number | null;
}

/** A per-account override; null fields inherit from the agent's defaults. */
export interface AgentAccountRule {
  accountId: string;
  executionMode: AgentExecutionMode | null;
  perTransactionLimit: number | null;
}

export interface AgentAccountRestrictions {
  /** Null: every internal account of the customer. */
  allowedAccountIds: string[] | null;
  accountRules: AgentAccountRule[];
}

/** `currency` is set whenever `amount` is. */
export interface AgentApprovalThresholds {
  currency: string | null;
  amount: number | null;
}

export interface AgentPolicy {
  permissions: AgentPermission[];
  defaultExecutionMode: AgentExecutionMode;
  spendingLimits: AgentSpendingLimits;
  accountRestrictions: AgentAccountRestrictions | null;
  approvalThresholds: AgentApprovalThresholds | null;
}

/** `PATCH /agents/{id}/policy` (AgentSpendingLimitsUpdate): absent fields stay, null removes a limit. */
export interface AgentSpendingLimitsUpdate {
  currency?: string;
  perTransactionLimit?: number;
  dailyLimit?: number | null;
  dailyTransactionLimit?: number | null;
  monthlyLimit?: number | null;
}

/** `PATCH /agents/{id}/policy`: absent fields stay; null removes restrictions or thresholds. */
export interface AgentPolicyUpdate {
  permissions?: AgentPermission[];
  defaultExecutionMode?: AgentExecutionMode;
  spendingLimits?: AgentSpendingLimitsUpdate;
  accountRestrictions?: AgentAccountRestrictions | null;
  approvalThresholds?: AgentApprovalThresholds | null;
}

/** The policy after a partial update: lists and objects other than the spending limits are replaced whole. */
export function mergePolicy(policy: AgentPolicy, update: AgentPolicyUpdate): AgentPolicy {
  return {
    permissions: update.permissions ?? policy.permissions,
    defaultExecutionMode: update.defaultExecutionMode ?? policy.defaultExecutionMode,
    spendingLimits: update.spendingLimits ? { ...policy.spendingLimits, ...definedFields(update.spendingLimits) } : policy.spendingLimits,
    accountRestrictions: update.accountRestrictions !== undefined ? update.accountRestrictions : policy.accountRestrictions,
    approvalThresholds: update.approvalThresholds !== undefined ? update.approvalThresholds : policy.approvalThresholds,
  };
}

/**
 * Amount limits that a currency change leaves without a value in the new currency: the update
 * must restate each (or remove it with null), since the same number in another currency is
 * another amount (docs/agents.md "Policy").
 */
export function limitsNeedingRestatement(policy: AgentPolicy, update: AgentSpendingLimitsUpdate): Array<keyof AgentSpendingLimitsUpdate> {
  if (update.currency === undefined || update.currency === policy.spendingLimits.currency) return [];
  const amounts = ['perTransactionLimit', 'dailyLimit', 'monthlyLimit'] as const;
  return amounts.filter((field) => policy.spendingLimits[field] !== null && update[field] === undefined);
}

function definedFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
