import { DomainError } from '../infra/domain/domain-error';

/** Codes of the customers context (all in src/infra/http/error-catalogue.ts). */
export const CUSTOMER_NOT_FOUND = 'USER_NOT_FOUND';
export const CUSTOMER_DELETED = 'CUSTOMER_DELETED';

export function customerNotFound(): DomainError {
  return new DomainError(CUSTOMER_NOT_FOUND, 'Customer not found');
}

export function customerDeleted(): DomainError {
  return new DomainError(CUSTOMER_DELETED, 'The customer was deleted');
}

export function verificationNotFound(): DomainError {
  return new DomainError('NOT_FOUND', 'Verification not found');
}

export function documentNotFound(): DomainError {
  return new DomainError('NOT_FOUND', 'Document not found');
}
