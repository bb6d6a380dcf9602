import { DomainError } from '../../../infra/domain/domain-error';

/** An unknown external account, another platform's, or a deleted one: they read alike. */
export function externalAccountNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'External account not found');
}
