import { DomainError, FieldError } from '../../infra/domain/domain-error';

/**
 * Codes of the invitations context (all in src/infra/http/error-catalogue.ts):
 * `INVITATION_NOT_FOUND` (404: unknown code, malformed code, another platform's invitation),
 * `INVITATIONS_NOT_CONFIGURED`, `INVITATION_ALREADY_CLAIMED`, `INVITATION_CANCELLED`,
 * `INVALID_UMA_ADDRESS` and `INVALID_INPUT` (400). The reference lists no code for an expired
 * invitation: INVALID_INPUT with `details.reason: INVITATION_EXPIRED`.
 */
export function invitationNotFound(): DomainError {
  return new DomainError('INVITATION_NOT_FOUND', 'Invitation not found');
}

export function invitationsNotConfigured(): DomainError {
  return new DomainError('INVITATIONS_NOT_CONFIGURED', 'Invitations are not configured: set the platform\'s umaDomain with PATCH /config');
}

export function invitationAlreadyClaimed(claimedAt: string): DomainError {
  return new DomainError('INVITATION_ALREADY_CLAIMED', 'Invitation has already been claimed', { claimedAt });
}

export function invitationCancelled(cancelledAt: string): DomainError {
  return new DomainError('INVITATION_CANCELLED', 'Invitation has been cancelled', { cancelledAt });
}

export function invitationExpired(expiresAt: string): DomainError {
  return new DomainError('INVALID_INPUT', `Invitation expired at ${expiresAt}`, { reason: 'INVITATION_EXPIRED', expiresAt });
}

/** 400 INVALID_INPUT naming one field. */
export function invitationFieldRefused(field: string, message: string, reason?: string): DomainError {
  const errors: FieldError[] = [{ field, constraint: {}, message }];
  return new DomainError('INVALID_INPUT', message, reason ? { errors, reason } : { errors });
}
