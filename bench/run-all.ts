import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * `npm run bench`: the three benchmarks one after the other, each in a process of its own (so
 * one's leftovers never weigh on the next). Each prints its figures and appends them to
 * bench/RESULTS.md.
 */
const BENCHMARKS = ['appends.ts', 'catchup.ts', 'http.ts'];

let failed = 0;
for (const script of BENCHMARKS) {
  process.stderr.write(`\n== bench/${script}\n`);
  const run = spawnSync(process.execPath, [resolve(__dirname, '..', 'scripts', 'run-ts.js'), resolve(__dirname, script)], {
    stdio: 'inherit',
    env: process.env,
  });
  if (run.status !== 0) {
    failed++;
    process.stderr.write(`bench/${script} failed (exit ${run.status ?? run.signal})\n`);
  }
}
process.exit(failed === 0 ? 0 : 1);
