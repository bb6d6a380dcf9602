import { FieldConstraint, FieldError } from '../../../infra/domain/domain-error';

/**
 * External account identifiers (DECISIONS.md section 1b, superseded by the reference's
 * `*ExternalAccountCreateInfo` shapes): per `accountType` its fields (names, enums, patterns and
 * lengths as the reference gives them), the currency it holds, its rails, its beneficiary shape,
 * our checksums (ABA routing numbers, IBAN mod 97, CLABE check digit, wallet address formats) and
 * its primary identifier (whose last three digits drive the sandbox scenarios). Shape problems are
 * INVALID_INPUT field errors; a well-formed identifier that fails its checksum is
 * INVALID_BANK_ACCOUNT.
 */
export type ExternalAccountType =
  | 'AED_ACCOUNT' | 'BDT_ACCOUNT' | 'BRL_ACCOUNT' | 'BWP_ACCOUNT' | 'CAD_ACCOUNT' | 'CNY_ACCOUNT' | 'COP_ACCOUNT'
  | 'DKK_ACCOUNT' | 'EGP_ACCOUNT' | 'EUR_ACCOUNT' | 'GBP_ACCOUNT' | 'GHS_ACCOUNT' | 'GTQ_ACCOUNT' | 'HKD_ACCOUNT'
  | 'HTG_ACCOUNT' | 'IDR_ACCOUNT' | 'INR_ACCOUNT' | 'JMD_ACCOUNT' | 'KES_ACCOUNT' | 'MWK_ACCOUNT' | 'MXN_ACCOUNT'
  | 'MYR_ACCOUNT' | 'NGN_ACCOUNT' | 'PHP_ACCOUNT' | 'PKR_ACCOUNT' | 'RWF_ACCOUNT' | 'SGD_ACCOUNT' | 'SLV_ACCOUNT'
  | 'THB_ACCOUNT' | 'TZS_ACCOUNT' | 'UGX_ACCOUNT' | 'USD_ACCOUNT' | 'VND_ACCOUNT' | 'XAF_ACCOUNT' | 'XOF_ACCOUNT'
  | 'ZAR_ACCOUNT' | 'ZMW_ACCOUNT' | 'SWIFT_ACCOUNT'
  | 'SPARK_WALLET' | 'LIGHTNING' | 'SOLANA_WALLET' | 'BASE_WALLET' | 'POLYGON_WALLET' | 'ETHEREUM_WALLET'
  | 'TRON_WALLET' | 'PLASMA_WALLET';

/**
 * Types that stored events may carry but that can no longer be created: the reference has no
 * `BITCOIN_L1` external account (only a BITCOIN_L1 funding address), so an account of that type
 * could not be answered in a shape the contract knows. Existing ones still fold and read.
 */
export type LegacyExternalAccountType = 'BITCOIN_L1';
export type StoredExternalAccountType = ExternalAccountType | LegacyExternalAccountType;

interface FieldRule {
  name: string;
  required: boolean;
  pattern?: RegExp;
  /** Named format of the field error hint (a slug of ours such as `iban`), besides the pattern. */
  format?: string;
  minLength?: number;
  maxLength?: number;
  enumValues?: readonly string[];
}

/**
 * Who the money goes to. BANK: required, INDIVIDUAL (the type's own required extras) or
 * BUSINESS; WALLET: optional, the short travel-rule shape; NONE: no beneficiary at all.
 */
export interface BeneficiaryRule {
  kind: 'BANK' | 'WALLET' | 'NONE';
  /** INDIVIDUAL fields required on top of `beneficiaryType` and `fullName`. */
  individualRequired: readonly string[];
  /** INDIVIDUAL fields only this type accepts (CAD `registrationNumber`, COP documents). */
  individualExtra: readonly string[];
}

interface AccountTypeRule {
  /** Currencies the account holds; `null`: any ISO 4217 code (SWIFT). */
  currencies: readonly string[] | null;
  rails: readonly string[];
  /** Rails used when the request names none; default: the rails the given identifiers can use. */
  defaultRails?: readonly string[];
  fields: readonly FieldRule[];
  beneficiary: BeneficiaryRule;
  /** Extra cross-field checks (which identifier a rail needs, exactly one Lightning handle...). */
  check?: (identifiers: Record<string, string>) => FieldError[];
}

/** The identifier fields that can be the primary one, in the order they are preferred. */
const PRIMARY_FIELDS = ['clabeNumber', 'iban', 'accountNumber', 'pixKey', 'vpa', 'phoneNumber', 'address', 'invoice', 'bolt12', 'lightningAddress'];

const SWIFT_CODE = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const PHONE = /^\+[0-9]{6,14}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BANK_ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'];

function f(name: string, required: boolean, options: Omit<FieldRule, 'name' | 'required'> = {}): FieldRule {
  return { name, required, ...options };
}

