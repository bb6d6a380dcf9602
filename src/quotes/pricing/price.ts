import { DomainError } from '../../infra/domain/domain-error';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import {
  ONE, Ratio, add, compare, divide, floor, fromNumber, integer, multiply, parseDecimal, pow10, roundHalfEven, subtract, toSignificant,
} from './exact';
import { PlatformFee, counterpartyFixedFeeFor, serviceFeeFor } from './fee-schedule';
import { PRICED_CURRENCIES, isPricedCurrency } from './payout-currencies';
import { PaymentRail } from './rails';
import { RATE_SIGNIFICANT_DIGITS, RateSnapshot, midMarketRate, minorUnitRate, usdValue } from './rate-table';

/**
 * Prices a quote (DECISIONS.md section 2). Amounts are BigInt minor units throughout; rates are
 * exact decimals. Every result meets, exactly:
 *   feesIncluded = gridApiFixedFee + gridApiVariableFeeAmount + platformFeesIncluded
 *                  + counterpartyFixedFee converted to sending minor units (half-even)
 *   totalReceivingAmount = floor((totalSendingAmount - feesIncluded) / exchangeRate), decimals applied
 *   0 < every amount <= MAX_AMOUNT_MINOR, else DomainError AMOUNT_OUT_OF_RANGE.
 * Variable fees are the sending amount times the rate, rounded half-even.
 */
export type LockedCurrencySide = 'SENDING' | 'RECEIVING';

export interface PriceRequest {
  snapshot: RateSnapshot;
  sendingCurrency: string;
  receivingCurrency: string;
  lockedCurrencySide: LockedCurrencySide;
  /** Minor units of the locked side's currency. */
  lockedCurrencyAmount: number;
  /** Payout rail; selects the service's fee and the default counterparty fee. */
  rail: PaymentRail;
  /** The platform's `feeConfigs` entry for the sending currency, if any. */
  platformFee?: PlatformFee | null;
  /** Counterparty fixed fee, minor units of the receiving currency; the sandbox schedule when absent. */
  counterpartyFixedFee?: number;
}

/** SPEC.md OutgoingRateDetails. */
export interface OutgoingRateDetails {
  counterpartyMultiplier: number;
  counterpartyFixedFee: number;
  gridApiMultiplier: number;
  gridApiFixedFee: number;
  gridApiVariableFeeRate: number;
  gridApiVariableFeeAmount: number;
}

export interface PricedQuote {
  totalSendingAmount: number;
  totalReceivingAmount: number;
  /** Sending major units per receiving major unit; exactly the decimal in `exchangeRateText`. */
  exchangeRate: number;
  feesIncluded: number;
  platformFeesIncluded: number;
  rateDetails: OutgoingRateDetails;
  /** Exact decimal text of `exchangeRate` (store this in events). */
  exchangeRateText: string;
  /** The snapshot's mid-market rate; differs from `exchangeRateText` only for RECEIVING-locked
   * quotes whose sending currency is too coarse to deliver the locked amount at mid-market. */
  midMarketRate: string;
  rateSnapshotId: string;
  /** The counterparty fixed fee in sending minor units, as included in `feesIncluded`. */
  counterpartyFeeInSendingCurrency: number;
}

const MAX = BigInt(MAX_AMOUNT_MINOR);
const MSATS_PER_BTC = 100_000_000_000n;
const MAX_ADJUSTMENTS = 64;

interface Terms {
  sendingCurrency: string;
  receivingCurrency: string;
  serviceFixedFee: bigint;
  serviceVariableRate: Ratio;
  serviceVariableRateText: string;
  platformFixedFee: bigint;
  platformVariableRate: Ratio;
  counterpartyFixedFee: bigint;
}

interface Evaluation {
  sending: bigint;
  rateText: string;
  minorRate: Ratio;
  serviceVariableFee: bigint;
  platformFee: bigint;
  counterpartyFeeInSending: bigint;
  fees: bigint;
  receiving: bigint;
}

export function priceQuote(request: PriceRequest): PricedQuote {
  const terms = termsOf(request);
  const locked = lockedAmountOf(request.lockedCurrencyAmount);
  const mid = midMarketRate(request.snapshot, request.sendingCurrency, request.receivingCurrency);
  const evaluation = request.lockedCurrencySide === 'SENDING'
    ? evaluate(terms, locked, mid)
    : solveForReceiving(terms, locked, mid);
  return present(request.snapshot, terms, evaluation, mid);
}

