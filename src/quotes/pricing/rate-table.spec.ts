import { STABLECOINS } from '../../shared/currencies';
import { PRICED_CURRENCY_CODES } from './payout-currencies';
import { divide, fromNumber, parseDecimal, toSignificant } from './exact';
import {
  BASE_USD_VALUE, MAX_DRIFT_PPM, RATE_SNAPSHOT_TTL_MS, driftPpm, midMarketRate, minorUnitRate, rateSnapshotAt, rateSnapshotById,
  rateSnapshotForBucket,
} from './rate-table';

describe('sandbox rate table', () => {
  const at = new Date('2025-10-13T12:02:30Z');

  it('serves one snapshot per five-minute window, named by its bucket and rebuildable from its id', () => {
    const snapshot = rateSnapshotAt(at);
    expect(snapshot.validFrom).toBe('2025-10-13T12:00:00.000Z');
    expect(snapshot.validUntil).toBe('2025-10-13T12:05:00.000Z');
    expect(Date.parse(snapshot.validUntil) - Date.parse(snapshot.validFrom)).toBe(RATE_SNAPSHOT_TTL_MS);
    expect(snapshot.id).toBe(`rates-${snapshot.bucket}`);
    expect(rateSnapshotAt(new Date('2025-10-13T12:04:59.999Z'))).toEqual(snapshot);
    expect(rateSnapshotAt(new Date('2025-10-13T12:05:00Z')).id).not.toBe(snapshot.id);
    expect(rateSnapshotById(snapshot.id)).toEqual(snapshot);
    expect(rateSnapshotById('rates-x')).toBeNull();
    expect(rateSnapshotById('Quote:1')).toBeNull();
  });

  it('has a base value for every priced currency, payout-only ones included', () => {
    expect(Object.keys(BASE_USD_VALUE).sort()).toEqual([...PRICED_CURRENCY_CODES].sort());
  });

  it('drifts every floating currency within 0.5% of its base value and never moves USD or stablecoins', () => {
    for (let bucket = 5_800_000; bucket < 5_800_000 + 2_000; bucket += 7) {
      const snapshot = rateSnapshotForBucket(bucket);
      for (const code of PRICED_CURRENCY_CODES) {
        const ratio = Number(snapshot.usdValues[code]) / Number(BASE_USD_VALUE[code]);
        expect(Math.abs(ratio - 1)).toBeLessThanOrEqual(MAX_DRIFT_PPM / 1_000_000 + 1e-12);
        if (code === 'USD' || STABLECOINS.has(code)) expect(snapshot.usdValues[code]).toBe('1');
        expect(Math.abs(driftPpm(code, bucket))).toBeLessThanOrEqual(MAX_DRIFT_PPM);
      }
    }
    // Neighbouring snapshots differ by a small step, not by the whole band.
    const first = rateSnapshotForBucket(5_900_000);
    const next = rateSnapshotForBucket(5_900_001);
    expect(Math.abs(Number(first.usdValues.EUR) / Number(next.usdValues.EUR) - 1)).toBeLessThan(0.003);
  });

  it('quotes every pair as sending units per one receiving unit', () => {
    const snapshot = rateSnapshotAt(at);
    for (const sending of PRICED_CURRENCY_CODES) {
      for (const receiving of PRICED_CURRENCY_CODES) {
        const rate = midMarketRate(snapshot, sending, receiving);
        const expected = divide(parseDecimal(snapshot.usdValues[receiving]), parseDecimal(snapshot.usdValues[sending]));
        expect(rate).toBe(sending === receiving ? '1' : toSignificant(expected, 15));
        expect(Number(rate)).toBeGreaterThan(0);
        // The JSON number a client reads is exactly the decimal used.
        expect(fromNumber(Number(rate))).toEqual(parseDecimal(rate));
        const inverse = Number(midMarketRate(snapshot, receiving, sending));
        expect(Number(rate) * inverse).toBeCloseTo(1, 12);
      }
    }
    expect(midMarketRate(snapshot, 'USD', 'EUR')).toBe(snapshot.usdValues.EUR);
    expect(midMarketRate(snapshot, 'USD', 'USDC')).toBe('1');
    expect(midMarketRate(snapshot, 'USDC', 'BTC')).toBe(snapshot.usdValues.BTC);
  });

  it('applies currency decimals in minor-unit rates', () => {
    // 100000 USD per BTC: 10^7 cents buy 10^8 sats, so 0.1 cent per sat.
    const centPerSat = minorUnitRate(parseDecimal('100000'), 'USD', 'BTC');
    expect(Number(centPerSat.n) / Number(centPerSat.d)).toBeCloseTo(0.1, 15);
    const microPerCent = minorUnitRate(parseDecimal('1'), 'USDC', 'USD');
    expect(Number(microPerCent.n) / Number(microPerCent.d)).toBe(10_000);
    const satPerMicro = minorUnitRate(parseDecimal('0.00001'), 'BTC', 'USDT');
    expect(Number(satPerMicro.n) / Number(satPerMicro.d)).toBeCloseTo(0.001, 15);
  });
});
