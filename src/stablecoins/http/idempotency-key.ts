import { ValidationError } from '../../infra/domain/domain-error';

/**
 * The reference requires Idempotency-Key on every creating stablecoin operation (a replay returns
 * the first answer, src/infra/http/response.interceptor.ts): without one the request is 400.
 */
export function requireIdempotencyKey(key: string | undefined): void {
  if (key !== undefined) return;
  throw new ValidationError([{ field: 'Idempotency-Key', constraint: {}, message: 'The Idempotency-Key header is required' }]);
}