const text = (max: number) => ({ minLength: 1, maxLength: max });
const swiftCode = (required: boolean) => f('swiftCode', required, { pattern: SWIFT_CODE, format: 'bic' });
const phone = (required: boolean, pattern = PHONE) => f('phoneNumber', required, { pattern, format: 'e164-phone' });
const provider = f('provider', true, text(255));
const bankName = (required: boolean, max = 255) => f('bankName', required, text(max));
const anyAccountNumber = (required: boolean) => f('accountNumber', required, text(34));
const digitsAccountNumber = (min: number, max: number) => f('accountNumber', true, { pattern: new RegExp(`^[0-9]{${min},${max}}$`) });
const iban = (required: boolean, pattern: RegExp) => f('iban', required, { pattern, format: 'iban' });

function bank(
  currency: string | null,
  rails: string[],
  fields: FieldRule[],
  beneficiary: Partial<Omit<BeneficiaryRule, 'kind'>> = {},
  extra: Pick<AccountTypeRule, 'defaultRails' | 'check'> = {},
): AccountTypeRule {
  return {
    currencies: currency === null ? null : [currency],
    rails,
    fields,
    beneficiary: { kind: 'BANK', individualRequired: beneficiary.individualRequired ?? [], individualExtra: beneficiary.individualExtra ?? [] },
    ...extra,
  };
}

function wallet(currencies: string[], rail: string, address: Omit<FieldRule, 'name' | 'required'>): AccountTypeRule {
  return {
    currencies,
    rails: [rail],
    fields: [f('address', true, address), f('vaspName', false, text(255))],
    beneficiary: { kind: 'WALLET', individualRequired: ['countryOfResidence'], individualExtra: [] },
  };
}

/** At least one of `names` must be given: the account needs something to pay to. */
function oneOf(...names: string[]): (identifiers: Record<string, string>) => FieldError[] {
  return (identifiers) =>
    names.some((name) => identifiers[name] !== undefined)
      ? []
      : [{ field: `accountInfo.${names[0]}`, constraint: {}, message: `accountInfo needs ${names.join(' or ')}` }];
}

