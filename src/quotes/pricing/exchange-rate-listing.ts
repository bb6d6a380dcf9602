import { DomainError } from '../../infra/domain/domain-error';
import { CURRENCY_CODES, Currency } from '../../shared/currencies';
import { PlatformFee, platformFeeFor } from './fee-schedule';
import { PRICED_CURRENCY_CODES, pricedCurrency } from './payout-currencies';
import { OutgoingRateDetails, PricedQuote, priceQuote } from './price';
import { DEFAULT_RAIL_BY_CURRENCY, PaymentRail, WirePaymentRail, wirePaymentRail } from './rails';
import { RateSnapshot } from './rate-table';
import { SendingBounds, sendingBounds } from './sending-bounds';

/**
 * `GET /exchange-rates` (DECISIONS.md section 2): every corridor of the current rate snapshot,
 * priced for a sending amount with the service's and the platform's fees included, exactly as a
 * SENDING-locked quote on the corridor's default payout rail would be priced in that snapshot.
 */
export const DEFAULT_LISTING_SENDING_AMOUNT = 10_000;

export interface ExchangeRateEntry {
  sourceCurrency: Currency;
  destinationCurrency: Currency;
  destinationPaymentRail: WirePaymentRail;
  sendingAmount: number;
  minSendingAmount: number;
  maxSendingAmount: number;
  receivingAmount: number;
  exchangeRate: number;
  fees: { fixed: number; variable: number; total: number };
  feesIncluded: number;
  platformFeesIncluded: number;
  rateDetails: OutgoingRateDetails;
  rateSnapshotId: string;
  /** When this snapshot's rates were set (start of its window). */
  updatedAt: string;
  /** When the next snapshot replaces these rates. */
  expiresAt: string;
}

export interface ListingRequest {
  snapshot: RateSnapshot;
  /** Null for every source currency. */
  sourceCurrency: string | null;
  /** Empty for every destination currency. */
  destinationCurrencies: readonly string[];
  /** Null: DEFAULT_LISTING_SENDING_AMOUNT, raised to a corridor's minimum where that is higher. */
  sendingAmount: number | null;
  feeConfigs: ReadonlyArray<{ currencyCode: string; fixedFee: number; variableFeeRate: number }>;
  /** The platform's per-currency limits (`supportedCurrencies`), applied to the sending currency. */
  amountLimits: ReadonlyArray<{ currencyCode: string; minAmount: number; maxAmount: number }>;
}

/** Memoises corridor bounds per snapshot and fee: they only change when either does. */
export type BoundsCache = Map<string, SendingBounds | null>;

export function listExchangeRates(request: ListingRequest, boundsCache: BoundsCache = new Map()): ExchangeRateEntry[] {
  // Sources are the currencies a quote can send from (internal accounts, real-time funding);
  // destinations every priced currency, the payout-only ones (DKK, HKD, ...) included.
  const sources = request.sourceCurrency ? [request.sourceCurrency] : CURRENCY_CODES;
  const destinations = request.destinationCurrencies.length > 0 ? request.destinationCurrencies : PRICED_CURRENCY_CODES;
  const entries: ExchangeRateEntry[] = [];
  let refusedForAmount = 0;
  for (const source of sources) {
    const platformFee = platformFeeFor(request.feeConfigs, source);
    const limits = request.amountLimits.find((entry) => entry.currencyCode === source) ?? null;
    for (const destination of PRICED_CURRENCY_CODES.filter((code) => destinations.includes(code))) {
      if (destination === source) continue;
      const rail = DEFAULT_RAIL_BY_CURRENCY[destination];
      // An entry names its payout rail in the contract's words: corridors paying out over a
      // network it has no rail name for (Lightning, Spark, on-chain) are quoted, not listed.
      const wireRail = wirePaymentRail(rail);
      if (!wireRail) continue;
      const corridor = { snapshot: request.snapshot, sendingCurrency: source, receivingCurrency: destination, rail, platformFee };
      const bounds = cachedBounds(boundsCache, corridor, limits);
      if (!bounds) {
        refusedForAmount += 1;
        continue;
      }
      const amount = request.sendingAmount ?? Math.max(DEFAULT_LISTING_SENDING_AMOUNT, bounds.minSendingAmount);
      if (amount < bounds.minSendingAmount || amount > bounds.maxSendingAmount) {
        refusedForAmount += 1;
        continue;
      }
      const quote = priceQuote({ ...corridor, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount });
      entries.push(entryOf(request.snapshot, source, destination, wireRail, bounds, quote, platformFee));
    }
  }
  if (entries.length === 0 && refusedForAmount > 0) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', 'No requested corridor can price this sending amount', { sendingAmount: request.sendingAmount });
  }
  return entries;
}

function cachedBounds(
  cache: BoundsCache,
  corridor: { snapshot: RateSnapshot; sendingCurrency: string; receivingCurrency: string; rail: PaymentRail; platformFee: PlatformFee | null },
  limits: { minAmount: number; maxAmount: number } | null,
): SendingBounds | null {
  const key = JSON.stringify([corridor.snapshot.id, corridor.sendingCurrency, corridor.receivingCurrency, corridor.rail, corridor.platformFee, limits]);
  if (!cache.has(key)) cache.set(key, sendingBounds(corridor, limits));
  return cache.get(key) ?? null;
}

function entryOf(
  snapshot: RateSnapshot,
  source: string,
  destination: string,
  rail: WirePaymentRail,
  bounds: SendingBounds,
  quote: PricedQuote,
  platformFee: PlatformFee | null,
): ExchangeRateEntry {
  const variable = quote.rateDetails.gridApiVariableFeeAmount + (quote.platformFeesIncluded - (platformFee?.fixedFee ?? 0));
  return {
    sourceCurrency: { ...pricedCurrency(source) },
    destinationCurrency: { ...pricedCurrency(destination) },
    destinationPaymentRail: rail,
    sendingAmount: quote.totalSendingAmount,
    minSendingAmount: bounds.minSendingAmount,
    maxSendingAmount: bounds.maxSendingAmount,
    receivingAmount: quote.totalReceivingAmount,
    exchangeRate: quote.exchangeRate,
    fees: { fixed: quote.feesIncluded - variable, variable, total: quote.feesIncluded },
    feesIncluded: quote.feesIncluded,
    platformFeesIncluded: quote.platformFeesIncluded,
    rateDetails: quote.rateDetails,
    rateSnapshotId: snapshot.id,
    updatedAt: snapshot.validFrom,
    expiresAt: snapshot.validUntil,
  };
}
