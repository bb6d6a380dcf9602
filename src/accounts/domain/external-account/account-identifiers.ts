import { FieldError } from '../../../infra/domain/domain-error';

/**
 * External account identifiers (DECISIONS.md section 1b): the shape of each `accountType`, the
 * currencies and rails it carries, checksums, and its primary identifier (whose last three
 * digits drive the sandbox scenarios). Shape problems are INVALID_INPUT field errors; a
 * well-formed identifier that fails its checksum is INVALID_BANK_ACCOUNT.
 */
export type ExternalAccountType =
  | 'USD_ACCOUNT'
  | 'EUR_ACCOUNT'
  | 'GBP_ACCOUNT'
  | 'MXN_ACCOUNT'
  | 'BRL_ACCOUNT'
  | 'SPARK_WALLET'
  | 'LIGHTNING'
  | 'SOLANA_WALLET'
  | 'BASE_WALLET'
  | 'POLYGON_WALLET'
  | 'ETHEREUM_WALLET'
  | 'TRON_WALLET'
  | 'PLASMA_WALLET'
  | 'BITCOIN_L1';

interface FieldRule {
  name: string;
  required: boolean;
  pattern?: RegExp;
  maxLength?: number;
  description: string;
  enumValues?: string[];
}

interface AccountTypeRule {
  currencies: string[];
  rails: string[];
  /** Rails used when the request names none. */
  defaultRails: string[];
  fields: FieldRule[];
  /** Field holding the primary identifier (LIGHTNING: invoice or lightningAddress). */
  primary: string[];
  checksum?: (info: Record<string, string>) => FieldError[];
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BANK_NAME: FieldRule = { name: 'bankName', required: false, maxLength: 128, description: 'the bank name' };

const RULES: Record<ExternalAccountType, AccountTypeRule> = {
  USD_ACCOUNT: {
    currencies: ['USD'],
    rails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
    defaultRails: ['ACH', 'WIRE'],
    fields: [
      { name: 'accountNumber', required: true, pattern: /^\d{4,17}$/, description: '4 to 17 digits' },
      { name: 'routingNumber', required: true, pattern: /^\d{9}$/, description: '9 digits' },
      BANK_NAME,
      { name: 'accountCategory', required: false, enumValues: ['CHECKING', 'SAVINGS'], description: 'CHECKING or SAVINGS' },
    ],
    primary: ['accountNumber'],
    checksum: (info) =>
      isAbaRoutingNumber(info.routingNumber)
        ? []
        : [{ field: 'accountInfo.routingNumber', constraint: 'FORMAT', message: 'routingNumber fails the ABA checksum' }],
  },
  EUR_ACCOUNT: {
    currencies: ['EUR'],
    rails: ['SEPA', 'SEPA_INSTANT'],
    defaultRails: ['SEPA', 'SEPA_INSTANT'],
    fields: [
      { name: 'iban', required: true, pattern: /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/, description: 'an IBAN without spaces' },
      { name: 'swiftCode', required: false, pattern: /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, description: 'an 8 or 11 character BIC' },
      BANK_NAME,
    ],
    primary: ['iban'],
    checksum: (info) => (isIban(info.iban) ? [] : [{ field: 'accountInfo.iban', constraint: 'FORMAT', message: 'iban fails the mod-97 check' }]),
  },
  GBP_ACCOUNT: {
    currencies: ['GBP'],
    rails: ['FASTER_PAYMENTS'],
    defaultRails: ['FASTER_PAYMENTS'],
    fields: [
      { name: 'accountNumber', required: true, pattern: /^\d{8}$/, description: '8 digits' },
      { name: 'sortCode', required: true, pattern: /^\d{6}$/, description: '6 digits' },
      BANK_NAME,
    ],
    primary: ['accountNumber'],
  },
  MXN_ACCOUNT: {
    currencies: ['MXN'],
    rails: ['SPEI'],
    defaultRails: ['SPEI'],
    fields: [{ name: 'clabe', required: true, pattern: /^\d{18}$/, description: '18 digits' }, BANK_NAME],
    primary: ['clabe'],
    checksum: (info) => (isClabe(info.clabe) ? [] : [{ field: 'accountInfo.clabe', constraint: 'FORMAT', message: 'clabe fails its check digit' }]),
  },
  BRL_ACCOUNT: {
    currencies: ['BRL'],
    rails: ['PIX'],
    defaultRails: ['PIX'],
    fields: [{ name: 'pixKey', required: true, pattern: /^\S{1,77}$/, description: 'a PIX key (1 to 77 characters)' }, BANK_NAME],
    primary: ['pixKey'],
  },
  SPARK_WALLET: {
    currencies: ['BTC', 'USDB'],
    rails: ['SPARK'],
    defaultRails: ['SPARK'],
    fields: [{ name: 'address', required: true, pattern: /^(spark|sparkrt|sp|sprt)1[02-9ac-hj-np-z]{10,120}$/, description: 'a Spark address' }],
    primary: ['address'],
  },
  LIGHTNING: {
    currencies: ['BTC'],
    rails: ['LIGHTNING'],
    defaultRails: ['LIGHTNING'],
    fields: [
      { name: 'invoice', required: false, pattern: /^ln(bc|tb|bcrt)[0-9a-z]{10,2000}$/i, description: 'a BOLT11 invoice' },
      { name: 'lightningAddress', required: false, pattern: /^[a-z0-9._+-]{1,64}@[a-z0-9-]+(\.[a-z0-9-]+)+$/i, description: 'a lightning address user@domain' },
    ],
    primary: ['invoice', 'lightningAddress'],
  },
  SOLANA_WALLET: {
    currencies: ['USDC', 'USDT'],
    rails: ['SOLANA'],
    defaultRails: ['SOLANA'],
    fields: [{ name: 'address', required: true, pattern: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/, description: 'a base58 Solana address' }],
    primary: ['address'],
  },
  BASE_WALLET: evmRule('BASE', ['USDC', 'USDT']),
  POLYGON_WALLET: evmRule('POLYGON', ['USDC', 'USDT']),
  ETHEREUM_WALLET: evmRule('ETHEREUM', ['USDC', 'USDT']),
  PLASMA_WALLET: evmRule('PLASMA', ['USDT']),
  TRON_WALLET: {
    currencies: ['USDT', 'USDC'],
    rails: ['TRON'],
    defaultRails: ['TRON'],
    fields: [{ name: 'address', required: true, pattern: /^T[1-9A-HJ-NP-Za-km-z]{33}$/, description: 'a Tron address (T...)' }],
    primary: ['address'],
  },
  BITCOIN_L1: {
    currencies: ['BTC'],
    rails: ['BITCOIN'],
    defaultRails: ['BITCOIN'],
    fields: [
      {
        name: 'address',
        required: true,
        pattern: /^((bc1|tb1|bcrt1)[02-9ac-hj-np-z]{8,87}|[13mn2][1-9A-HJ-NP-Za-km-z]{25,34})$/,
        description: 'a Bitcoin address',
      },
    ],
    primary: ['address'],
  },
};

function evmRule(rail: string, currencies: string[]): AccountTypeRule {
  return {
    currencies,
    rails: [rail],
    defaultRails: [rail],
    fields: [{ name: 'address', required: true, pattern: EVM_ADDRESS, description: 'a 0x-prefixed 20-byte hex address' }],
    primary: ['address'],
  };
}

export const EXTERNAL_ACCOUNT_TYPES = Object.keys(RULES) as ExternalAccountType[];

export function isExternalAccountType(value: unknown): value is ExternalAccountType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(RULES, value);
}

