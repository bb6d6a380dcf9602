import { DomainError } from '../domain/domain-error';

/** A DomainError that also sets response headers (e.g. Retry-After on 409 and 429). */
export class ApiError extends DomainError {
  constructor(
    code: string,
    message: string,
    details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(code, message, details);
    this.name = 'ApiError';
  }
}

/** Thrown to short-circuit a request with a stored idempotent response. */
export class IdempotentReplay extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: string,
  ) {
    super('idempotent replay');
  }
}

export function notFound(code: string, what: string): DomainError {
  return new DomainError(code, `${what} not found`);
}
