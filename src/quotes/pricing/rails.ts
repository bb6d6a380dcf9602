import type { ExternalAccountType } from '../../accounts';
import { FieldError } from '../../infra/domain/domain-error';

/**
 * Payment rails per destination account type (DECISIONS.md section 1b), the default rail when a
 * quote names none, and quote lifetimes by rail (DECISIONS.md section 2).
 *
 * Two vocabularies: the production contract's `PaymentRail` enum (WIRE_PAYMENT_RAILS), which is
 * what clients send as `destination.paymentRail` and read back, and the rails this service prices
 * and times internally (PAYMENT_RAILS), which add the networks the contract gives no rail name
 * (Spark, Lightning, the on-chain networks, UMA, embedded wallets, book transfers). An internal
 * rail without a contract name is never shown: the quote's `paymentRail` is omitted instead.
 */
export const WIRE_PAYMENT_RAILS = [
  'ACH', 'ACH_COLOMBIA', 'BANK_TRANSFER', 'BRE_B', 'CIPS', 'FAST', 'FASTER_PAYMENTS', 'FEDNOW', 'INSTAPAY',
  'MOBILE_MONEY', 'NEFT', 'PAYNOW', 'PESONET', 'PIX', 'RTGS', 'RTP', 'SEPA', 'SEPA_INSTANT', 'SPEI', 'SWIFT',
  'UNIONPAY', 'UPI', 'WIRE',
] as const;
export type WirePaymentRail = (typeof WIRE_PAYMENT_RAILS)[number];

export const PAYMENT_RAILS = [
  ...WIRE_PAYMENT_RAILS,
  // Stored by quotes created before the contract's rail names were adopted; offered no more.
  'IMPS',
  'SPARK', 'LIGHTNING',
  'SOLANA', 'BASE', 'POLYGON', 'ETHEREUM', 'TRON', 'PLASMA', 'BITCOIN',
  'UMA', 'EMBEDDED_WALLET', 'INTERNAL',
] as const;
export type PaymentRail = (typeof PAYMENT_RAILS)[number];

export function isWirePaymentRail(value: unknown): value is WirePaymentRail {
  return typeof value === 'string' && (WIRE_PAYMENT_RAILS as readonly string[]).includes(value);
}

/** The contract's name of an internal rail, or undefined when it has none (the field is then omitted). */
export function wirePaymentRail(rail: string | null | undefined): WirePaymentRail | undefined {
  return isWirePaymentRail(rail) ? rail : undefined;
}

/** Networks SPEC.md lists for `cryptoNetwork`. Each is also the rail of that network's wallets. */
export const CRYPTO_NETWORKS = ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'TRON', 'PLASMA', 'SPARK', 'LIGHTNING', 'BITCOIN'] as const;
export type CryptoNetwork = (typeof CRYPTO_NETWORKS)[number];

/**
 * Destination account types a quote can pay to: every external account type of the reference
 * (`*ExternalAccountInfo`, src/accounts/domain/external-account/account-identifiers.ts, with the
 * legacy BITCOIN_L1 that stored accounts may carry), an internal account (`EMBEDDED_WALLET` or
 * any other internal type as `INTERNAL_ACCOUNT`), and UMA.
 */
export type DestinationAccountType =
  | ExternalAccountType
  | 'BITCOIN_L1'
  | 'EMBEDDED_WALLET' | 'INTERNAL_ACCOUNT' | 'UMA_ADDRESS';

interface RailChoice {
  readonly rails: readonly PaymentRail[];
  readonly defaultRail: PaymentRail;
}

/** `rails` in the reference's `paymentRails` order; the default is the first unless named. */
function choice(rails: readonly PaymentRail[], defaultRail: PaymentRail = rails[0]): RailChoice {
  return { rails, defaultRail };
}

const BANK = choice(['BANK_TRANSFER']);
const MOBILE = choice(['MOBILE_MONEY']);
/** Accounts paid to a bank account or a mobile wallet: the bank by default, mobile money when the account only has a phone. */
const BANK_OR_MOBILE = choice(['BANK_TRANSFER', 'MOBILE_MONEY']);
/** SEPA Instant by default: the money arrives in seconds (and the quote locks 5 minutes). */
const SEPA = choice(['SEPA', 'SEPA_INSTANT'], 'SEPA_INSTANT');

/**
 * The rails of each destination type (the reference's `paymentRails` enum of its account info)
 * and the rail a quote uses when it names none. An account that lists fewer `paymentRails` (its
 * identifiers fit only some) narrows these in selectRail.
 */
