import { FieldError } from '../../../infra/domain/domain-error';

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

export interface FieldRule {
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

export interface AccountTypeRule {
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

export const RULES: Record<ExternalAccountType, AccountTypeRule> = {
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