/** Receiving minor units that `netSendingMinor` buys at `exchangeRate` (major units), rounded down. */
export function convertAtRate(netSendingMinor: number | bigint, exchangeRate: number | string, sendingCurrency: string, receivingCurrency: string): bigint {
  const rate = typeof exchangeRate === 'number' ? fromNumber(exchangeRate) : parseDecimal(exchangeRate);
  return floor(divide(integer(netSendingMinor), minorUnitRate(rate, sendingCurrency, receivingCurrency)));
}

function termsOf(request: PriceRequest): Terms {
  for (const code of [request.sendingCurrency, request.receivingCurrency]) {
    if (!isPricedCurrency(code)) throw new DomainError('INVALID_CURRENCY', `Unsupported currency ${String(code)}`);
  }
  const service = serviceFeeFor(request.sendingCurrency, request.receivingCurrency, request.rail);
  const platform = request.platformFee ?? { fixedFee: 0, variableFeeRate: 0 };
  if (!Number.isSafeInteger(platform.fixedFee) || platform.fixedFee < 0) throw new Error('Platform fixedFee must be a non-negative integer');
  if (!(platform.variableFeeRate >= 0 && platform.variableFeeRate < 1)) throw new Error('Platform variableFeeRate must be in [0, 1)');
  const counterpartyFixedFee = request.counterpartyFixedFee ?? counterpartyFixedFeeFor(request.receivingCurrency, request.rail);
  if (!Number.isSafeInteger(counterpartyFixedFee) || counterpartyFixedFee < 0) throw new Error('counterpartyFixedFee must be a non-negative integer');
  return {
    sendingCurrency: request.sendingCurrency,
    receivingCurrency: request.receivingCurrency,
    serviceFixedFee: service.fixedFee,
    serviceVariableRate: parseDecimal(service.variableFeeRate),
    serviceVariableRateText: service.variableFeeRate,
    platformFixedFee: BigInt(platform.fixedFee),
    platformVariableRate: fromNumber(platform.variableFeeRate),
    counterpartyFixedFee: BigInt(counterpartyFixedFee),
  };
}

function lockedAmountOf(amount: number): bigint {
  if (!Number.isSafeInteger(amount)) throw new DomainError('INVALID_AMOUNT', 'lockedCurrencyAmount must be an integer in minor units');
  if (amount <= 0 || amount > MAX_AMOUNT_MINOR) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', `lockedCurrencyAmount must be between 1 and ${MAX_AMOUNT_MINOR}`);
  }
  return BigInt(amount);
}

function evaluate(terms: Terms, sending: bigint, rateText: string): Evaluation {
  const minorRate = minorUnitRate(parseDecimal(rateText), terms.sendingCurrency, terms.receivingCurrency);
  const serviceVariableFee = roundHalfEven(multiply(integer(sending), terms.serviceVariableRate));
  const platformFee = terms.platformFixedFee + roundHalfEven(multiply(integer(sending), terms.platformVariableRate));
  const counterpartyFeeInSending = roundHalfEven(multiply(integer(terms.counterpartyFixedFee), minorRate));
  const fees = terms.serviceFixedFee + serviceVariableFee + platformFee + counterpartyFeeInSending;
  const net = sending - fees;
  const receiving = net > 0n ? floor(divide(integer(net), minorRate)) : 0n;
  return { sending, rateText, minorRate, serviceVariableFee, platformFee, counterpartyFeeInSending, fees, receiving };
}

/**
 * RECEIVING-locked: the smallest sending amount that delivers the locked amount. When one sending
 * minor unit buys several receiving minor units (e.g. USD cents to NGN kobo), no sending amount
 * delivers it exactly at mid-market; the quote then locks the rate at which the rounded sending
 * amount delivers exactly the locked amount (at most one sending minor unit away from mid-market).
 */
function solveForReceiving(terms: Terms, target: bigint, mid: string): Evaluation {
  if (evaluate(terms, MAX, mid).receiving < target) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', 'The locked receiving amount needs more than the largest sending amount');
  }
  let [low, high] = searchWindow(terms, target, mid);
  while (low < high) {
    const middle = (low + high) / 2n;
    if (evaluate(terms, middle, mid).receiving >= target) high = middle;
    else low = middle + 1n;
  }
  let sending = low;
  let rateText = mid;
  for (let attempt = 0; attempt < MAX_ADJUSTMENTS; attempt += 1) {
    const evaluation = evaluate(terms, sending, rateText);
    if (evaluation.receiving === target) return evaluation;
    if (evaluation.receiving < target) {
      sending += 1n;
      if (sending > MAX) break;
      continue;
    }
    const adjusted = rateDelivering(terms, sending - evaluation.fees, target, rateText);
    if (adjusted === null) break;
    rateText = adjusted;
  }
  throw new DomainError('AMOUNT_OUT_OF_RANGE', 'The locked receiving amount cannot be delivered exactly; choose another amount');
}

