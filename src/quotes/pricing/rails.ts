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
 * Destination account types a quote can pay to: the external account types of DECISIONS.md
 * section 1b (plus the fiat types SPEC.md lists for the other supported currencies), an
 * internal account (`EMBEDDED_WALLET` or any other internal type as `INTERNAL_ACCOUNT`), and UMA.
 */
export type DestinationAccountType =
  | 'USD_ACCOUNT' | 'EUR_ACCOUNT' | 'GBP_ACCOUNT' | 'MXN_ACCOUNT' | 'BRL_ACCOUNT'
  | 'INR_ACCOUNT' | 'NGN_ACCOUNT' | 'CAD_ACCOUNT' | 'PHP_ACCOUNT' | 'KES_ACCOUNT'
  | 'SPARK_WALLET' | 'LIGHTNING'
  | 'SOLANA_WALLET' | 'BASE_WALLET' | 'POLYGON_WALLET' | 'ETHEREUM_WALLET' | 'TRON_WALLET' | 'PLASMA_WALLET'
  | 'BITCOIN_L1'
  | 'EMBEDDED_WALLET' | 'INTERNAL_ACCOUNT' | 'UMA_ADDRESS';

interface RailChoice {
  readonly rails: readonly PaymentRail[];
  readonly defaultRail: PaymentRail;
}

export const RAILS_BY_ACCOUNT_TYPE: Readonly<Record<DestinationAccountType, RailChoice>> = Object.freeze({
  USD_ACCOUNT: { rails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'], defaultRail: 'ACH' },
  EUR_ACCOUNT: { rails: ['SEPA', 'SEPA_INSTANT'], defaultRail: 'SEPA_INSTANT' },
  GBP_ACCOUNT: { rails: ['FASTER_PAYMENTS'], defaultRail: 'FASTER_PAYMENTS' },
  MXN_ACCOUNT: { rails: ['SPEI'], defaultRail: 'SPEI' },
  BRL_ACCOUNT: { rails: ['PIX'], defaultRail: 'PIX' },
  INR_ACCOUNT: { rails: ['UPI', 'NEFT', 'RTGS'], defaultRail: 'UPI' },
  NGN_ACCOUNT: { rails: ['BANK_TRANSFER'], defaultRail: 'BANK_TRANSFER' },
  CAD_ACCOUNT: { rails: ['BANK_TRANSFER'], defaultRail: 'BANK_TRANSFER' },
  PHP_ACCOUNT: { rails: ['BANK_TRANSFER'], defaultRail: 'BANK_TRANSFER' },
  KES_ACCOUNT: { rails: ['MOBILE_MONEY'], defaultRail: 'MOBILE_MONEY' },
  SPARK_WALLET: { rails: ['SPARK'], defaultRail: 'SPARK' },
  LIGHTNING: { rails: ['LIGHTNING'], defaultRail: 'LIGHTNING' },
  SOLANA_WALLET: { rails: ['SOLANA'], defaultRail: 'SOLANA' },
  BASE_WALLET: { rails: ['BASE'], defaultRail: 'BASE' },
  POLYGON_WALLET: { rails: ['POLYGON'], defaultRail: 'POLYGON' },
  ETHEREUM_WALLET: { rails: ['ETHEREUM'], defaultRail: 'ETHEREUM' },
  TRON_WALLET: { rails: ['TRON'], defaultRail: 'TRON' },
  PLASMA_WALLET: { rails: ['PLASMA'], defaultRail: 'PLASMA' },
  BITCOIN_L1: { rails: ['BITCOIN'], defaultRail: 'BITCOIN' },
  EMBEDDED_WALLET: { rails: ['EMBEDDED_WALLET'], defaultRail: 'EMBEDDED_WALLET' },
  INTERNAL_ACCOUNT: { rails: ['INTERNAL'], defaultRail: 'INTERNAL' },
  UMA_ADDRESS: { rails: ['UMA'], defaultRail: 'UMA' },
});

/** Default payout rail per receiving currency, for corridors listed without an account (exchange rates). */
export const DEFAULT_RAIL_BY_CURRENCY: Readonly<Record<string, PaymentRail>> = Object.freeze({
  USD: 'ACH', EUR: 'SEPA_INSTANT', GBP: 'FASTER_PAYMENTS', MXN: 'SPEI', BRL: 'PIX', INR: 'UPI',
  NGN: 'BANK_TRANSFER', CAD: 'BANK_TRANSFER', PHP: 'BANK_TRANSFER', KES: 'MOBILE_MONEY',
  USDC: 'SOLANA', USDT: 'SOLANA', USDB: 'SPARK', BTC: 'LIGHTNING',
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