export const RAILS_BY_ACCOUNT_TYPE: Readonly<Record<DestinationAccountType, RailChoice>> = Object.freeze({
  AED_ACCOUNT: BANK,
  BDT_ACCOUNT: BANK_OR_MOBILE,
  BRL_ACCOUNT: choice(['PIX']),
  BWP_ACCOUNT: MOBILE,
  CAD_ACCOUNT: BANK,
  CNY_ACCOUNT: BANK_OR_MOBILE,
  COP_ACCOUNT: BANK_OR_MOBILE,
  DKK_ACCOUNT: SEPA,
  EGP_ACCOUNT: BANK_OR_MOBILE,
  EUR_ACCOUNT: SEPA,
  GBP_ACCOUNT: choice(['FASTER_PAYMENTS']),
  GHS_ACCOUNT: BANK_OR_MOBILE,
  GTQ_ACCOUNT: BANK,
  HKD_ACCOUNT: BANK,
  HTG_ACCOUNT: MOBILE,
  IDR_ACCOUNT: BANK,
  // UPI when the account has a handle, else NEFT (RTGS only on request: it is for large sums).
  INR_ACCOUNT: choice(['UPI', 'NEFT', 'RTGS']),
  JMD_ACCOUNT: BANK,
  KES_ACCOUNT: MOBILE,
  MWK_ACCOUNT: MOBILE,
  MXN_ACCOUNT: choice(['SPEI']),
  MYR_ACCOUNT: BANK,
  NGN_ACCOUNT: BANK,
  PHP_ACCOUNT: BANK,
  PKR_ACCOUNT: BANK_OR_MOBILE,
  RWF_ACCOUNT: MOBILE,
  // FAST by default: PayNow pays to a proxy (phone, UEN) and is used only when asked for.
  SGD_ACCOUNT: choice(['PAYNOW', 'FAST', 'BANK_TRANSFER'], 'FAST'),
  SLV_ACCOUNT: BANK_OR_MOBILE,
  THB_ACCOUNT: BANK,
  TZS_ACCOUNT: MOBILE,
  UGX_ACCOUNT: MOBILE,
  USD_ACCOUNT: choice(['ACH', 'WIRE', 'RTP', 'FEDNOW']),
  VND_ACCOUNT: BANK,
  XAF_ACCOUNT: MOBILE,
  XOF_ACCOUNT: MOBILE,
  ZAR_ACCOUNT: BANK,
  ZMW_ACCOUNT: MOBILE,
  SWIFT_ACCOUNT: choice(['SWIFT']),
  SPARK_WALLET: choice(['SPARK']),
  LIGHTNING: choice(['LIGHTNING']),
  SOLANA_WALLET: choice(['SOLANA']),
  BASE_WALLET: choice(['BASE']),
  POLYGON_WALLET: choice(['POLYGON']),
  ETHEREUM_WALLET: choice(['ETHEREUM']),
  TRON_WALLET: choice(['TRON']),
  PLASMA_WALLET: choice(['PLASMA']),
  BITCOIN_L1: choice(['BITCOIN']),
  EMBEDDED_WALLET: choice(['EMBEDDED_WALLET']),
  INTERNAL_ACCOUNT: choice(['INTERNAL']),
  UMA_ADDRESS: choice(['UMA']),
});

/**
 * Default payout rail per receiving currency, for corridors listed without an account (exchange
 * rates): the default rail of the account type that holds the currency (USD: USD_ACCOUNT), and
 * SWIFT for the currencies only a SWIFT_ACCOUNT is paid in.
 */
export const DEFAULT_RAIL_BY_CURRENCY: Readonly<Record<string, PaymentRail>> = Object.freeze({
  USD: 'ACH', EUR: 'SEPA_INSTANT', GBP: 'FASTER_PAYMENTS', MXN: 'SPEI', BRL: 'PIX', INR: 'UPI',
  NGN: 'BANK_TRANSFER', CAD: 'BANK_TRANSFER', PHP: 'BANK_TRANSFER', KES: 'MOBILE_MONEY',
  USDC: 'SOLANA', USDT: 'SOLANA', USDB: 'SPARK', BTC: 'LIGHTNING',
  AED: 'BANK_TRANSFER', BDT: 'BANK_TRANSFER', BWP: 'MOBILE_MONEY', CNY: 'BANK_TRANSFER', COP: 'BANK_TRANSFER',
  DKK: 'SEPA_INSTANT', EGP: 'BANK_TRANSFER', GHS: 'BANK_TRANSFER', GTQ: 'BANK_TRANSFER', HKD: 'BANK_TRANSFER',
  HTG: 'MOBILE_MONEY', IDR: 'BANK_TRANSFER', JMD: 'BANK_TRANSFER', MWK: 'MOBILE_MONEY', MYR: 'BANK_TRANSFER',
  PKR: 'BANK_TRANSFER', RWF: 'MOBILE_MONEY', SGD: 'FAST', THB: 'BANK_TRANSFER', TZS: 'MOBILE_MONEY',
  UGX: 'MOBILE_MONEY', VND: 'BANK_TRANSFER', XAF: 'MOBILE_MONEY', XOF: 'MOBILE_MONEY', ZAR: 'BANK_TRANSFER',
  ZMW: 'MOBILE_MONEY',
  AUD: 'SWIFT', CHF: 'SWIFT', CZK: 'SWIFT', ILS: 'SWIFT', JPY: 'SWIFT', KRW: 'SWIFT', NOK: 'SWIFT', NZD: 'SWIFT',
  PLN: 'SWIFT', SAR: 'SWIFT', SEK: 'SWIFT',
});

