import { FieldConstraint, FieldError } from '../../../infra/domain/domain-error';
import { AccountTypeRule, BeneficiaryRule, ExternalAccountType, FieldRule, RULES, StoredExternalAccountType } from './account-type-rules';

export type { BeneficiaryRule, ExternalAccountType, LegacyExternalAccountType, StoredExternalAccountType } from './account-type-rules';

/** The identifier fields that can be the primary one, in the order they are preferred. */
const PRIMARY_FIELDS = ['clabeNumber', 'iban', 'accountNumber', 'pixKey', 'vpa', 'phoneNumber', 'address', 'invoice', 'bolt12', 'lightningAddress'];

export const EXTERNAL_ACCOUNT_TYPES = Object.keys(RULES) as ExternalAccountType[];

export function isExternalAccountType(value: unknown): value is ExternalAccountType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(RULES, value);
}

/** Whether `currency` is one the account type holds (SWIFT: any ISO 4217-shaped code). */
export function holdsCurrency(accountType: ExternalAccountType, currency: string): boolean {
  const currencies = RULES[accountType].currencies;
  return currencies === null ? /^[A-Z]{3}$/.test(currency) : currencies.includes(currency);
}

/** The field error hint for a currency the account type does not hold. */
export function currencyConstraint(accountType: ExternalAccountType): FieldConstraint {
  const currencies = RULES[accountType].currencies;
  return currencies === null ? { pattern: '^[A-Z]{3}$' } : { enum: currencies };
}

export function currenciesFor(accountType: ExternalAccountType): readonly string[] | null {
  return RULES[accountType].currencies;
}

export function beneficiaryRuleFor(accountType: ExternalAccountType): BeneficiaryRule {
  return RULES[accountType].beneficiary;
}

/** Every rail an account type can carry (the reference's `paymentRails` enum for it). */
export function railsFor(accountType: StoredExternalAccountType): readonly string[] {
  return accountType === 'BITCOIN_L1' ? ['BITCOIN'] : RULES[accountType].rails;
}

export interface CheckedIdentifiers {
  /** The identifier fields as given (accountType, beneficiary and paymentRails excluded). */
  identifiers: Record<string, string>;
  paymentRails: string[];
  primaryIdentifier: string;
  /** `accountInfo.<field>` of the primary identifier (field errors about the account name it). */
  primaryField: string;
}

/**
 * Checks the identifier fields of `accountInfo` (everything but `accountType` and `beneficiary`).
 * Returns shape errors (INVALID_INPUT) and checksum errors (INVALID_BANK_ACCOUNT) separately.
 * `paymentRails` is not in the reference's create shapes but is in its read shapes: accepted as
 * a narrowing of the type's rails, so an account read back can be posted again as it is.
 */
export function checkIdentifiers(
  accountType: ExternalAccountType,
  accountInfo: Record<string, unknown>,
): { value: CheckedIdentifiers | null; shapeErrors: FieldError[]; checksumErrors: FieldError[] } {
  const rule = RULES[accountType];
  const shapeErrors: FieldError[] = [];
  const identifiers: Record<string, string> = {};
  const known = new Set([...rule.fields.map((field) => field.name), 'accountType', 'paymentRails']);
  if (rule.beneficiary.kind !== 'NONE') known.add('beneficiary');
  for (const name of Object.keys(accountInfo)) {
    if (!known.has(name)) shapeErrors.push({ field: `accountInfo.${name}`, constraint: {}, message: `Unknown field accountInfo.${name} for ${accountType}` });
  }
  for (const field of rule.fields) {
    const error = fieldError(field, accountInfo[field.name], accountType);
    if (error) shapeErrors.push(error);
    else if (accountInfo[field.name] !== undefined) identifiers[field.name] = accountInfo[field.name] as string;
  }
  const badField = (name: string) => shapeErrors.some((error) => error.field === `accountInfo.${name}`);
  if (rule.check && !rule.fields.some((field) => badField(field.name))) shapeErrors.push(...rule.check(identifiers));
  const paymentRails = checkRails(accountType, rule, identifiers, accountInfo.paymentRails, shapeErrors);
  const primaryName = PRIMARY_FIELDS.find((name) => identifiers[name] !== undefined);
  if (shapeErrors.length > 0 || !primaryName || !paymentRails) return { value: null, shapeErrors, checksumErrors: [] };
  return {
    value: { identifiers, paymentRails, primaryIdentifier: identifiers[primaryName], primaryField: `accountInfo.${primaryName}` },
    shapeErrors,
    checksumErrors: checksumErrors(accountType, identifiers),
  };
}

function fieldError(field: FieldRule, value: unknown, accountType: ExternalAccountType): FieldError | null {
  const path = `accountInfo.${field.name}`;
  if (value === undefined) return field.required ? { field: path, constraint: {}, message: `${path} is required for ${accountType}` } : null;
  if (typeof value !== 'string') return { field: path, constraint: {}, message: `${path} must be a string` };
  if (field.enumValues && !field.enumValues.includes(value)) {
    return { field: path, constraint: { enum: field.enumValues }, message: `${path} must be one of ${field.enumValues.join(', ')}` };
  }
  const min = field.minLength ?? 0;
  if (field.maxLength !== undefined && (value.length < min || value.length > field.maxLength)) {
    return { field: path, constraint: { ...(min > 0 ? { minLength: min } : {}), maxLength: field.maxLength }, message: `${path} must be ${min} to ${field.maxLength} characters` };
  }
  if (field.pattern && !field.pattern.test(value)) {
    return { field: path, constraint: patternConstraint(field), message: `${path} is not a valid ${field.format ?? field.name}` };
  }
  return null;
}

