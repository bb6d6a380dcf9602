import { DomainError } from '../../infra/domain/domain-error';
import { CURRENCY_CODES, MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { divide, floor, fromNumber, integer, multiply, roundHalfEven } from './exact';
import { PlatformFee } from './fee-schedule';
import { quoteInvariantViolations } from './invariants';
import { LockedCurrencySide, PricedQuote, convertAtRate, priceQuote } from './price';
import { PAYOUT_ONLY_CURRENCIES, PRICED_CURRENCIES, PRICED_CURRENCY_CODES } from './payout-currencies';
import { DEFAULT_RAIL_BY_CURRENCY, PAYMENT_RAILS, PaymentRail } from './rails';
import { BASE_USD_VALUE, RateSnapshot, midMarketRate, minorUnitRate, rateSnapshotAt, rateSnapshotForBucket } from './rate-table';
import { SeededRandom } from '../../../test/support/seeded-random';

interface Case {
  snapshot: RateSnapshot;
  sendingCurrency: string;
  receivingCurrency: string;
  lockedCurrencySide: LockedCurrencySide;
  lockedCurrencyAmount: number;
  rail: PaymentRail;
  platformFee: PlatformFee | null;
  counterpartyFixedFee?: number;
}

function randomCase(random: SeededRandom): Case {
  // A quote sends from a supported currency and pays out in any priced one.
  const sendingCurrency = random.pick(CURRENCY_CODES);
  const receivingCurrency = random.pick(PRICED_CURRENCY_CODES);
  const roll = random.next();
  const platformFee = roll < 0.25
    ? null
    : { fixedFee: random.pick([0, 1, 25, 250, random.amount(10_000)]), variableFeeRate: random.pick([0, 0.001, 0.0025, 0.01, 0.05, 0.5, Number(random.next().toFixed(4)) / 2]) };
  return {
    snapshot: rateSnapshotForBucket(random.integer(5_000_000, 6_000_000)),
    sendingCurrency,
    receivingCurrency,
    lockedCurrencySide: random.pick(['SENDING', 'RECEIVING'] as const),
    lockedCurrencyAmount: random.amount(random.next() < 0.1 ? MAX_AMOUNT_MINOR : 10 ** random.integer(2, 12)),
    rail: random.pick(PAYMENT_RAILS),
    platformFee,
    counterpartyFixedFee: random.next() < 0.5 ? undefined : random.pick([0, 1, 100, random.amount(1_000_000)]),
  };
}

/** Every invariant, plus what the request fixes, as messages (one `expect` per case keeps this fast). */
function violations(input: Case, quote: PricedQuote): string[] {
  const { sendingCurrency: sending, receivingCurrency: receiving } = input;
  const found = quoteInvariantViolations({ ...quote, sendingCurrency: sending, receivingCurrency: receiving });
  const check = (ok: boolean, message: string) => {
    if (!ok) found.push(message);
  };
  check(String(quote.exchangeRate) === String(Number(quote.exchangeRateText)), 'exchangeRate is not its exact text');
  const minorRate = minorUnitRate(fromNumber(quote.exchangeRate), sending, receiving);
  check(quote.counterpartyFeeInSendingCurrency === Number(roundHalfEven(multiply(integer(quote.rateDetails.counterpartyFixedFee), minorRate))), 'counterparty fee conversion');
  const platform = input.platformFee ?? { fixedFee: 0, variableFeeRate: 0 };
  check(
    quote.platformFeesIncluded === platform.fixedFee + Number(roundHalfEven(multiply(integer(quote.totalSendingAmount), fromNumber(platform.variableFeeRate)))),
    'platform fee',
  );
  const net = quote.totalSendingAmount - quote.feesIncluded;
  check(BigInt(quote.totalReceivingAmount) === convertAtRate(net, quote.exchangeRate, sending, receiving), 'convertAtRate disagrees');
  // A float client computing the same conversion lands within one minor unit.
  const floatReceiving = ((net / 10 ** PRICED_CURRENCIES[sending].decimals) / quote.exchangeRate) * 10 ** PRICED_CURRENCIES[receiving].decimals;
  if (floatReceiving < 1e14) check(Math.abs(floatReceiving - quote.totalReceivingAmount) <= 1, `float conversion ${floatReceiving}`);
  const mid = midMarketRate(input.snapshot, sending, receiving);
  check(quote.midMarketRate === mid, 'mid-market rate');
  check(quote.rateSnapshotId === input.snapshot.id, 'snapshot id');
  if (input.lockedCurrencySide === 'SENDING') {
    check(quote.totalSendingAmount === input.lockedCurrencyAmount, 'locked sending amount');
    check(quote.exchangeRateText === mid, 'SENDING quotes use mid-market');
  } else {
    check(quote.totalReceivingAmount === input.lockedCurrencyAmount, 'locked receiving amount');
    const midValue = fromNumber(Number(mid));
    const rateValue = fromNumber(quote.exchangeRate);
    check(rateValue.n * midValue.d >= midValue.n * rateValue.d, 'RECEIVING rate better than mid-market');
    // One sending minor unit less would not deliver the locked amount even at mid-market.
    const midMinor = minorUnitRate(midValue, sending, receiving);
    check(Number(floor(divide(integer(net - 1), midMinor))) < input.lockedCurrencyAmount, 'sending amount not minimal');
  }
  return found;
}

describe('priceQuote', () => {
  it('meets every invariant over thousands of random pairs, amounts, rails and fee configs', () => {
    const seed = 20251013;
    const random = new SeededRandom(seed);
    let priced = 0;
    let refused = 0;
    for (let index = 0; index < 4000; index += 1) {
      const input = randomCase(random);
      let quote: PricedQuote;
      try {
        quote = priceQuote(input);
      } catch (error) {
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).code).toBe('AMOUNT_OUT_OF_RANGE');
        refused += 1;
        continue;
      }
      const found = violations(input, quote);
      if (found.length > 0) {
        throw new Error(`case ${index} (seed ${seed}) ${JSON.stringify({ ...input, snapshot: input.snapshot.id })}: ${found.join('; ')}`);
      }
      priced += 1;
    }
    expect(priced).toBeGreaterThan(2500);
    expect(refused).toBeGreaterThan(0);
  });

  it('refuses with AMOUNT_OUT_OF_RANGE exactly when an amount would not be positive or would exceed 9e15', () => {
    const random = new SeededRandom(7);
    for (let index = 0; index < 1500; index += 1) {
      const input = { ...randomCase(random), lockedCurrencyAmount: random.integer(1, 400) };
      let quote: PricedQuote;
      try {
        quote = priceQuote(input);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        expect(error.code).toBe('AMOUNT_OUT_OF_RANGE');
        continue;
      }
      expect(violations(input, quote)).toEqual([]);
    }
    const base = { snapshot: rateSnapshotAt(new Date('2025-10-13T12:00:00Z')), sendingCurrency: 'USD', receivingCurrency: 'EUR', rail: 'SEPA_INSTANT' as const };
    for (const lockedCurrencyAmount of [0, -5, MAX_AMOUNT_MINOR + 1]) {
      expect(() => priceQuote({ ...base, lockedCurrencySide: 'SENDING', lockedCurrencyAmount })).toThrow(
        expect.objectContaining({ code: 'AMOUNT_OUT_OF_RANGE' }),
      );
    }
    expect(() => priceQuote({ ...base, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1.5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_AMOUNT' }),
    );
    // 10 cents cannot cover the 10-cent bank fee plus FX spread.
    expect(() => priceQuote({ ...base, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10 })).toThrow(
      expect.objectContaining({ code: 'AMOUNT_OUT_OF_RANGE' }),
    );
    // 9e15 USD cents buys more than 9e15 sats.
    expect(() => priceQuote({ ...base, receivingCurrency: 'BTC', rail: 'LIGHTNING', lockedCurrencySide: 'SENDING', lockedCurrencyAmount: MAX_AMOUNT_MINOR })).toThrow(
      expect.objectContaining({ code: 'AMOUNT_OUT_OF_RANGE' }),
    );
    expect(() => priceQuote({ ...base, receivingCurrency: 'XYZ', lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 })).toThrow(
      expect.objectContaining({ code: 'INVALID_CURRENCY' }),
    );
  });

  it('prices a worked USD -> EUR example to the cent', () => {
    const snapshot = rateSnapshotAt(new Date('2025-10-13T12:00:00Z'));
    const quote = priceQuote({
      snapshot, sendingCurrency: 'USD', receivingCurrency: 'EUR', lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100_000,
      rail: 'SEPA_INSTANT', platformFee: { fixedFee: 25, variableFeeRate: 0.001 },
    });
    const rate = Number(snapshot.usdValues.EUR);
    expect(quote.exchangeRate).toBeCloseTo(rate, 12);
    expect(quote.rateDetails).toMatchObject({ gridApiFixedFee: 10, gridApiVariableFeeRate: 0.001, gridApiVariableFeeAmount: 100, counterpartyFixedFee: 0 });
    expect(quote.platformFeesIncluded).toBe(125);
    expect(quote.feesIncluded).toBe(235);
    expect(quote.totalReceivingAmount).toBe(Math.floor((100_000 - 235) / rate));
  });

  it('applies decimals between 2, 6 and 8 decimal currencies', () => {
    const snapshot = rateSnapshotAt(new Date('2025-10-13T12:00:00Z'));
    const btcUsd = Number(snapshot.usdValues.BTC);
    // USD -> USDC: one to one in value, 10^4 micro-units per cent, no FX spread.
    const onramp = priceQuote({ snapshot, sendingCurrency: 'USD', receivingCurrency: 'USDC', lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000, rail: 'SOLANA' });
    expect(onramp.exchangeRate).toBe(1);
    expect(onramp.rateDetails.gridApiVariableFeeRate).toBe(0);
    expect(onramp.totalReceivingAmount).toBe((10_000 - onramp.feesIncluded) * 10_000);
    // USD -> BTC: sats = cents / 100 / price * 10^8.
    const buy = priceQuote({ snapshot, sendingCurrency: 'USD', receivingCurrency: 'BTC', lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000, rail: 'LIGHTNING' });
    expect(buy.exchangeRate).toBe(btcUsd);
    expect(Math.abs(buy.totalReceivingAmount - ((10_000 - buy.feesIncluded) / 100 / btcUsd) * 1e8)).toBeLessThanOrEqual(1);
    expect(buy.rateDetails.counterpartyMultiplier).toBeCloseTo(0.001, 12);
    expect(buy.rateDetails.gridApiMultiplier).toBeCloseTo((0.01 / btcUsd) * 1e11 * 0.999, 6);
    // BTC -> USDT RECEIVING: locked micro-dollars arrive exactly.
    const sell = priceQuote({ snapshot, sendingCurrency: 'BTC', receivingCurrency: 'USDT', lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 25_000_000, rail: 'SOLANA' });
    expect(sell.totalReceivingAmount).toBe(25_000_000);
    // Sats are coarser than micro-dollars: the rate sits at most one sat's worth above mid-market.
    const relativeGap = (sell.exchangeRate - 1 / btcUsd) / (1 / btcUsd);
    expect(relativeGap).toBeGreaterThanOrEqual(0);
    expect(relativeGap).toBeLessThanOrEqual(1 / (sell.totalSendingAmount - sell.feesIncluded));
    expect(sell.rateDetails.gridApiMultiplier).toBeCloseTo(1000 * 0.999, 9);
  });

  it('delivers a RECEIVING-locked amount exactly even when the sending unit is coarser', () => {
    const snapshot = rateSnapshotAt(new Date('2025-10-13T12:00:00Z'));
    for (const lockedCurrencyAmount of [100_001, 1_234_567, 987_654_321]) {
      const quote = priceQuote({ snapshot, sendingCurrency: 'USD', receivingCurrency: 'NGN', lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount, rail: 'BANK_TRANSFER' });
      expect(quote.totalReceivingAmount).toBe(lockedCurrencyAmount);
      expect(Number(convertAtRate(quote.totalSendingAmount - quote.feesIncluded, quote.exchangeRate, 'USD', 'NGN'))).toBe(lockedCurrencyAmount);
    }
  });

  it('prices every payout-only currency from every source on its default rail, both locked sides, 0-decimal ones included', () => {
    const snapshot = rateSnapshotAt(new Date('2025-10-13T12:00:00Z'));
    /** Minor units of `code` worth about `usd` US dollars. */
    const worthOf = (usd: number, code: string) => Math.round((usd / Number(BASE_USD_VALUE[code])) * 10 ** PRICED_CURRENCIES[code].decimals);
    for (const receivingCurrency of Object.keys(PAYOUT_ONLY_CURRENCIES)) {
      const rail = DEFAULT_RAIL_BY_CURRENCY[receivingCurrency];
      for (const sendingCurrency of CURRENCY_CODES) {
        const sending = { snapshot, sendingCurrency, receivingCurrency, rail, platformFee: { fixedFee: 25, variableFeeRate: 0.002 } };
        const input = { ...sending, lockedCurrencySide: 'SENDING' as const, lockedCurrencyAmount: worthOf(1_000, sendingCurrency) };
        expect([sendingCurrency, receivingCurrency, violations(input, priceQuote(input))]).toEqual([sendingCurrency, receivingCurrency, []]);
        const locked = { ...sending, lockedCurrencySide: 'RECEIVING' as const, lockedCurrencyAmount: worthOf(250, receivingCurrency) + 7 };
        expect([sendingCurrency, receivingCurrency, violations(locked, priceQuote(locked))]).toEqual([sendingCurrency, receivingCurrency, []]);
      }
    }
    // USD -> VND (0 decimals) at 10000 cents: dong per dollar, the bank fee, no counterparty fee.
    const vnd = priceQuote({ snapshot, sendingCurrency: 'USD', receivingCurrency: 'VND', lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000, rail: 'BANK_TRANSFER', platformFee: null });
    const dongPerDollar = 1 / Number(snapshot.usdValues.VND);
    expect(vnd.rateDetails).toMatchObject({ gridApiFixedFee: 10, gridApiVariableFeeRate: 0.001, gridApiVariableFeeAmount: 10, counterpartyFixedFee: Math.round(0.25 * 1 / 0.000038) });
    expect(Math.abs(vnd.totalReceivingAmount - ((10_000 - vnd.feesIncluded) / 100) * dongPerDollar)).toBeLessThanOrEqual(1);
    // SWIFT: the correspondent banks' $5, in the receiving currency at the base table.
    const chf = priceQuote({ snapshot, sendingCurrency: 'USD', receivingCurrency: 'CHF', lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100_000, rail: 'SWIFT', platformFee: null });
    expect(chf.rateDetails.counterpartyFixedFee).toBe(400);
  });

  it('is deterministic: the same inputs give the same quote', () => {
    const snapshot = rateSnapshotAt(new Date('2025-10-13T12:00:00Z'));
    const input = { snapshot, sendingCurrency: 'EUR', receivingCurrency: 'MXN', lockedCurrencySide: 'RECEIVING' as const, lockedCurrencyAmount: 5_000_000, rail: 'SPEI' as const };
    expect(priceQuote(input)).toEqual(priceQuote({ ...input, snapshot: rateSnapshotAt(new Date('2025-10-13T12:04:59Z')) }));
  });
});
