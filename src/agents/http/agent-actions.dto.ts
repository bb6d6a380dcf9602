import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../shared/validation/common-validators';

/** `POST /agents/{agentId}/actions/{actionId}/reject` (AgentActionRejectRequest): an optional body. */
export class AgentActionRejectDto {
  @Optional() @IsString() @MaxLength(1000) reason?: string;
}

/** The reference's AgentActionStatus (the agent's action list filter). */
export const AGENT_ACTION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'] as const;

