import { STABLECOINS } from '../../shared/currencies';
import { baseMinorFromUsdCents } from './rate-table';
import { PaymentRail } from './rails';

/**
 * The sandbox's own fee schedule (the `gridApi*` figures of OutgoingRateDetails) and the
 * counterparty fixed fees it simulates. Fixed fees are static per currency: a US-cent figure
 * converted once at the base rate table, so they never drift with the rates.
 */
export interface PlatformFee {
  /** Platform's fixed fee, minor units of the sending currency. */
  fixedFee: number;
  /** Platform's variable fee as a fraction of the sending amount (0.01 = 1%). */
  variableFeeRate: number;
}

export interface ServiceFee {
  /** `gridApiFixedFee`: minor units of the sending currency. */
  fixedFee: bigint;
  /** `gridApiVariableFeeRate` as decimal text (exact), e.g. `0.001`. */
  variableFeeRate: string;
}

/** Service fixed fee in US cents for payouts on bank rails (crypto and book rails pay none). */
const BANK_RAIL_FIXED_FEE_USD_CENTS = 10;

/** FX spread charged when the two currencies differ in value (not USD against its stablecoins). */
const FX_VARIABLE_FEE_RATE = '0.001';

const BANK_RAILS: ReadonlySet<PaymentRail> = new Set<PaymentRail>([
  'ACH', 'WIRE', 'RTP', 'FEDNOW', 'SEPA', 'SEPA_INSTANT', 'FASTER_PAYMENTS', 'SPEI', 'PIX', 'UPI', 'IMPS', 'NEFT', 'RTGS',
  'BANK_TRANSFER', 'MOBILE_MONEY', 'ACH_COLOMBIA', 'BRE_B', 'CIPS', 'FAST', 'INSTAPAY', 'PAYNOW', 'PESONET', 'SWIFT', 'UNIONPAY',
]);

/** Counterparty fixed fee per rail in US cents (the receiving institution's or network's charge). */
const COUNTERPARTY_FEE_USD_CENTS: Partial<Record<PaymentRail, number>> = {
  WIRE: 500,
  // The correspondent banks' charge on an international transfer, like a domestic wire's.
  SWIFT: 500,
  BANK_TRANSFER: 25,
  MOBILE_MONEY: 25,
  ETHEREUM: 100,
  BITCOIN: 100,
  TRON: 50,
  SOLANA: 1,
  BASE: 1,
  POLYGON: 1,
};

function isUsdValued(code: string): boolean {
  return code === 'USD' || STABLECOINS.has(code);
}

/** The service's fee for a payout of `sendingCurrency` towards `receivingCurrency` on `rail`. */
export function serviceFeeFor(sendingCurrency: string, receivingCurrency: string, rail: PaymentRail): ServiceFee {
  const sameValue = sendingCurrency === receivingCurrency || (isUsdValued(sendingCurrency) && isUsdValued(receivingCurrency));
  return {
    fixedFee: BANK_RAILS.has(rail) ? baseMinorFromUsdCents(sendingCurrency, BANK_RAIL_FIXED_FEE_USD_CENTS) : 0n,
    variableFeeRate: sameValue ? '0' : FX_VARIABLE_FEE_RATE,
  };
}

/** Counterparty fixed fee in minor units of the receiving currency for a payout on `rail`. */
export function counterpartyFixedFeeFor(receivingCurrency: string, rail: PaymentRail): number {
  const usdCents = COUNTERPARTY_FEE_USD_CENTS[rail] ?? 0;
  return usdCents === 0 ? 0 : Number(baseMinorFromUsdCents(receivingCurrency, usdCents));
}

/**
 * The platform's fee for a transfer from `sendingCurrency` (`feeConfigs` of platform config, as
 * stored: see src/platforms/domain/platform/fee-configs.ts), or none. The only fee type,
 * CROSS_CURRENCY_TRANSACTION (also that of entries stored without one), applies when the two
 * currencies differ; without `receivingCurrency` the transfer is taken to be cross-currency.
 */
export function platformFeeFor(
  feeConfigs: ReadonlyArray<{ currencyCode: string; fixedFee: number; variableFeeRate: number; feeType?: string }> | null | undefined,
  sendingCurrency: string,
  receivingCurrency?: string,
): PlatformFee | null {
  if (receivingCurrency === sendingCurrency) return null;
  const entry = feeConfigs?.find(
    (config) => config.currencyCode === sendingCurrency && (config.feeType ?? 'CROSS_CURRENCY_TRANSACTION') === 'CROSS_CURRENCY_TRANSACTION',
  );
  return entry ? { fixedFee: entry.fixedFee, variableFeeRate: entry.variableFeeRate } : null;
}
