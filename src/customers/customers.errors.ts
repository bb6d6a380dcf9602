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

/**
 * Changing a deleted customer (PATCH): the customer still exists (GET shows it with
 * `isDeleted: true`) but its state forbids the change, and the operation declares 409, not 410.
 */
export function deletedCustomerConflict(): DomainError {
  return new DomainError('CONFLICT', 'The customer was deleted', { reason: CUSTOMER_DELETED });
}

/** A body naming a deleted customer (`POST /verifications`, `POST /documents`): those operations declare 400, not 410. */
export function deletedCustomerReference(field: string): DomainError {
  return new DomainError('INVALID_INPUT', 'The customer was deleted', { reason: CUSTOMER_DELETED, field });
}

/** Verifications and documents have no dedicated 404 code in the reference's Error404. */
export function verificationNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Verification not found');
}

export function documentNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'Document not found');
}