const RULES: Record<ExternalAccountType, AccountTypeRule> = {
  AED_ACCOUNT: bank('AED', ['BANK_TRANSFER'], [iban(true, /^AE[0-9]{21}$/), swiftCode(false)], { individualRequired: ['address'] }),
  BDT_ACCOUNT: bank('BDT', ['BANK_TRANSFER', 'MOBILE_MONEY'], [
    anyAccountNumber(false), bankName(true), f('branchCode', false, { pattern: /^[0-9]{5}$/ }), swiftCode(false), phone(false),
  ], {}, { check: oneOf('accountNumber', 'phoneNumber') }),
  BRL_ACCOUNT: bank('BRL', ['PIX'], [
    f('pixKey', true, text(77)),
    f('pixKeyType', true, { enumValues: ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] }),
    f('taxId', true, { pattern: /^[0-9]{11,14}$/ }),
  ]),
  BWP_ACCOUNT: bank('BWP', ['MOBILE_MONEY'], [phone(true), provider]),
  CAD_ACCOUNT: bank('CAD', ['BANK_TRANSFER'], [
    f('bankCode', true, { pattern: /^[0-9]{3}$/ }), f('branchCode', true, { pattern: /^[0-9]{5}$/ }), digitsAccountNumber(7, 12),
  ], { individualExtra: ['registrationNumber'] }),
  CNY_ACCOUNT: bank('CNY', ['BANK_TRANSFER', 'MOBILE_MONEY'], [anyAccountNumber(false), bankName(true), phone(false)], {}, {
    check: oneOf('accountNumber', 'phoneNumber'),
  }),
  COP_ACCOUNT: bank('COP', ['BANK_TRANSFER', 'MOBILE_MONEY'], [
    anyAccountNumber(false), f('bankAccountType', false, { enumValues: BANK_ACCOUNT_TYPES }), bankName(true), phone(false),
  ], { individualExtra: ['documentType', 'documentNumber'] }, { check: oneOf('accountNumber', 'phoneNumber') }),
  DKK_ACCOUNT: bank('DKK', ['SEPA', 'SEPA_INSTANT'], [iban(true, /^DK[0-9]{16}$/), swiftCode(false)]),
  EGP_ACCOUNT: bank('EGP', ['BANK_TRANSFER', 'MOBILE_MONEY'], [iban(false, /^EG[0-9]{27}$/), bankName(true), phone(false)], {}, {
    check: oneOf('iban', 'phoneNumber'),
  }),
  EUR_ACCOUNT: bank('EUR', ['SEPA', 'SEPA_INSTANT'], [iban(true, /^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/), swiftCode(false)], {
    individualRequired: ['countryOfResidence'],
  }, { defaultRails: ['SEPA', 'SEPA_INSTANT'] }),
  GBP_ACCOUNT: bank('GBP', ['FASTER_PAYMENTS'], [f('sortCode', true, { pattern: /^[0-9]{6}$/ }), digitsAccountNumber(8, 8)]),
  GHS_ACCOUNT: bank('GHS', ['BANK_TRANSFER', 'MOBILE_MONEY'], [anyAccountNumber(false), bankName(true), phone(false)], {}, {
    check: oneOf('accountNumber', 'phoneNumber'),
  }),
  GTQ_ACCOUNT: bank('GTQ', ['BANK_TRANSFER'], [
    anyAccountNumber(true), f('bankAccountType', true, { enumValues: BANK_ACCOUNT_TYPES }), bankName(true),
  ], { individualRequired: ['countryOfResidence', 'phoneNumber'] }),
  HKD_ACCOUNT: bank('HKD', ['BANK_TRANSFER'], [bankName(true), anyAccountNumber(true), swiftCode(true)]),
  HTG_ACCOUNT: bank('HTG', ['MOBILE_MONEY'], [phone(true)]),
  IDR_ACCOUNT: bank('IDR', ['BANK_TRANSFER'], [bankName(true), anyAccountNumber(true), swiftCode(true), phone(true, /^\+62[0-9]{9,12}$/)]),
  INR_ACCOUNT: bank('INR', ['UPI', 'NEFT', 'RTGS'], [
    f('vpa', false, { pattern: /^[a-zA-Z0-9.\-_]+@[a-zA-Z0-9]+$/, minLength: 3, maxLength: 255 }),
    f('accountNumber', false, { pattern: /^[0-9]{9,18}$/ }),
    f('ifsc', false, { pattern: /^[A-Z]{4}0[A-Z0-9]{6}$/ }),
    f('rail', false, text(32)),
    bankName(false),
  ], {}, {
    // A UPI handle, or a bank account (NEFT/RTGS need the branch's IFSC with the number).
    check: (identifiers) => [
      ...oneOf('vpa', 'accountNumber')(identifiers),
      ...(identifiers.accountNumber !== undefined && identifiers.ifsc === undefined
        ? [{ field: 'accountInfo.ifsc', constraint: {}, message: 'accountInfo.ifsc is required with accountNumber' }]
        : []),
    ],
  }),
  JMD_ACCOUNT: bank('JMD', ['BANK_TRANSFER'], [
    anyAccountNumber(true), f('branchCode', true, { pattern: /^[0-9]{5}$/ }), f('bankAccountType', true, { enumValues: BANK_ACCOUNT_TYPES }), bankName(true),
  ], { individualRequired: ['address', 'phoneNumber'] }),
  KES_ACCOUNT: bank('KES', ['MOBILE_MONEY'], [phone(true, /^\+254[0-9]{9}$/), provider]),
  MWK_ACCOUNT: bank('MWK', ['MOBILE_MONEY'], [phone(true), provider]),
  MXN_ACCOUNT: bank('MXN', ['SPEI'], [f('clabeNumber', true, { pattern: /^[0-9]{18}$/, format: 'clabe' })]),
  MYR_ACCOUNT: bank('MYR', ['BANK_TRANSFER'], [bankName(true), anyAccountNumber(true), swiftCode(true)]),
  NGN_ACCOUNT: bank('NGN', ['BANK_TRANSFER'], [digitsAccountNumber(10, 10), bankName(true)]),
  PHP_ACCOUNT: bank('PHP', ['BANK_TRANSFER'], [bankName(true), digitsAccountNumber(8, 16)]),
  PKR_ACCOUNT: bank('PKR', ['BANK_TRANSFER', 'MOBILE_MONEY'], [
    bankName(true), anyAccountNumber(false), iban(false, /^PK[0-9]{2}[A-Z]{4}[0-9]{16}$/), phone(false),
  ], {}, { check: oneOf('accountNumber', 'iban', 'phoneNumber') }),
  RWF_ACCOUNT: bank('RWF', ['MOBILE_MONEY'], [phone(true, /^\+250[0-9]{9}$/), provider]),
  // PayNow pays to a proxy (phone, UEN), not to an account number: only on request.
  SGD_ACCOUNT: bank('SGD', ['PAYNOW', 'FAST', 'BANK_TRANSFER'], [bankName(false), anyAccountNumber(true), swiftCode(true)], {}, {
    defaultRails: ['FAST', 'BANK_TRANSFER'],
  }),
  // El Salvador's currency is the US dollar.
  SLV_ACCOUNT: bank('USD', ['BANK_TRANSFER', 'MOBILE_MONEY'], [
    bankName(false), anyAccountNumber(false), f('bankAccountType', false, { enumValues: BANK_ACCOUNT_TYPES }), phone(false),
  ], {}, { check: oneOf('accountNumber', 'phoneNumber') }),
  THB_ACCOUNT: bank('THB', ['BANK_TRANSFER'], [bankName(true), anyAccountNumber(true), swiftCode(true)]),
  TZS_ACCOUNT: bank('TZS', ['MOBILE_MONEY'], [phone(true, /^\+255[0-9]{9}$/), provider]),
  UGX_ACCOUNT: bank('UGX', ['MOBILE_MONEY'], [phone(true), provider]),
  USD_ACCOUNT: bank('USD', ['ACH', 'WIRE', 'RTP', 'FEDNOW'], [
    anyAccountNumber(true),
    f('routingNumber', true, { pattern: /^[0-9]{9}$/, format: 'aba-routing-number' }),
    bankName(false, 140),
    f('bankAccountType', false, { enumValues: BANK_ACCOUNT_TYPES }),
    f('intermediaryBankName', false, text(140)),
    f('intermediaryRoutingNumber', false, { pattern: /^[0-9]{9}$/, format: 'aba-routing-number' }),
    f('fiToFiInformation', false, { maxLength: 210 }),
  ], {}, { defaultRails: ['ACH', 'WIRE'] }),
  VND_ACCOUNT: bank('VND', ['BANK_TRANSFER'], [bankName(true), anyAccountNumber(true), swiftCode(true)]),
  XAF_ACCOUNT: bank('XAF', ['MOBILE_MONEY'], [phone(true), provider, f('region', true, { enumValues: ['CM', 'CG'] })]),
  XOF_ACCOUNT: bank('XOF', ['MOBILE_MONEY'], [phone(true), provider, f('region', true, { enumValues: ['BJ', 'CI', 'SN', 'TG'] })]),
  ZAR_ACCOUNT: bank('ZAR', ['BANK_TRANSFER'], [digitsAccountNumber(9, 13), bankName(true)]),
  ZMW_ACCOUNT: bank('ZMW', ['MOBILE_MONEY'], [phone(true, /^\+260[0-9]{9}$/), provider]),
  SWIFT_ACCOUNT: bank(null, ['SWIFT'], [
    f('country', true, { pattern: /^[A-Z]{2}$/, format: 'iso3166-1-alpha-2' }),
    swiftCode(true),
    bankName(true),
    anyAccountNumber(false),
    iban(false, /^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/),
  ], {}, { check: oneOf('accountNumber', 'iban') }),

  SPARK_WALLET: wallet(['BTC', 'USDB'], 'SPARK', { pattern: /^(spark|sparkrt|sp|sprt)1[02-9ac-hj-np-z]{10,120}$/, format: 'spark-address' }),
  LIGHTNING: {
    currencies: ['BTC'],
    rails: ['LIGHTNING'],
    fields: [
      f('invoice', false, { pattern: /^ln(bc|tb|bcrt)[0-9a-z]{10,2000}$/i, format: 'bolt11' }),
      f('bolt12', false, { pattern: /^lno1[02-9ac-hj-np-z]{10,2000}$/i, format: 'bolt12' }),
      f('lightningAddress', false, { pattern: /^[a-z0-9._+-]{1,64}@[a-z0-9-]+(\.[a-z0-9-]+)+$/i, format: 'lightning-address' }),
    ],
    beneficiary: { kind: 'NONE', individualRequired: [], individualExtra: [] },
    check: (identifiers) =>
      ['invoice', 'bolt12', 'lightningAddress'].filter((name) => identifiers[name] !== undefined).length === 1
        ? []
        : [{ field: 'accountInfo.invoice', constraint: {}, message: 'LIGHTNING needs exactly one of invoice, bolt12 or lightningAddress' }],
  },
  SOLANA_WALLET: wallet(['USDC', 'USDT'], 'SOLANA', { pattern: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/, format: 'solana-address' }),
  BASE_WALLET: wallet(['USDC', 'USDT'], 'BASE', { pattern: EVM_ADDRESS, format: 'evm-address' }),
  POLYGON_WALLET: wallet(['USDC', 'USDT'], 'POLYGON', { pattern: EVM_ADDRESS, format: 'evm-address' }),
  ETHEREUM_WALLET: wallet(['USDC', 'USDT'], 'ETHEREUM', { pattern: EVM_ADDRESS, format: 'evm-address' }),
  PLASMA_WALLET: wallet(['USDT'], 'PLASMA', { pattern: EVM_ADDRESS, format: 'evm-address' }),
  TRON_WALLET: wallet(['USDT', 'USDC'], 'TRON', { pattern: /^T[1-9A-HJ-NP-Za-km-z]{33}$/, format: 'tron-address' }),
};

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
