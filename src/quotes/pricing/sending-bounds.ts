import { DomainError } from '../../infra/domain/domain-error';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { parseDecimal } from './exact';
import { counterpartyFixedFeeFor, serviceFeeFor } from './fee-schedule';
import { PriceRequest, PricedQuote, priceQuote } from './price';
import { midMarketRate, minorUnitRate } from './rate-table';

/**
 * The range of sending amounts a corridor can price (a SENDING-locked quote whose every amount is
 * positive and at most 9e15), narrowed by the platform's own limits for the sending currency.
 * Found from an estimate and a few exact pricings around it, so listing every corridor stays cheap.
 */
export interface SendingBounds {
  minSendingAmount: number;
  maxSendingAmount: number;
}

export type CorridorRequest = Omit<PriceRequest, 'lockedCurrencySide' | 'lockedCurrencyAmount'>;

const LOCAL_STEPS = 64;

function pricesAt(request: CorridorRequest, amount: number): PricedQuote | null {
  try {
    return priceQuote({ ...request, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'AMOUNT_OUT_OF_RANGE') return null;
    throw error;
  }
}

/** Null when no amount at all prices in this corridor. */
export function sendingBounds(request: CorridorRequest, platformLimits?: { minAmount: number; maxAmount: number } | null): SendingBounds | null {
  const minimum = boundary(request, 'lowest');
  if (minimum === null) return null;
  const maximum = boundary(request, 'highest')!;
  const low = Math.max(minimum, platformLimits?.minAmount ?? 1);
  const high = Math.min(maximum, platformLimits?.maxAmount ?? MAX_AMOUNT_MINOR);
  return low <= high ? { minSendingAmount: low, maxSendingAmount: high } : null;
}

function boundary(request: CorridorRequest, end: 'lowest' | 'highest'): number | null {
  const sample = findAny(request);
  if (!sample) return null;
  if (end === 'highest' && pricesAt(request, MAX_AMOUNT_MINOR)) return MAX_AMOUNT_MINOR;
  // Towards priceable amounts: up from the low end, down from the high end.
  const inward = end === 'lowest' ? 1 : -1;
  let amount = estimateBoundary(request, end);
  if (pricesAt(request, amount)) {
    for (let step = 0; step < LOCAL_STEPS; step += 1) {
      const next = amount - inward;
      if (!withinRange(next) || !pricesAt(request, next)) return amount;
      amount = next;
    }
  } else {
    for (let step = 0; step < LOCAL_STEPS; step += 1) {
      amount += inward;
      if (!withinRange(amount)) break;
      if (pricesAt(request, amount)) return amount;
    }
  }
  return bisect(request, sample, end);
}

function withinRange(amount: number): boolean {
  return amount >= 1 && amount <= MAX_AMOUNT_MINOR;
}

/** Where the boundary lies if rounding did not exist, from the corridor's exact fee terms. */
function estimateBoundary(request: CorridorRequest, end: 'lowest' | 'highest'): number {
  const service = serviceFeeFor(request.sendingCurrency, request.receivingCurrency, request.rail);
  const rate = minorUnitRate(parseDecimal(midMarketRate(request.snapshot, request.sendingCurrency, request.receivingCurrency)), request.sendingCurrency, request.receivingCurrency);
  const sendingPerReceiving = Number(rate.n) / Number(rate.d);
  const counterpartyFee = request.counterpartyFixedFee ?? counterpartyFixedFeeFor(request.receivingCurrency, request.rail);
  const fixedFees = Number(service.fixedFee) + (request.platformFee?.fixedFee ?? 0) + Math.round(counterpartyFee * sendingPerReceiving);
  const keptShare = Math.max(1e-9, 1 - Number(service.variableFeeRate) - (request.platformFee?.variableFeeRate ?? 0));
  const target = end === 'lowest'
    ? (fixedFees + sendingPerReceiving) / keptShare
    : ((MAX_AMOUNT_MINOR + 1) * sendingPerReceiving + fixedFees) / keptShare - 1;
  return Math.min(MAX_AMOUNT_MINOR, Math.max(1, Math.floor(target)));
}

function findAny(request: CorridorRequest): PricedQuote | null {
  for (const amount of [1_000_000, 100_000_000, 10_000_000_000, 1_000_000_000_000, 9_000_000_000_000_000, 10_000, 100]) {
    const priced = pricesAt(request, amount);
    if (priced) return priced;
  }
  return null;
}

/** Fallback when the local search does not settle: binary search on "prices". */
function bisect(request: CorridorRequest, sample: PricedQuote, end: 'lowest' | 'highest'): number {
  let inside = sample.totalSendingAmount;
  let outside = end === 'lowest' ? 0 : MAX_AMOUNT_MINOR + 1;
  while (Math.abs(inside - outside) > 1) {
    const middle = Math.floor((inside + outside) / 2);
    if (pricesAt(request, middle)) inside = middle;
    else outside = middle;
  }
  return inside;
}
