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

/**
 * What the field must satisfy, as the production contract's validator hint: clients drive form
 * UI (input types, dropdowns, length limits) and pre-validation from it, so it carries the
 * allowed values or limits rather than a category name. Members are optional and additive; `{}`
 * when no hint applies (missing or unknown field, wrong JSON type, number out of range).
 */
export interface FieldConstraint {
  /** A named format: `email`, `date`, `date-time`, `uuid`, `iso3166-1-alpha-2`, or a slug of ours such as `iban`. */
  format?: string;
  /** JavaScript regex source the value must match. */
  pattern?: string;
  enum?: readonly string[];
  minLength?: number;
  maxLength?: number;
}

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
