import { FieldError } from '../../infra/domain/domain-error';
import { hasErrorAt } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { AgentAccountRestrictions, AgentApprovalThresholds, AgentPolicy, AgentPolicyUpdate } from '../domain/policy/agent-policy';
import { AccountRestrictionsDto, AgentPolicyDto, ApprovalThresholdsDto, UpdateAgentPolicyDto } from './agents.dto';

/**
 * What the DTOs' decorators cannot say about a policy: ids of the right type, each listed once,
 * and a threshold's currency when it has an amount. Adds one error per problem at `<prefix>.<field>`
 * unless the field already has a shape error.
 */
export function checkPolicyFields(value: Partial<AgentPolicyDto> | UpdateAgentPolicyDto, prefix: string, errors: FieldError[]): void {
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  if (Array.isArray(value.permissions) && !hasErrorAt(errors, at('permissions'))) {
    value.permissions.forEach((permission, index) => {
      if (value.permissions!.indexOf(permission) !== index) errors.push({ field: at(`permissions.${index}`), constraint: {}, message: `${permission} is listed twice` });
    });
  }
  const restrictions = value.accountRestrictions;
  if (restrictions && !hasErrorAt(errors, at('accountRestrictions'))) checkAccountIds(restrictions, at('accountRestrictions'), errors);
  const thresholds = value.approvalThresholds;
  if (thresholds && !hasErrorAt(errors, at('approvalThresholds')) && thresholds.amount != null && thresholds.currency === undefined) {
    errors.push({ field: at('approvalThresholds.currency'), constraint: {}, message: 'approvalThresholds.currency is required when amount is set' });
  }
}

function checkAccountIds(restrictions: AccountRestrictionsDto, prefix: string, errors: FieldError[]): void {
  const check = (accountId: string, field: string, seen: Set<string>) => {
    if (!parseId('InternalAccount', accountId)) {
      errors.push({ field, constraint: { format: 'InternalAccount-id' }, message: `${field} must be an InternalAccount:<uuid> id` });
    } else if (seen.has(accountId)) {
      errors.push({ field, constraint: {}, message: `${accountId} is listed twice` });
    }
    seen.add(accountId);
  };
  const allowed = new Set<string>();
  (restrictions.allowedAccountIds ?? []).forEach((accountId, index) => check(accountId, `${prefix}.allowedAccountIds.${index}`, allowed));
  const ruled = new Set<string>();
  (restrictions.accountRules ?? []).forEach((rule, index) => check(rule.accountId, `${prefix}.accountRules.${index}.accountId`, ruled));
}

/** A valid AgentPolicyDto as the domain's policy (absent fields as null). */
export function toPolicy(dto: AgentPolicyDto): AgentPolicy {
  const limits = dto.spendingLimits;
  return {
    permissions: dto.permissions,
    defaultExecutionMode: dto.defaultExecutionMode,
    spendingLimits: {
      currency: limits.currency,
      perTransactionLimit: limits.perTransactionLimit,
      dailyLimit: limits.dailyLimit ?? null,
      dailyTransactionLimit: limits.dailyTransactionLimit ?? null,
      monthlyLimit: limits.monthlyLimit ?? null,
    },
    accountRestrictions: toRestrictions(dto.accountRestrictions),
    approvalThresholds: toThresholds(dto.approvalThresholds),
  };
}

/** A valid UpdateAgentPolicyDto as the domain's update (absent stays absent, null stays null). */
export function toPolicyUpdate(dto: UpdateAgentPolicyDto): AgentPolicyUpdate {
  const update: AgentPolicyUpdate = {};
  if (dto.permissions !== undefined) update.permissions = dto.permissions;
  if (dto.defaultExecutionMode !== undefined) update.defaultExecutionMode = dto.defaultExecutionMode;
  if (dto.spendingLimits !== undefined) update.spendingLimits = { ...dto.spendingLimits };
  if (dto.accountRestrictions !== undefined) update.accountRestrictions = toRestrictions(dto.accountRestrictions);
  if (dto.approvalThresholds !== undefined) update.approvalThresholds = toThresholds(dto.approvalThresholds);
  return update;
}

function toRestrictions(dto: AccountRestrictionsDto | null | undefined): AgentAccountRestrictions | null {
  if (!dto) return null;
  return {
    allowedAccountIds: dto.allowedAccountIds ?? null,
    accountRules: (dto.accountRules ?? []).map((rule) => ({ accountId: rule.accountId, executionMode: rule.executionMode ?? null, perTransactionLimit: rule.perTransactionLimit ?? null })),
  };
}

function toThresholds(dto: ApprovalThresholdsDto | null | undefined): AgentApprovalThresholds | null {
  if (!dto) return null;
  return { currency: dto.currency ?? null, amount: dto.amount ?? null };
}
