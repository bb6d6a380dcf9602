import { DomainError } from '../../infra/domain/domain-error';

/**
 * Codes of the agents context (all in src/infra/http/error-catalogue.ts): `REFERENCE_NOT_FOUND`
 * (404; the reference has no agent-specific code) for an unknown, deleted or another platform's
 * agent or device code, and `INVALID_INPUT` (400) with a machine-readable `details.reason` for a
 * device code that cannot be redeemed any more.
 */
export function agentNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Agent not found');
}

export function deviceCodeNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Device code not found');
}

export type DeviceCodeRefusal = 'DEVICE_CODE_ALREADY_REDEEMED' | 'DEVICE_CODE_EXPIRED' | 'DEVICE_CODE_INVALIDATED';

const REFUSAL_MESSAGES: Record<DeviceCodeRefusal, string> = {
  DEVICE_CODE_ALREADY_REDEEMED: 'This device code was already redeemed; ask the platform for a new one',
  DEVICE_CODE_EXPIRED: 'This device code has expired; ask the platform for a new one',
  DEVICE_CODE_INVALIDATED: 'This device code was replaced by a newer one; use the newest code',
};

export function deviceCodeRefused(reason: DeviceCodeRefusal): DomainError {
  return new DomainError('INVALID_INPUT', REFUSAL_MESSAGES[reason], { reason });
}
