import { DomainError, ValidationError } from '../../infra/domain/domain-error';

/*
 * POST /quotes declares no 404, 409 or 410: what the request names but does not exist (or may no
 * longer be used) is a field of the request (400 INVALID_INPUT naming it), as the contract's
 * field errors allow; the other refusals keep their declared statuses.
 */
const NOT_FOUND_CODES = new Set(['NOT_FOUND', 'REFERENCE_NOT_FOUND']);

export function unknownAs(error: unknown, field: string, message: string): unknown {
  return error instanceof DomainError && NOT_FOUND_CODES.has(error.code) ? new ValidationError([{ field, constraint: {}, message }]) : error;
}

/** An unknown or deleted customer is a bad field; one not approved to transact stays 403. */
export function unusableCustomer(error: unknown, field: string): unknown {
  if (!(error instanceof DomainError)) return error;
  if (error.code === 'USER_NOT_FOUND') return new ValidationError([{ field, constraint: {}, message: 'No customer with this id' }]);
  if (error.code === 'CUSTOMER_DELETED') return new ValidationError([{ field, constraint: {}, message: 'The customer was deleted' }]);
  return error;
}

/**
 * The declared answer for a refusal on the way (POST /quotes declares 400, 401, 403, 412, 424,
 * 429, 500, 501): no receiver at a well-formed UMA address is an invalid receiver; another
 * conflict (a concurrent change) is a retryable quote failure. One exception, because SPEC.md
 * wins over the reference: an SCA customer without a live SCA login answers 409
 * SCA_SESSION_REQUIRED (SPEC.md Authentication 7), as on execute and authorize.
 */
export function quoteCreationRefusal(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  const details = error.details ?? {};
  if (error.code === 'UMA_NOT_FOUND') return new DomainError('INVALID_RECEIVER', error.message, { ...details, reason: 'UMA_NOT_FOUND' });
  if (error.code === 'CONFLICT' || error.code === 'INVALID_STATE_TRANSITION') {
    return new DomainError('QUOTE_REQUEST_FAILED', error.message, { ...details, reason: details.reason ?? error.code });
  }
  return error;
}
