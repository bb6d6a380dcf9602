import { plainToInstance } from 'class-transformer';
import {
  IS_DATE_STRING, IS_EMAIL, IS_ENUM, IS_IN, IS_IP, IS_ISO31661_ALPHA_2, IS_ISO8601, IS_MOBILE_PHONE, IS_PHONE_NUMBER, IS_URL, IS_UUID,
  MATCHES, MAX_LENGTH, MIN_LENGTH, ValidationError as ClassValidatorError, ValidationTypes, getMetadataStorage, validateSync,
} from 'class-validator';
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
      errors: [{ field: pathPrefix || 'body', constraint: {}, message: 'Expected a JSON object' }],
    };
  }
  const instance = plainToInstance(dtoClass, body, { enableImplicitConversion: false });
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: false,
    // `target` lets flattenErrors read the failing decorator's arguments from the DTO class metadata.
    validationError: { target: true, value: true },
  });
  // The transformer drops these keys before validation sees them: report them like any unknown field.
  const reserved = Object.keys(body).filter((key) => RESERVED_KEYS.has(key));
  const reservedErrors: FieldError[] = reserved.map((key) => ({
    field: pathPrefix ? `${pathPrefix}.${key}` : key,
    constraint: {},
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

/** Which kind of check failed: ranks the failures of one field so one error per field is reported. */
type CheckKind = 'REQUIRED' | 'UNKNOWN_FIELD' | 'TYPE' | 'ENUM' | 'FORMAT' | 'PATTERN' | 'MIN_LENGTH' | 'MAX_LENGTH' | 'MIN' | 'MAX';

const KIND_PRIORITY: CheckKind[] = [
  'REQUIRED', 'UNKNOWN_FIELD', 'TYPE', 'ENUM', 'FORMAT', 'PATTERN',
  'MIN_LENGTH', 'MAX_LENGTH', 'MIN', 'MAX',
];

const KIND_BY_VALIDATOR: Record<string, CheckKind> = {
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

function kindFor(validatorName: string): CheckKind {
  return KIND_BY_VALIDATOR[validatorName] ?? 'FORMAT';
}

/** Named formats of the format validators (ours in shared/validation/common-validators.ts included). */
const FORMAT_BY_VALIDATOR: Record<string, string> = {
  [IS_EMAIL]: 'email',
  [IS_ISO8601]: 'date-time',
  [IS_DATE_STRING]: 'date-time',
  [IS_UUID]: 'uuid',
  [IS_URL]: 'url',
  [IS_MOBILE_PHONE]: 'tel',
  [IS_PHONE_NUMBER]: 'tel',
  [IS_ISO31661_ALPHA_2]: 'iso3166-1-alpha-2',
  isCalendarDate: 'date',
  isCountryCode: 'iso3166-1-alpha-2',
};

/** Validators whose hint comes from their decorator arguments. */
const VALIDATORS_WITH_ARGUMENTS = [IS_IN, IS_ENUM, MAX_LENGTH, MIN_LENGTH, MATCHES, IS_IP];

/**
 * The decorator arguments (`ValidationArguments.constraints`) of the `validatorName` check on
 * `property` of `target`'s DTO class, read from class-validator's metadata storage.
 */
function validatorArguments(target: object | undefined, property: string, validatorName: string): unknown[] {
  if (!target || Array.isArray(target)) return [];
  const storage = getMetadataStorage();
  for (const metadata of storage.getTargetValidationMetadatas(target.constructor, '', false, false)) {
    if (metadata.propertyName !== property) continue;
    const name =
      metadata.type === ValidationTypes.CUSTOM_VALIDATION
        ? storage.getTargetValidatorConstraints(metadata.constraintCls)[0]?.name
        : metadata.type;
    if (name === validatorName) return metadata.constraints ?? [];
  }
  return [];
}

/** The contract's validator hint for a failed class-validator check; `{}` for presence and type checks. */
function constraintFor(validatorName: string, target: object | undefined, property: string): FieldConstraint {
  const format = FORMAT_BY_VALIDATOR[validatorName];
  if (format) return { format };
  if (!VALIDATORS_WITH_ARGUMENTS.includes(validatorName)) return {};
  const [first, second] = validatorArguments(target, property, validatorName);
  switch (validatorName) {
    case IS_IN:
      return Array.isArray(first) ? { enum: first.map(String) } : {};
    case IS_ENUM:
      // IsEnum stores [entity, its values]; the values skip the reverse keys of numeric enums.
      return Array.isArray(second) ? { enum: second.map(String) } : {};
    case MAX_LENGTH:
      return typeof first === 'number' ? { maxLength: first } : {};
    case MIN_LENGTH:
      return typeof first === 'number' ? { minLength: first } : {};
    case MATCHES:
      if (first instanceof RegExp) return { pattern: first.source };
      return typeof first === 'string' ? { pattern: first } : {};
    case IS_IP:
      return { format: String(first) === '4' ? 'ipv4' : String(first) === '6' ? 'ipv6' : 'ip' };
    default:
      return {};
  }
}

function flattenErrors(errors: ClassValidatorError[], prefix: string): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    const names = Object.keys(constraints);
    if (names.length > 0) {
      let chosen = names[0];
      let chosenKind = kindFor(chosen);
      if (error.value === undefined && names.includes('isDefined')) {
        chosen = 'isDefined';
        chosenKind = 'REQUIRED';
      } else {
        for (const name of names) {
          const candidate = kindFor(name);
          if (KIND_PRIORITY.indexOf(candidate) < KIND_PRIORITY.indexOf(chosenKind)) {
            chosen = name;
            chosenKind = candidate;
          }
        }
      }
      const message =
        chosenKind === 'UNKNOWN_FIELD' ? `Unknown field ${path}` : constraints[chosen].replace(error.property, path);
      result.push({ field: path, constraint: constraintFor(chosen, error.target, error.property), message });
      continue;
    }
    if (error.children && error.children.length > 0) result.push(...flattenErrors(error.children, path));
  }
  return result;
}
