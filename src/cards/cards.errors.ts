import { DomainError } from '../infra/domain/domain-error';

/**
 * Codes of the cards context (all in src/infra/http/error-catalogue.ts): `NOT_FOUND` (404; the
 * catalogue has no card-specific code), `CARDHOLDER_KYC_NOT_APPROVED` (400), and from the
 * decider `CARD_ALREADY_CLOSED`, `CARD_NOT_MUTABLE`, `INVALID_STATE_TRANSITION`, `CONFLICT` (409).
 */
export function cardNotFound(): DomainError {
  return new DomainError('NOT_FOUND', 'Card not found');
}

export function cardCardholderNotApproved(details: { customerType: string; kycStatus: string | null }): DomainError {
  const message =
    details.customerType === 'INDIVIDUAL'
      ? `A card cannot be issued unless the cardholder's KYC status is APPROVED (it is ${details.kycStatus})`
      : 'A card cannot be issued to a business customer: cards need an individual cardholder whose KYC status is APPROVED';
  return new DomainError('CARDHOLDER_KYC_NOT_APPROVED', message, details);
}

export function fundingSourcesNotFound(accountIds: string[]): DomainError {
  return new DomainError('NOT_FOUND', 'Funding source internal account not found', { accountIds });
}
