import { FeeConfig, FeeType } from './platform.events';

/**
 * Platform fee configs: the one place that maps between the stored entries (fraction and
 * sending-currency minor units, the shape of every event since the first) and the contract's
 * FeeConfig (basis points and a FixedFee object). Pricing reads the stored shape.
 */
export interface FeeConfigWire {
  feeType: FeeType;
  sourceCurrency: string;
  /** 1 bps = 0.01% of the sending amount. */
  variableFeeBps: number;
  fixedFee: { amount: number; currency: string };
}

/** Fee entries stored before fee types existed were cross-currency fees (the only type). */
export const DEFAULT_FEE_TYPE: FeeType = 'CROSS_CURRENCY_TRANSACTION';

/** The only sending currency production takes fee configs for today (others: 501 NOT_IMPLEMENTED). */
export const FEE_CONFIG_SOURCE_CURRENCIES: readonly string[] = ['USD'];

const BPS_PER_UNIT = 10_000;

export function feeTypeOf(entry: FeeConfig): FeeType {
  return entry.feeType ?? DEFAULT_FEE_TYPE;
}

/** A fee with no fixed and no variable part charges nothing: it is a deactivated config. */
export function isActiveFee(entry: FeeConfig): boolean {
  return entry.fixedFee > 0 || entry.variableFeeRate > 0;
}

/** The stored entry for a wire FeeConfig whose fixed fee is in its source currency (checked at the edge). */
export function feeConfigFromWire(wire: FeeConfigWire): FeeConfig {
  // bps / 10 000 is the closest double to the exact decimal, which prints back as that decimal.
  return { currencyCode: wire.sourceCurrency, fixedFee: wire.fixedFee.amount, variableFeeRate: wire.variableFeeBps / BPS_PER_UNIT, feeType: wire.feeType };
}

export function feeConfigToWire(entry: FeeConfig): FeeConfigWire {
  return {
    feeType: feeTypeOf(entry),
    sourceCurrency: entry.currencyCode,
    // Rates stored before issue 20 could be finer than a basis point: shown to the nearest one.
    variableFeeBps: Math.round(entry.variableFeeRate * BPS_PER_UNIT),
    fixedFee: { amount: entry.fixedFee, currency: entry.currencyCode },
  };
}

/**
 * Merge-by-key upsert keyed by (feeType, currencyCode): an update replaces the entry with its
 * key or adds one; an update charging nothing removes the entry (deactivation). Entries not named
 * are kept as they are, in their order; new ones come last.
 */
export function upsertFeeConfigs(current: readonly FeeConfig[], updates: readonly FeeConfig[]): FeeConfig[] {
  const keyOf = (entry: FeeConfig) => `${feeTypeOf(entry)}/${entry.currencyCode}`;
  const next = new Map(current.map((entry) => [keyOf(entry), entry]));
  for (const update of updates) {
    const key = keyOf(update);
    if (isActiveFee(update)) next.set(key, { ...update, feeType: feeTypeOf(update) });
    else next.delete(key);
  }
  return [...next.values()];
}