/**
 * The hint of a field that fails its pattern: its named format if it has one, and the pattern
 * unless the regex is flagged (a case-insensitive source would mislead a client).
 */
function patternConstraint(field: FieldRule): FieldConstraint {
  return {
    ...(field.format ? { format: field.format } : {}),
    ...(field.pattern && !field.pattern.flags ? { pattern: field.pattern.source } : {}),
  };
}

/** Whether the given identifiers can be paid on `rail` (a phone for mobile money, a handle for UPI...). */
function railFits(rail: string, identifiers: Record<string, string>): boolean {
  switch (rail) {
    case 'MOBILE_MONEY':
      return identifiers.phoneNumber !== undefined;
    case 'UPI':
      return identifiers.vpa !== undefined;
    case 'NEFT':
    case 'RTGS':
    case 'BANK_TRANSFER':
      return identifiers.accountNumber !== undefined || identifiers.iban !== undefined;
    default:
      return true;
  }
}

function checkRails(
  accountType: ExternalAccountType,
  rule: AccountTypeRule,
  identifiers: Record<string, string>,
  rails: unknown,
  errors: FieldError[],
): string[] | null {
  const fitting = rule.rails.filter((rail) => railFits(rail, identifiers));
  if (rails === undefined) return [...(rule.defaultRails ?? (fitting.length > 0 ? fitting : rule.rails))];
  const path = 'accountInfo.paymentRails';
  if (!Array.isArray(rails) || rails.length === 0 || rails.some((rail) => typeof rail !== 'string')) {
    errors.push({ field: path, constraint: {}, message: 'paymentRails must be a non-empty array of rail names' });
    return null;
  }
  if (rails.some((rail) => !rule.rails.includes(rail))) {
    errors.push({ field: path, constraint: { enum: rule.rails }, message: `paymentRails for ${accountType} must be among ${rule.rails.join(', ')}` });
    return null;
  }
  const unfit = (rails as string[]).filter((rail) => !fitting.includes(rail));
  if (unfit.length > 0) {
    errors.push({ field: path, constraint: { enum: fitting }, message: `The account's identifiers cannot be paid on ${unfit.join(', ')}` });
    return null;
  }
  return [...new Set(rails as string[])];
}

/** Our checksums, on whichever type carries the field they name. */
function checksumErrors(accountType: ExternalAccountType, identifiers: Record<string, string>): FieldError[] {
  const errors: FieldError[] = [];
  for (const name of ['routingNumber', 'intermediaryRoutingNumber']) {
    if (identifiers[name] !== undefined && !isAbaRoutingNumber(identifiers[name])) {
      errors.push({ field: `accountInfo.${name}`, constraint: { format: 'aba-routing-number' }, message: `${name} fails the ABA checksum` });
    }
  }
  if (identifiers.iban !== undefined && !isIban(identifiers.iban.toUpperCase())) {
    errors.push({ field: 'accountInfo.iban', constraint: { format: 'iban' }, message: 'iban fails the mod-97 check' });
  }
  if (accountType === 'MXN_ACCOUNT' && !isClabe(identifiers.clabeNumber)) {
    errors.push({ field: 'accountInfo.clabeNumber', constraint: { format: 'clabe' }, message: 'clabeNumber fails its check digit' });
  }
  return errors;
}

/**
 * Field names stored events may carry that the reference names differently (MXN `clabe`, USD
 * `accountCategory`): read models map them to the wire names.
 */
const LEGACY_FIELD_NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  MXN_ACCOUNT: { clabe: 'clabeNumber' },
  USD_ACCOUNT: { accountCategory: 'bankAccountType' },
};

/** The identifiers of a stored account under the reference's field names. */
export function wireIdentifiers(accountType: string, identifiers: Record<string, string>): Record<string, string> {
  const renames = LEGACY_FIELD_NAMES[accountType] ?? {};
  const wire: Record<string, string> = {};
  for (const [name, value] of Object.entries(identifiers)) wire[renames[name] ?? name] = value;
  // Accounts stored before `pixKeyType` was asked for: the key's own shape tells its type.
  if (accountType === 'BRL_ACCOUNT' && wire.pixKey !== undefined && wire.pixKeyType === undefined) wire.pixKeyType = pixKeyTypeOf(wire.pixKey);
  return wire;
}

function pixKeyTypeOf(pixKey: string): string {
  if (pixKey.includes('@')) return 'EMAIL';
  if (pixKey.startsWith('+')) return 'PHONE';
  if (/^\d{11}$/.test(pixKey)) return 'CPF';
  if (/^\d{14}$/.test(pixKey)) return 'CNPJ';
  return 'RANDOM';
}

/** ABA routing number: 3-7-1 weighted digit sum divisible by 10. */
export function isAbaRoutingNumber(text: string): boolean {
  if (!/^\d{9}$/.test(text)) return false;
  const d = text.split('').map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0 && text !== '000000000';
}

/** ISO 13616 IBAN: rearranged, letters as numbers, mod 97 equals 1. */
export function isIban(text: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(text)) return false;
  return ibanRemainder(text.slice(4) + text.slice(0, 4)) === 1;
}

export function ibanRemainder(rearranged: string): number {
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** Mexican CLABE: weights 3, 7, 1 over 17 digits; the 18th is the check digit. */
export function isClabe(text: string): boolean {
  if (!/^\d{18}$/.test(text)) return false;
  return clabeCheckDigit(text.slice(0, 17)) === Number(text[17]);
}

export function clabeCheckDigit(first17: string): number {
  const weights = [3, 7, 1];
  let sum = 0;
  for (let index = 0; index < 17; index++) sum += (Number(first17[index]) * weights[index % 3]) % 10;
  return (10 - (sum % 10)) % 10;
}
