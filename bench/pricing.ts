/**
 * Pricing throughput (pure code, no I/O): SENDING- and RECEIVING-locked quotes over random
 * corridors, and a full `GET /exchange-rates` listing computed cold and warm.
 * Run: `npx ts-node --transpile-only bench/pricing.ts [--record]` (--record appends to RESULTS.md).
 */
import { appendFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { listExchangeRates } from '../src/quotes/pricing/exchange-rate-listing';
import { LockedCurrencySide, priceQuote } from '../src/quotes/pricing/price';
import { DEFAULT_RAIL_BY_CURRENCY } from '../src/quotes/pricing/rails';
import { rateSnapshotAt } from '../src/quotes/pricing/rate-table';
import { CURRENCY_CODES } from '../src/shared/currencies';

const snapshot = rateSnapshotAt(new Date());

function quotesPerSecond(side: LockedCurrencySide, count: number): number {
  const started = process.hrtime.bigint();
  let seed = 1;
  for (let index = 0; index < count; index += 1) {
    seed = (seed * 48271) % 2147483647;
    const sending = CURRENCY_CODES[seed % CURRENCY_CODES.length];
    const receiving = CURRENCY_CODES[(seed >> 4) % CURRENCY_CODES.length];
    try {
      priceQuote({
        snapshot, sendingCurrency: sending, receivingCurrency: receiving, lockedCurrencySide: side, lockedCurrencyAmount: 10_000 + (seed % 10_000_000),
        rail: DEFAULT_RAIL_BY_CURRENCY[receiving], platformFee: { fixedFee: 25, variableFeeRate: 0.002 },
      });
    } catch {
      // Amounts some corridors cannot price are part of the mix.
    }
  }
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

function listingMs(cache: Map<string, never>): number {
  const started = process.hrtime.bigint();
  listExchangeRates({ snapshot, sourceCurrency: null, destinationCurrencies: [], sendingAmount: null, feeConfigs: [], amountLimits: [] }, cache);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

quotesPerSecond('SENDING', 2_000);
const sendingRate = quotesPerSecond('SENDING', 20_000);
const receivingRate = quotesPerSecond('RECEIVING', 5_000);
const cache = new Map<string, never>();
const cold = listingMs(cache);
const warm = listingMs(cache);
const lines = [
  `SENDING-locked quotes: ${Math.round(sendingRate)}/s`,
  `RECEIVING-locked quotes: ${Math.round(receivingRate)}/s`,
  `Full exchange-rate listing (182 corridors): ${cold.toFixed(1)} ms cold, ${warm.toFixed(1)} ms warm`,
];
console.log(lines.join('\n'));
if (process.argv.includes('--record')) {
  const header = `\n## Pricing (bench/pricing.ts), ${new Date().toISOString().slice(0, 10)}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}\n\n`;
  appendFileSync(join(__dirname, 'RESULTS.md'), `${header}${lines.map((line) => `- ${line}`).join('\n')}\n`);
}
