/**
 * A decider refuses a command by throwing a DomainError carrying a catalogue code
 * (SPEC.md "Errors", DECISIONS.md section 1). The HTTP filter maps the code to its status.
 * Domain code imports nothing from Nest, so this lives outside src/infra/http.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** A single bad or unknown field (`details.errors[]`). */
export interface FieldError {
  field: string;
  constraint: FieldConstraint;
  message: string;
}

export type FieldConstraint =
  | 'REQUIRED'
  | 'TYPE'
  | 'FORMAT'
  | 'ENUM'
  | 'MIN'
  | 'MAX'
  | 'MIN_LENGTH'
  | 'MAX_LENGTH'
  | 'PATTERN'
  | 'UNKNOWN_FIELD';

/** 400 INVALID_INPUT listing every bad field. */
export class ValidationError extends DomainError {
  constructor(
    readonly errors: FieldError[],
    code = 'INVALID_INPUT',
    message = 'The request has invalid fields',
  ) {
    super(code, message, { errors });
    this.name = 'ValidationError';
  }
}

export function fieldError(field: string, constraint: FieldConstraint, message: string): FieldError {
  return { field, constraint, message };
}
