import { DomainError } from '../../infra/domain/domain-error';

/**
 * 404 TOKEN_NOT_FOUND: an unknown token, another platform's, a revoked one, and (on `GET`, which
 * declares no 400) a text that cannot be a token id.
 */
export function tokenNotFound(): DomainError {
  return new DomainError('TOKEN_NOT_FOUND', 'Token not found');
}