/**
 * Rails on which a quote's rate stays locked only 5 minutes (DECISIONS.md section 2: Lightning,
 * Spark, stablecoins on Solana/Base/Polygon, RTP, SEPA Instant, embedded wallet). FedNow is RTP's
 * twin and UMA pays over Lightning, so both count too. Every other rail locks for 15 minutes.
 */
export const FIVE_MINUTE_RAILS: ReadonlySet<PaymentRail> = new Set<PaymentRail>([
  'LIGHTNING', 'SPARK', 'SOLANA', 'BASE', 'POLYGON', 'RTP', 'FEDNOW', 'SEPA_INSTANT', 'EMBEDDED_WALLET', 'UMA',
]);

/**
 * Rails that settle in seconds, around the clock: the only ones a REALTIME_FUNDING payer may use
 * (SPEC.md: "valid only for instant payment methods, never for non-instant ones such as ACH").
 */
export const REAL_TIME_RAILS: ReadonlySet<PaymentRail> = new Set<PaymentRail>([
  ...FIVE_MINUTE_RAILS, 'FASTER_PAYMENTS', 'SPEI', 'PIX', 'UPI', 'IMPS', 'FAST', 'PAYNOW', 'INSTAPAY', 'INTERNAL',
]);

export const INSTANT_QUOTE_LIFETIME_MS = 5 * 60 * 1000;
export const STANDARD_QUOTE_LIFETIME_MS = 15 * 60 * 1000;

export function isPaymentRail(value: unknown): value is PaymentRail {
  return typeof value === 'string' && (PAYMENT_RAILS as readonly string[]).includes(value);
}

export function isCryptoNetwork(value: unknown): value is CryptoNetwork {
  return typeof value === 'string' && (CRYPTO_NETWORKS as readonly string[]).includes(value);
}

export function isDestinationAccountType(value: unknown): value is DestinationAccountType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(RAILS_BY_ACCOUNT_TYPE, value);
}

export function isRealTimeRail(rail: PaymentRail): boolean {
  return REAL_TIME_RAILS.has(rail);
}

export function supportedRails(accountType: DestinationAccountType): readonly PaymentRail[] {
  return RAILS_BY_ACCOUNT_TYPE[accountType].rails;
}

export function defaultRail(accountType: DestinationAccountType): PaymentRail {
  return RAILS_BY_ACCOUNT_TYPE[accountType].defaultRail;
}

/**
 * The rail a quote pays out on: the requested one when the destination supports it, else the
 * default. `accountRails` narrows the type's rails when the external account lists its own
 * `paymentRails`. A rail the destination cannot use is a field error (400 INVALID_INPUT).
 */
export function selectRail(input: {
  accountType: DestinationAccountType;
  requestedRail?: unknown;
  accountRails?: readonly string[] | null;
  field?: string;
}): { rail: PaymentRail; error?: undefined } | { rail?: undefined; error: FieldError } {
  const field = input.field ?? 'destination.paymentRail';
  const typeRails = supportedRails(input.accountType);
  const usable = input.accountRails && input.accountRails.length > 0
    ? typeRails.filter((rail) => input.accountRails!.includes(rail))
    : [...typeRails];
  if (input.requestedRail === undefined || input.requestedRail === null) {
    const preferred = defaultRail(input.accountType);
    return { rail: usable.includes(preferred) ? preferred : (usable[0] ?? preferred) };
  }
  if (!isWirePaymentRail(input.requestedRail)) {
    return { error: { field, constraint: { enum: WIRE_PAYMENT_RAILS }, message: `${field} must be one of ${WIRE_PAYMENT_RAILS.join(', ')}` } };
  }
  if (!usable.includes(input.requestedRail)) {
    // Wallets, UMA and book transfers have one implicit rail with no contract name: no rail may be named.
    const named = usable.filter(isWirePaymentRail);
    return {
      error: {
        field,
        constraint: { enum: named },
        message: named.length > 0
          ? `The destination account does not support ${input.requestedRail}; supported rails: ${named.join(', ')}`
          : `The destination account takes no paymentRail; omit ${field}`,
      },
    };
  }
  return { rail: input.requestedRail };
}

/** How long a quote's rate stays locked: the shortest lifetime among the rails it uses. */
export function quoteLifetimeMs(rails: readonly PaymentRail[]): number {
  return rails.some((rail) => FIVE_MINUTE_RAILS.has(rail)) ? INSTANT_QUOTE_LIFETIME_MS : STANDARD_QUOTE_LIFETIME_MS;
}

/**
 * `expiresAt` of a quote created at `createdAt` that uses `rails` (the payout rail, plus the
 * funding rail for a REALTIME_FUNDING source and `EMBEDDED_WALLET` for an embedded-wallet source).
 */
export function quoteExpiresAt(createdAt: string | Date, rails: readonly PaymentRail[]): string {
  const createdMs = typeof createdAt === 'string' ? Date.parse(createdAt) : createdAt.getTime();
  return new Date(createdMs + quoteLifetimeMs(rails)).toISOString();
}
