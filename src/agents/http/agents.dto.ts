import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsObject, IsString, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { MAX_AMOUNT_MINOR, CURRENCY_CODES } from '../../shared/currencies';
import { Optional } from '../../shared/validation/common-validators';
import { AGENT_EXECUTION_MODES, AGENT_PERMISSIONS, AgentExecutionMode, AgentPermission } from '../domain/policy/agent-policy';

/** Null is a value here (it removes a limit or a restriction); only an absent field is skipped. */
const Nullable = () => ValidateIf((_object, value) => value !== undefined && value !== null);

/** At most this many accounts in a policy's lists (a customer has one account per currency). */
export const MAX_POLICY_ACCOUNTS = 50;
export const MAX_AGENT_NAME_LENGTH = 200;

/** AgentSpendingLimits. */
export class SpendingLimitsDto {
  @IsDefined() @IsString() @IsIn(CURRENCY_CODES) currency: string;
  @IsDefined() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) perTransactionLimit: number;
  @Nullable() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) dailyLimit?: number | null;
  @Nullable() @IsInt() @Min(0) @Max(1_000_000) dailyTransactionLimit?: number | null;
  @Nullable() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) monthlyLimit?: number | null;
}

/** AgentSpendingLimitsUpdate: absent fields stay, null removes a limit. */
export class SpendingLimitsUpdateDto {
  @Optional() @IsString() @IsIn(CURRENCY_CODES) currency?: string;
  @Optional() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) perTransactionLimit?: number;
  @Nullable() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) dailyLimit?: number | null;
  @Nullable() @IsInt() @Min(0) @Max(1_000_000) dailyTransactionLimit?: number | null;
  @Nullable() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) monthlyLimit?: number | null;
}

/** AgentAccountRule. */
export class AccountRuleDto {
  @IsDefined() @IsString() accountId: string;
  @Nullable() @IsString() @IsIn(AGENT_EXECUTION_MODES) executionMode?: AgentExecutionMode | null;
  @Nullable() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) perTransactionLimit?: number | null;
}

/** AgentAccountRestrictions: ids are checked against the customer's accounts by the use case. */
export class AccountRestrictionsDto {
  @Nullable() @IsArray() @ArrayMaxSize(MAX_POLICY_ACCOUNTS) @IsString({ each: true }) allowedAccountIds?: string[] | null;
  @Optional() @IsArray() @ArrayMaxSize(MAX_POLICY_ACCOUNTS) @ValidateNested({ each: true }) @Type(() => AccountRuleDto) accountRules?: AccountRuleDto[];
}

/** AgentApprovalThresholds: `currency` is required when `amount` is set (checked beside). */
export class ApprovalThresholdsDto {
  @Optional() @IsString() @IsIn(CURRENCY_CODES) currency?: string;
  @Nullable() @IsInt() @Min(0) @Max(MAX_AMOUNT_MINOR) amount?: number | null;
}

/** AgentPolicy. */
export class AgentPolicyDto {
  @IsDefined() @IsArray() @IsIn(AGENT_PERMISSIONS, { each: true }) permissions: AgentPermission[];
  @IsDefined() @IsString() @IsIn(AGENT_EXECUTION_MODES) defaultExecutionMode: AgentExecutionMode;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => SpendingLimitsDto) spendingLimits: SpendingLimitsDto;
  @Optional() @IsObject() @ValidateNested() @Type(() => AccountRestrictionsDto) accountRestrictions?: AccountRestrictionsDto;
  @Optional() @IsObject() @ValidateNested() @Type(() => ApprovalThresholdsDto) approvalThresholds?: ApprovalThresholdsDto;
}

/** `POST /agents` (AgentCreateRequest). */
export class CreateAgentDto {
  @IsDefined() @IsString() @MinLength(1) @MaxLength(MAX_AGENT_NAME_LENGTH) name: string;
  @IsDefined() @IsString() customerId: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => AgentPolicyDto) policy: AgentPolicyDto;
}

/** `PATCH /agents/{id}` (AgentUpdateRequest): at least one field. */
export class UpdateAgentDto {
  @Optional() @IsString() @MinLength(1) @MaxLength(MAX_AGENT_NAME_LENGTH) name?: string;
  @Optional() @IsBoolean() isPaused?: boolean;
}

/** `PATCH /agents/{id}/policy` (AgentPolicyUpdateRequest): at least one field; null removes restrictions or thresholds. */
export class UpdateAgentPolicyDto {
  @Optional() @IsArray() @IsIn(AGENT_PERMISSIONS, { each: true }) permissions?: AgentPermission[];
  @Optional() @IsString() @IsIn(AGENT_EXECUTION_MODES) defaultExecutionMode?: AgentExecutionMode;
  @Optional() @IsObject() @ValidateNested() @Type(() => SpendingLimitsUpdateDto) spendingLimits?: SpendingLimitsUpdateDto;
  @Nullable() @IsObject() @ValidateNested() @Type(() => AccountRestrictionsDto) accountRestrictions?: AccountRestrictionsDto | null;
  @Nullable() @IsObject() @ValidateNested() @Type(() => ApprovalThresholdsDto) approvalThresholds?: ApprovalThresholdsDto | null;
}