export function currenciesFor(accountType: ExternalAccountType): string[] {
  return RULES[accountType].currencies;
}

export interface CheckedIdentifiers {
  /** The identifier fields as given (accountType excluded), plus `paymentRails`. */
  identifiers: Record<string, string>;
  paymentRails: string[];
  primaryIdentifier: string;
}

/**
 * Checks the identifier fields of `accountInfo` (everything but `accountType` and `beneficiary`).
 * Returns shape errors (INVALID_INPUT) and checksum errors (INVALID_BANK_ACCOUNT) separately.
 */
export function checkIdentifiers(
  accountType: ExternalAccountType,
  accountInfo: Record<string, unknown>,
): { value: CheckedIdentifiers | null; shapeErrors: FieldError[]; checksumErrors: FieldError[] } {
  const rule = RULES[accountType];
  const shapeErrors: FieldError[] = [];
  const identifiers: Record<string, string> = {};
  const known = new Set([...rule.fields.map((field) => field.name), 'accountType', 'beneficiary', 'paymentRails']);
  for (const name of Object.keys(accountInfo)) {
    if (!known.has(name)) shapeErrors.push({ field: `accountInfo.${name}`, constraint: 'UNKNOWN_FIELD', message: `Unknown field accountInfo.${name} for ${accountType}` });
  }
  for (const field of rule.fields) {
    const path = `accountInfo.${field.name}`;
    const value = accountInfo[field.name];
    if (value === undefined) {
      if (field.required) shapeErrors.push({ field: path, constraint: 'REQUIRED', message: `${path} is required for ${accountType}` });
      continue;
    }
    if (typeof value !== 'string') {
      shapeErrors.push({ field: path, constraint: 'TYPE', message: `${path} must be a string` });
      continue;
    }
    if (field.enumValues && !field.enumValues.includes(value)) {
      shapeErrors.push({ field: path, constraint: 'ENUM', message: `${path} must be ${field.description}` });
      continue;
    }
    if (field.maxLength !== undefined && (value.length === 0 || value.length > field.maxLength)) {
      shapeErrors.push({ field: path, constraint: 'MAX_LENGTH', message: `${path} must be 1 to ${field.maxLength} characters` });
      continue;
    }
    if (field.pattern && !field.pattern.test(value)) {
      shapeErrors.push({ field: path, constraint: 'PATTERN', message: `${path} must be ${field.description}` });
      continue;
    }
    identifiers[field.name] = value;
  }
  const primaries = rule.primary.filter((name) => identifiers[name] !== undefined);
  if (accountType === 'LIGHTNING' && !shapeErrors.some((error) => error.field === 'accountInfo.invoice' || error.field === 'accountInfo.lightningAddress')) {
    if (primaries.length !== 1) {
      shapeErrors.push({ field: 'accountInfo.invoice', constraint: 'REQUIRED', message: 'LIGHTNING needs exactly one of invoice or lightningAddress' });
    }
  }
  let paymentRails = rule.defaultRails;
  const rails = accountInfo.paymentRails;
  if (rails !== undefined) {
    if (!Array.isArray(rails) || rails.length === 0 || rails.some((rail) => typeof rail !== 'string')) {
      shapeErrors.push({ field: 'accountInfo.paymentRails', constraint: 'TYPE', message: 'paymentRails must be a non-empty array of rail names' });
    } else if (rails.some((rail) => !rule.rails.includes(rail))) {
      shapeErrors.push({ field: 'accountInfo.paymentRails', constraint: 'ENUM', message: `paymentRails for ${accountType} must be among ${rule.rails.join(', ')}` });
    } else {
      paymentRails = [...new Set(rails as string[])];
    }
  }
  if (shapeErrors.length > 0 || primaries.length === 0) return { value: null, shapeErrors, checksumErrors: [] };
  const checksumErrors = rule.checksum ? rule.checksum(identifiers) : [];
  return { value: { identifiers, paymentRails, primaryIdentifier: identifiers[primaries[0]] }, shapeErrors, checksumErrors };
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
