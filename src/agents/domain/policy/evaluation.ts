import { CURRENCIES } from '../../../shared/currencies';
import { ApprovalCause } from '../agent-action.events';
import { AgentUsageCounters, currentUsage } from '../usage';
import { isAccountAllowed } from './access';
import { AgentExecutionMode, AgentPermission, AgentPolicy } from './agent-policy';

/**
 * Evaluating an agent's request against its policy (docs/agents.md "Actions and policy"): pure,
 * decided on the agent's stream, so the usage it reads is the one the previous decision left.
 * In order: a missing permission, a paused agent, an account the restrictions exclude, then the
 * amount against the per-transaction limit (an account rule's override first), the daily count,
 * the daily and the monthly spend (each with what is already reserved); within all of them the
 * execution mode (an account rule's override first) and the approval threshold decide whether it
 * runs at once or waits for the platform.
 */
export type PolicyRefusalReason =
  | 'AGENT_PAUSED'
  | 'AGENT_PERMISSION_MISSING'
  | 'ACCOUNT_NOT_ALLOWED'
  | 'PER_TRANSACTION_LIMIT_EXCEEDED'
  | 'DAILY_TRANSACTION_LIMIT_EXCEEDED'
  | 'DAILY_LIMIT_EXCEEDED'
  | 'MONTHLY_LIMIT_EXCEEDED';

export interface PolicyRefusal {
  outcome: 'REFUSED';
  reason: PolicyRefusalReason;
  /** Machine-readable facts for the answer's `details` (limit, amount, permission, ...). */
  facts: Record<string, unknown>;
}

export type PolicyDecision =
  | PolicyRefusal
  | { outcome: 'AUTO'; amountInPolicyCurrency: number }
  | { outcome: 'APPROVAL_REQUIRED'; cause: ApprovalCause; amountInPolicyCurrency: number };

/** What the policy reads of the agent. */
export interface PolicySubject {
  isPaused: boolean;
  policy: AgentPolicy;
  usage: AgentUsageCounters;
}

/**
 * The service's current mid-market values, one major unit in US dollars as exact decimal text
 * per currency (the quotes' rate snapshot, src/quotes/pricing/rate-table.ts). USD and the USD
 * stablecoins are 1 there, so they convert 1:1 into each other.
 */
export type UsdValues = Readonly<Record<string, string>>;

export interface ActionToEvaluate {
  permission: AgentPermission;
  /** The customer's internal account the action moves money from or to. */
  accountId: string;
  amount: number;
  currency: string;
}

/** Paused, permission and account restriction: what every agent request passes, money or not. */
export function evaluateAccess(subject: PolicySubject, permission: AgentPermission, accountId: string | null): PolicyRefusal | null {
  // Permission before pause, as for the agent's other routes (access.ts).
  if (!subject.policy.permissions.includes(permission)) return refusal('AGENT_PERMISSION_MISSING', { permission });
  if (subject.isPaused) return refusal('AGENT_PAUSED', {});
  if (accountId !== null && !isAccountAllowed(subject.policy, accountId)) return refusal('ACCOUNT_NOT_ALLOWED', { accountId });
  return null;
}

export function evaluateAction(subject: PolicySubject, action: ActionToEvaluate, usdValues: UsdValues, now: Date): PolicyDecision {
  const access = evaluateAccess(subject, action.permission, action.accountId);
  if (access) return access;
  const { policy } = subject;
  const limits = policy.spendingLimits;
  const amount = convertMinor(action.amount, action.currency, limits.currency, usdValues);
  const rule = policy.accountRestrictions?.accountRules.find((candidate) => candidate.accountId === action.accountId) ?? null;
  const perTransactionLimit = rule?.perTransactionLimit ?? limits.perTransactionLimit;
  const usage = currentUsage(subject.usage, now);
  const currency = limits.currency;
  if (amount > perTransactionLimit) return refusal('PER_TRANSACTION_LIMIT_EXCEEDED', { limit: perTransactionLimit, amount, currency });
  if (limits.dailyTransactionLimit !== null && usage.dailyTransactionCount + 1 > limits.dailyTransactionLimit) {
    return refusal('DAILY_TRANSACTION_LIMIT_EXCEEDED', { limit: limits.dailyTransactionLimit, used: usage.dailyTransactionCount });
  }
  if (limits.dailyLimit !== null && usage.dailySpend + amount > limits.dailyLimit) {
    return refusal('DAILY_LIMIT_EXCEEDED', { limit: limits.dailyLimit, used: usage.dailySpend, amount, currency });
  }
  if (limits.monthlyLimit !== null && usage.monthlySpend + amount > limits.monthlyLimit) {
    return refusal('MONTHLY_LIMIT_EXCEEDED', { limit: limits.monthlyLimit, used: usage.monthlySpend, amount, currency });
  }
  const mode: AgentExecutionMode = rule?.executionMode ?? policy.defaultExecutionMode;
  if (mode === 'APPROVAL_REQUIRED') return { outcome: 'APPROVAL_REQUIRED', cause: 'EXECUTION_MODE', amountInPolicyCurrency: amount };
  if (aboveThreshold(policy, action, usdValues)) return { outcome: 'APPROVAL_REQUIRED', cause: 'APPROVAL_THRESHOLD', amountInPolicyCurrency: amount };
  return { outcome: 'AUTO', amountInPolicyCurrency: amount };
}

/** Strictly above the threshold's amount, compared in the threshold's own currency. */
function aboveThreshold(policy: AgentPolicy, action: ActionToEvaluate, usdValues: UsdValues): boolean {
  const threshold = policy.approvalThresholds;
  if (!threshold || threshold.amount === null || threshold.currency === null) return false;
  return convertMinor(action.amount, action.currency, threshold.currency, usdValues) > threshold.amount;
}

function refusal(reason: PolicyRefusalReason, facts: Record<string, unknown>): PolicyRefusal {
  return { outcome: 'REFUSED', reason, facts };
}

/**
 * `amount` minor units of `from` in minor units of `to` at the given USD values, rounded UP: a
 * limit is never passed by a rounding. Exact (bigint) arithmetic; the same currency is unchanged.
 */
export function convertMinor(amount: number, from: string, to: string, usdValues: UsdValues): number {
  if (from === to) return amount;
  const fromValue = decimal(usdValues[from], from);
  const toValue = decimal(usdValues[to], to);
  const numerator = BigInt(amount) * fromValue.n * toValue.d * 10n ** BigInt(decimalsOf(to));
  const denominator = fromValue.d * toValue.n * 10n ** BigInt(decimalsOf(from));
  return Number((numerator + denominator - 1n) / denominator);
}

function decimalsOf(code: string): number {
  const known = CURRENCIES[code];
  if (!known) throw new Error(`Unknown currency ${code}`);
  return known.decimals;
}

function decimal(text: string | undefined, code: string): { n: bigint; d: bigint } {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text)) throw new Error(`No rate for ${code}`);
  const [whole, fraction = ''] = text.split('.');
  return { n: BigInt(whole + fraction), d: 10n ** BigInt(fraction.length) };
}
