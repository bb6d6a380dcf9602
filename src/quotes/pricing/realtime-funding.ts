import { FieldError } from '../../infra/domain/domain-error';
import { CURRENCY_CODES, STABLECOINS, isCurrencyCode } from '../../shared/currencies';
import { CRYPTO_NETWORKS, CryptoNetwork, PaymentRail, isCryptoNetwork, isRealTimeRail } from './rails';

/**
 * REALTIME_FUNDING sources (SPEC.md "Source variants"): which currency and network a payer may
 * fund a quote with just in time, and the payment instructions that method needs. Only instant
 * methods qualify; stablecoins must name their `cryptoNetwork`.
 */
export type FundingInstructionType =
  | 'USD_ACCOUNT' | 'EUR_ACCOUNT' | 'GBP_ACCOUNT' | 'MXN_ACCOUNT' | 'BRL_ACCOUNT'
  | 'SPARK_WALLET' | 'LIGHTNING' | 'SOLANA_WALLET' | 'BASE_WALLET' | 'POLYGON_WALLET';

export interface FundingMethod {
  currency: string;
  /** The deposit network for crypto currencies; null for fiat. */
  cryptoNetwork: CryptoNetwork | null;
  /** Rails the payer may use; every one is real-time. */
  rails: PaymentRail[];
  instructionType: FundingInstructionType;
}

/** Instant fiat funding: the payer pushes to a sandbox collection account on these rails. */
const FIAT_FUNDING: Readonly<Record<string, { rails: PaymentRail[]; instructionType: FundingInstructionType }>> = {
  USD: { rails: ['RTP', 'FEDNOW'], instructionType: 'USD_ACCOUNT' },
  EUR: { rails: ['SEPA_INSTANT'], instructionType: 'EUR_ACCOUNT' },
  GBP: { rails: ['FASTER_PAYMENTS'], instructionType: 'GBP_ACCOUNT' },
  MXN: { rails: ['SPEI'], instructionType: 'MXN_ACCOUNT' },
  BRL: { rails: ['PIX'], instructionType: 'BRL_ACCOUNT' },
};

/** Networks that carry each crypto currency at all (instant or not). */
const NETWORKS_BY_CRYPTO: Readonly<Record<string, readonly CryptoNetwork[]>> = {
  BTC: ['SPARK', 'LIGHTNING', 'BITCOIN'],
  USDC: ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'TRON', 'PLASMA', 'SPARK'],
  USDT: ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'TRON', 'PLASMA', 'SPARK'],
  USDB: ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'TRON', 'PLASMA', 'SPARK'],
};

const INSTRUCTION_BY_NETWORK: Partial<Record<CryptoNetwork, FundingInstructionType>> = {
  SPARK: 'SPARK_WALLET',
  LIGHTNING: 'LIGHTNING',
  SOLANA: 'SOLANA_WALLET',
  BASE: 'BASE_WALLET',
  POLYGON: 'POLYGON_WALLET',
};

/** Currencies a REALTIME_FUNDING source may name. */
export const REALTIME_FUNDING_CURRENCIES: readonly string[] = [...Object.keys(FIAT_FUNDING), ...Object.keys(NETWORKS_BY_CRYPTO)];

export function cryptoNetworksFor(currency: string): readonly CryptoNetwork[] {
  return NETWORKS_BY_CRYPTO[currency] ?? [];
}

/**
 * Validates a REALTIME_FUNDING source's `currency` and `cryptoNetwork` and answers the funding
 * method, or every field error at once (`source.currency`, `source.cryptoNetwork`). Other fields
 * of the source (sourceType, customerId) are the caller's to check.
 */
export function checkRealtimeFunding(
  source: { currency?: unknown; cryptoNetwork?: unknown },
  fieldPrefix = 'source',
): { method: FundingMethod; errors: [] } | { method: null; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const currencyField = `${fieldPrefix}.currency`;
  const networkField = `${fieldPrefix}.cryptoNetwork`;
  const { currency, cryptoNetwork } = source;
  const networkGiven = cryptoNetwork !== undefined && cryptoNetwork !== null;

  if (networkGiven && !isCryptoNetwork(cryptoNetwork)) {
    errors.push({
      field: networkField,
      constraint: typeof cryptoNetwork === 'string' ? { enum: CRYPTO_NETWORKS } : {},
      message: `${networkField} must be one of ${CRYPTO_NETWORKS.join(', ')}`,
    });
  }
  if (currency === undefined || currency === null) {
    errors.push({ field: currencyField, constraint: {}, message: `${currencyField} is required` });
    return { method: null, errors };
  }
  if (typeof currency !== 'string') {
    errors.push({ field: currencyField, constraint: {}, message: `${currencyField} must be a currency code` });
    return { method: null, errors };
  }
  if (!isCurrencyCode(currency)) {
    errors.push({ field: currencyField, constraint: { enum: CURRENCY_CODES }, message: `${currencyField} must be one of ${CURRENCY_CODES.join(', ')}` });
    return { method: null, errors };
  }

  const fiat = FIAT_FUNDING[currency];
  if (fiat) {
    if (networkGiven) {
      errors.push({ field: networkField, constraint: {}, message: `${networkField} applies only to crypto currencies, not ${currency}` });
    }
    return errors.length > 0 ? { method: null, errors } : { method: { currency, cryptoNetwork: null, ...fiat, rails: [...fiat.rails] }, errors: [] };
  }
  const networks = NETWORKS_BY_CRYPTO[currency];
  if (!networks) {
    errors.push({
      field: currencyField,
      constraint: { enum: REALTIME_FUNDING_CURRENCIES },
      message: `No instant funding method exists for ${currency}; real-time funding accepts ${REALTIME_FUNDING_CURRENCIES.join(', ')}`,
    });
    return { method: null, errors };
  }
  if (!networkGiven) {
    if (STABLECOINS.has(currency)) {
      errors.push({ field: networkField, constraint: {}, message: `${networkField} is required when the currency is a stablecoin` });
      return { method: null, errors };
    }
    // BTC without a network: a Spark deposit whose instructions also carry a Lightning invoice.
    return errors.length > 0 ? { method: null, errors } : { method: cryptoMethod(currency, 'SPARK'), errors: [] };
  }
  if (!isCryptoNetwork(cryptoNetwork)) return { method: null, errors };
  if (!networks.includes(cryptoNetwork)) {
    errors.push({ field: networkField, constraint: { enum: networks }, message: `${currency} is not carried on ${cryptoNetwork}; use one of ${networks.join(', ')}` });
  } else if (!isRealTimeRail(cryptoNetwork) || !INSTRUCTION_BY_NETWORK[cryptoNetwork]) {
    const instant = networks.filter((network) => isRealTimeRail(network) && INSTRUCTION_BY_NETWORK[network]);
    errors.push({
      field: networkField,
      constraint: { enum: instant },
      message: `${cryptoNetwork} is not an instant payment method; real-time funding in ${currency} accepts ${instant.join(', ')}`,
    });
  }
  return errors.length > 0 ? { method: null, errors } : { method: cryptoMethod(currency, cryptoNetwork), errors: [] };
}

function cryptoMethod(currency: string, network: CryptoNetwork): FundingMethod {
  return { currency, cryptoNetwork: network, rails: [network], instructionType: INSTRUCTION_BY_NETWORK[network]! };
}
