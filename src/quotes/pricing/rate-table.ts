import { STABLECOINS } from '../../shared/currencies';
import { Ratio, divide, integer, multiply, parseDecimal, pow10, ratio, toSignificant } from './exact';
import { PRICED_CURRENCIES, PRICED_CURRENCY_CODES } from './payout-currencies';

/**
 * The sandbox's deterministic mid-market rates (DECISIONS.md section 2). Every currency has a
 * value in US dollars per MAJOR unit; a pair's rate is the ratio of the two values. Rates drift a
 * little over time: each five-minute bucket scales every floating currency by its own factor in
 * [-0.5%, +0.5%], a pure function of (currency, bucket), so every process and every replay sees
 * the same snapshot for the same instant. USD and the USD stablecoins never drift (always 1).
 */

/** Length of one rate snapshot (the "cached about 5 minutes" of SPEC.md Limits). */
export const RATE_SNAPSHOT_TTL_MS = 5 * 60 * 1000;

/** Largest drift from the base value, in parts per million (0.5%). */
export const MAX_DRIFT_PPM = 5_000;

/** Significant digits of a published mid-market rate; JSON numbers round-trip them exactly. */
export const RATE_SIGNIFICANT_DIGITS = 15;

/** Base value of one major unit in US dollars, before drift, for every priced currency. */
export const BASE_USD_VALUE: Readonly<Record<string, string>> = Object.freeze({
  USD: '1',
  EUR: '1.16',
  GBP: '1.34',
  MXN: '0.054',
  BRL: '0.185',
  INR: '0.0113',
  NGN: '0.00068',
  CAD: '0.72',
  PHP: '0.0172',
  KES: '0.00774',
  USDC: '1',
  USDT: '1',
  USDB: '1',
  BTC: '100000',
  // Payout-only currencies (src/quotes/pricing/payout-currencies.ts).
  AED: '0.2723',
  BDT: '0.0082',
  BWP: '0.074',
  CNY: '0.14',
  COP: '0.00026',
  DKK: '0.155',
  EGP: '0.021',
  GHS: '0.09',
  GTQ: '0.13',
  HKD: '0.1286',
  HTG: '0.0076',
  IDR: '0.00006',
  JMD: '0.0063',
  MWK: '0.00058',
  MYR: '0.24',
  PKR: '0.00355',
  RWF: '0.00069',
  SGD: '0.77',
  THB: '0.031',
  TZS: '0.00041',
  UGX: '0.00028',
  VND: '0.000038',
  XAF: '0.00177',
  XOF: '0.00177',
  ZAR: '0.058',
  ZMW: '0.044',
  AUD: '0.65',
  CHF: '1.25',
  CZK: '0.048',
  ILS: '0.3',
  JPY: '0.0066',
  KRW: '0.0007',
  NOK: '0.099',
  NZD: '0.57',
  PLN: '0.27',
  SAR: '0.2666',
  SEK: '0.105',
});

export interface RateSnapshot {
  /** `rates-<bucket>`: the bucket index names the snapshot, so it can be rebuilt from its id. */
  readonly id: string;
  readonly bucket: number;
  /** ISO start of the window in which this snapshot is the current one. */
  readonly validFrom: string;
  /** ISO end of that window (exclusive). */
  readonly validUntil: string;
  /** Value of one major unit in US dollars, as exact decimal text, per currency code. */
  readonly usdValues: Readonly<Record<string, string>>;
}

const SNAPSHOT_ID = /^rates-(\d{1,12})$/;

export function rateBucketAt(now: Date): number {
  return Math.floor(now.getTime() / RATE_SNAPSHOT_TTL_MS);
}

/** The snapshot current at `now`. */
export function rateSnapshotAt(now: Date): RateSnapshot {
  return rateSnapshotForBucket(rateBucketAt(now));
}

/** Rebuilds a snapshot from its id (a quote stores the id it locked), or null when malformed. */
export function rateSnapshotById(id: string): RateSnapshot | null {
  const match = SNAPSHOT_ID.exec(id);
  return match ? rateSnapshotForBucket(Number(match[1])) : null;
}

