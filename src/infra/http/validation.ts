import { plainToInstance } from 'class-transformer';
import { ValidationError as ClassValidatorError, validateSync } from 'class-validator';
import { FieldConstraint, FieldError, ValidationError } from '../domain/domain-error';

/**
 * Validates a JSON body against a class-validator DTO and returns the typed instance, or throws
 * a ValidationError listing every bad or unknown field (DECISIONS.md section 1). DTO fields use
 * class-validator decorators; required fields carry @IsDefined(), optional ones @IsOptional().
 */
export function validateBody<T extends object>(dtoClass: new () => T, body: unknown, pathPrefix = ''): T {
  const { value, errors } = checkBody(dtoClass, body, pathPrefix);
  throwIfAny(errors);
  return value;
}

/**
 * Like validateBody, but returns the field errors instead of throwing, so a handler can add its
 * own semantic checks (on fields without a shape error) and answer every bad field at once.
 * `value` holds the body as given when it has errors: read it defensively.
 */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function checkBody<T extends object>(dtoClass: new () => T, body: unknown, pathPrefix = ''): { value: T; errors: FieldError[] } {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    return {
      value: new dtoClass(),
      errors: [{ field: pathPrefix || 'body', constraint: 'TYPE', message: 'Expected a JSON object' }],
    };
  }
  const instance = plainToInstance(dtoClass, body, { enableImplicitConversion: false });
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: true },
  });
  // The transformer drops these keys before validation sees them: report them like any unknown field.
  const reserved = Object.keys(body).filter((key) => RESERVED_KEYS.has(key));
  const reservedErrors: FieldError[] = reserved.map((key) => ({
    field: pathPrefix ? `${pathPrefix}.${key}` : key,
    constraint: 'UNKNOWN_FIELD',
    message: `Unknown field ${key}`,
  }));
  const flattened = flattenErrors(errors, pathPrefix);
  return { value: instance, errors: [...flattened, ...reservedErrors.filter((error) => !hasErrorAt(flattened, error.field))] };
}

/** Whether `errors` already has an entry for `field` or one of its children. */
export function hasErrorAt(errors: FieldError[], field: string): boolean {
  return errors.some((error) => error.field === field || error.field.startsWith(`${field}.`));
}

/**
 * Collects field errors from several validations (e.g. a body plus its discriminated-union
 * variants) so the client sees every bad field in one answer.
 */
export function collectFieldErrors(...checks: Array<() => unknown>): FieldError[] {
  const collected: FieldError[] = [];
  for (const check of checks) {
    try {
      check();
    } catch (error) {
      if (error instanceof ValidationError) collected.push(...error.errors);
      else throw error;
    }
  }
  return collected;
}

export function throwIfAny(errors: FieldError[]): void {
  if (errors.length > 0) throw new ValidationError(errors);
}

const CONSTRAINT_PRIORITY: FieldConstraint[] = [
  'REQUIRED', 'UNKNOWN_FIELD', 'TYPE', 'ENUM', 'FORMAT', 'PATTERN',
  'MIN_LENGTH', 'MAX_LENGTH', 'MIN', 'MAX',
];

const CONSTRAINT_BY_VALIDATOR: Record<string, FieldConstraint> = {
  isDefined: 'REQUIRED',
  isNotEmpty: 'REQUIRED',
  whitelistValidation: 'UNKNOWN_FIELD',
  isString: 'TYPE',
  isInt: 'TYPE',
  isNumber: 'TYPE',
  isBoolean: 'TYPE',
  isObject: 'TYPE',
  isArray: 'TYPE',
  nestedValidation: 'TYPE',
  isEnum: 'ENUM',
  isIn: 'ENUM',
  min: 'MIN',
  max: 'MAX',
  isPositive: 'MIN',
  minLength: 'MIN_LENGTH',
  arrayMinSize: 'MIN_LENGTH',
  arrayNotEmpty: 'MIN_LENGTH',
  maxLength: 'MAX_LENGTH',
  arrayMaxSize: 'MAX_LENGTH',
  matches: 'PATTERN',
};

function constraintFor(validatorName: string): FieldConstraint {
  if ((CONSTRAINT_PRIORITY as string[]).includes(validatorName)) return validatorName as FieldConstraint;
  return CONSTRAINT_BY_VALIDATOR[validatorName] ?? 'FORMAT';
}

function flattenErrors(errors: ClassValidatorError[], prefix: string): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    const names = Object.keys(constraints);
    if (names.length > 0) {
      let chosen = names[0];
      let chosenConstraint = constraintFor(chosen);
      if (error.value === undefined && names.includes('isDefined')) {
        chosen = 'isDefined';
        chosenConstraint = 'REQUIRED';
      } else {
        for (const name of names) {
          const candidate = constraintFor(name);
          if (CONSTRAINT_PRIORITY.indexOf(candidate) < CONSTRAINT_PRIORITY.indexOf(chosenConstraint)) {
            chosen = name;
            chosenConstraint = candidate;
          }
        }
      }
      const message =
        chosenConstraint === 'UNKNOWN_FIELD' ? `Unknown field ${path}` : constraints[chosen].replace(error.property, path);
      result.push({ field: path, constraint: chosenConstraint, message });
      continue;
    }
    if (error.children && error.children.length > 0) result.push(...flattenErrors(error.children, path));
  }
  return result;
}
