import { DomainError, FieldError } from '../../infra/domain/domain-error';

/**
 * Codes of the cards context (all in src/infra/http/error-catalogue.ts): `REFERENCE_NOT_FOUND`
 * (404; the contract has no card-specific code), `CARDHOLDER_KYC_NOT_APPROVED` and
 * `INVALID_INPUT` (400), and from the decider `CARD_ALREADY_CLOSED`, `CARD_NOT_MUTABLE`,
 * `INVALID_STATE_TRANSITION`, `CONFLICT` (409, PATCH only: `POST /cards` declares no 409),
 * `NOT_IMPLEMENTED` (501: a reveal where no card processor shows card details).
 */
export function cardNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Card not found');
}

/**
 * A card of this platform whose full details cannot be revealed (PROCESSING: not issued yet;
 * CLOSED): 404, the reference's only refusal of a known card on `POST /cards/{id}/reveal`.
 */
export function cardDetailsUnavailable(cardId: string, state: string): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', `The card has no details to reveal: it is ${state}`, { cardId, state });
}

/** Outside the sandbox no card processor is configured to show the full details (the reference's 501). */
export function cardRevealNotAvailable(): DomainError {
  return new DomainError('NOT_IMPLEMENTED', 'Card details cannot be revealed: no card issuer is configured in this environment');
}

/** A `cardholderId` naming no usable customer: 400 with the field and a machine-readable reason. */
export function cardholderRefused(message: string, reason: 'CARDHOLDER_NOT_FOUND' | 'CARDHOLDER_DELETED'): DomainError {
  const errors: FieldError[] = [{ field: 'cardholderId', constraint: {}, message }];
  return new DomainError('INVALID_INPUT', message, { errors, reason });
}

/**
 * Funding sources that are not the cardholder's card-eligible accounts; `reason` is the
 * production service's name for this refusal, which its 400 code list lacks.
 */
export function fundingSourcesRefused(errors: FieldError[]): DomainError {
  return new DomainError('INVALID_INPUT', 'Every funding source must be an internal account of the cardholder in a card-eligible currency', {
    errors,
    reason: 'FUNDING_SOURCE_INELIGIBLE',
  });
}

/** `platformCardId` names at most one card per platform, for good. */
export function platformCardIdTaken(platformCardId: string, cardId: string | null): DomainError {
  const message = 'A card with this platformCardId already exists';
  const errors: FieldError[] = [{ field: 'platformCardId', constraint: {}, message }];
  return new DomainError('INVALID_INPUT', message, cardId ? { errors, reason: 'PLATFORM_CARD_ID_EXISTS', platformCardId, cardId } : { errors, reason: 'PLATFORM_CARD_ID_EXISTS', platformCardId });
}

export function cardCardholderNotApproved(details: { customerType: string; kycStatus: string | null }): DomainError {
  const message =
    details.customerType === 'INDIVIDUAL'
      ? `A card cannot be issued unless the cardholder's KYC status is APPROVED (it is ${details.kycStatus})`
      : 'A card cannot be issued to a business customer: cards need an individual cardholder whose KYC status is APPROVED';
  return new DomainError('CARDHOLDER_KYC_NOT_APPROVED', message, details);
}