/**
 * A narrow window [low, high] with receiving(low - 1) < target <= receiving(high), from the
 * linear estimate sending ~ (target x rate + fixed fees) / (1 - variable rates); the whole range
 * when the estimate's window does not bracket the answer.
 */
function searchWindow(terms: Terms, target: bigint, mid: string): [bigint, bigint] {
  const minorRate = minorUnitRate(parseDecimal(mid), terms.sendingCurrency, terms.receivingCurrency);
  const fixed = add(add(integer(terms.serviceFixedFee + terms.platformFixedFee), multiply(integer(terms.counterpartyFixedFee), minorRate)), ONE);
  const kept = subtract(subtract(ONE, terms.serviceVariableRate), terms.platformVariableRate);
  if (kept.n <= 0n) return [1n, MAX];
  const estimate = floor(divide(add(multiply(integer(target), minorRate), fixed), kept));
  const margin = estimate / 1000n + 16n;
  const low = estimate - margin;
  const high = estimate + margin;
  if (low < 2n || high > MAX) return [1n, MAX];
  if (evaluate(terms, low - 1n, mid).receiving >= target || evaluate(terms, high, mid).receiving < target) return [1n, MAX];
  return [low, high];
}

/**
 * The largest rate (as decimal text a JSON number reproduces exactly) at or below
 * net / target, in major units: at it, `net` buys at least `target`. Null when no such text
 * differs from `current`.
 */
function rateDelivering(terms: Terms, net: bigint, target: bigint, current: string): string | null {
  const scale = divide(integer(pow10(PRICED_CURRENCIES[terms.receivingCurrency].decimals)), integer(pow10(PRICED_CURRENCIES[terms.sendingCurrency].decimals)));
  const exact = multiply(divide(integer(net), integer(target)), scale);
  for (let digits = RATE_SIGNIFICANT_DIGITS; digits <= 17; digits += 1) {
    const text = toSignificant(exact, digits, 'floor');
    if (text !== current && compare(fromNumber(Number(text)), parseDecimal(text)) === 0) return text;
  }
  return null;
}

function present(snapshot: RateSnapshot, terms: Terms, evaluation: Evaluation, mid: string): PricedQuote {
  const amounts = [evaluation.sending, evaluation.receiving];
  if (evaluation.sending - evaluation.fees <= 0n || amounts.some((amount) => amount <= 0n || amount > MAX)) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', 'The amount does not cover the fees or is outside the supported range', {
      totalSendingAmount: Number(evaluation.sending),
      feesIncluded: Number(evaluation.fees),
    });
  }
  const msatsPerSendingMinor = divide(
    multiply(divide(usdValue(snapshot, terms.sendingCurrency), usdValue(snapshot, 'BTC')), integer(MSATS_PER_BTC)),
    integer(pow10(PRICED_CURRENCIES[terms.sendingCurrency].decimals)),
  );
  const gridApiMultiplier = multiply(msatsPerSendingMinor, subtract(ONE, terms.serviceVariableRate));
  // At mid-market the counterparty's multiplier is the receiving currency's own BTC price; a
  // RECEIVING-adjusted rate moves it by the same factor as the rate.
  const counterpartyMultiplier = evaluation.rateText === mid
    ? divide(
      multiply(divide(usdValue(snapshot, 'BTC'), usdValue(snapshot, terms.receivingCurrency)), integer(pow10(PRICED_CURRENCIES[terms.receivingCurrency].decimals))),
      integer(MSATS_PER_BTC),
    )
    : divide(ONE, multiply(evaluation.minorRate, msatsPerSendingMinor));
  return {
    totalSendingAmount: Number(evaluation.sending),
    totalReceivingAmount: Number(evaluation.receiving),
    exchangeRate: Number(evaluation.rateText),
    feesIncluded: Number(evaluation.fees),
    platformFeesIncluded: Number(evaluation.platformFee),
    rateDetails: {
      counterpartyMultiplier: Number(toSignificant(counterpartyMultiplier, 15)),
      counterpartyFixedFee: Number(terms.counterpartyFixedFee),
      gridApiMultiplier: Number(toSignificant(gridApiMultiplier, 15)),
      gridApiFixedFee: Number(terms.serviceFixedFee),
      gridApiVariableFeeRate: Number(terms.serviceVariableRateText),
      gridApiVariableFeeAmount: Number(evaluation.serviceVariableFee),
    },
    exchangeRateText: evaluation.rateText,
    midMarketRate: mid,
    rateSnapshotId: snapshot.id,
    counterpartyFeeInSendingCurrency: Number(evaluation.counterpartyFeeInSending),
  };
}