export function rateSnapshotForBucket(bucket: number): RateSnapshot {
  const usdValues: Record<string, string> = {};
  for (const code of PRICED_CURRENCY_CODES) {
    const base = parseDecimal(BASE_USD_VALUE[code]);
    if (code === 'USD' || STABLECOINS.has(code)) {
      usdValues[code] = BASE_USD_VALUE[code];
      continue;
    }
    const drifted = multiply(base, ratio(1_000_000n + BigInt(driftPpm(code, bucket)), 1_000_000n));
    usdValues[code] = toSignificant(drifted, 12);
  }
  return Object.freeze({
    id: `rates-${bucket}`,
    bucket,
    validFrom: new Date(bucket * RATE_SNAPSHOT_TTL_MS).toISOString(),
    validUntil: new Date((bucket + 1) * RATE_SNAPSHOT_TTL_MS).toISOString(),
    usdValues: Object.freeze(usdValues),
  });
}

/** Buckets per drift cycle (one day): rates wander slowly rather than jump between snapshots. */
const DRIFT_PERIOD_BUCKETS = 288;
const WAVE_AMPLITUDE_PPM = 4_000;
const NOISE_AMPLITUDE_PPM = MAX_DRIFT_PPM - WAVE_AMPLITUDE_PPM;

/**
 * Deterministic drift in [-MAX_DRIFT_PPM, MAX_DRIFT_PPM] for one currency in one bucket: a slow
 * daily wave with a per-currency phase, plus a little per-bucket noise.
 */
export function driftPpm(code: string, bucket: number): number {
  const phase = mix32(fnv1a32(`phase:${code}`)) % DRIFT_PERIOD_BUCKETS;
  const wave = Math.round(WAVE_AMPLITUDE_PPM * Math.sin((2 * Math.PI * ((bucket + phase) % DRIFT_PERIOD_BUCKETS)) / DRIFT_PERIOD_BUCKETS));
  const noise = (mix32(fnv1a32(`${code}:${bucket}`)) % (2 * NOISE_AMPLITUDE_PPM + 1)) - NOISE_AMPLITUDE_PPM;
  return wave + noise;
}

/** Value of one major unit of `code` in US dollars, in this snapshot. */
export function usdValue(snapshot: RateSnapshot, code: string): Ratio {
  const text = snapshot.usdValues[code];
  if (text === undefined) throw new Error(`No rate for ${code}`);
  return parseDecimal(text);
}

/**
 * Mid-market `exchangeRate` as SPEC.md defines it: sending currency MAJOR units per one
 * receiving currency MAJOR unit, rounded to RATE_SIGNIFICANT_DIGITS, as decimal text.
 */
export function midMarketRate(snapshot: RateSnapshot, sendingCurrency: string, receivingCurrency: string): string {
  if (sendingCurrency === receivingCurrency) return '1';
  const rate = divide(usdValue(snapshot, receivingCurrency), usdValue(snapshot, sendingCurrency));
  return toSignificant(rate, RATE_SIGNIFICANT_DIGITS);
}

/**
 * Sending MINOR units per one receiving MINOR unit for a major-unit rate: the decimals of both
 * currencies applied (e.g. USD->BTC at 100000: 10^7 cents per 10^8 sats = 0.1 cent per sat).
 */
export function minorUnitRate(rate: Ratio, sendingCurrency: string, receivingCurrency: string): Ratio {
  const sendingScale = pow10(PRICED_CURRENCIES[sendingCurrency].decimals);
  const receivingScale = pow10(PRICED_CURRENCIES[receivingCurrency].decimals);
  return divide(multiply(rate, integer(sendingScale)), integer(receivingScale));
}

/** Converts a fixed amount of USD cents into minor units of `code` at the BASE value (no drift). */
export function baseMinorFromUsdCents(code: string, usdCents: number): bigint {
  const majorValue = parseDecimal(BASE_USD_VALUE[code]);
  const value = divide(multiply(integer(usdCents), integer(pow10(PRICED_CURRENCIES[code].decimals))), multiply(majorValue, integer(100)));
  // Half up is enough here: these are static schedule figures, not amounts of a payment.
  return (value.n * 2n + value.d) / (2n * value.d);
}

function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Finaliser so neighbouring buckets give unrelated drifts. */
function mix32(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35) >>> 0;
  hash ^= hash >>> 16;
  return hash >>> 0;
}
