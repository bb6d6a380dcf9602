/**
 * `npm run bench:bulk [-- <rows>]`: a bulk customer import of 10,000 rows (issue 25 part 1), end to
 * end over HTTP: `POST /customers/bulk/csv`, then `GET /customers/bulk/jobs/{jobId}` every second
 * until COMPLETED (every second, as a client would). Prints the upload's answer time, the job's rows/s and the CPU each process
 * spent per row; appends them to bench/RESULTS.md with the machine and date.
 *
 * Embedded Postgres with durable defaults and a local Redis are started for the run; the service
 * runs in this process with every role (`npm start`'s shape). Rows are individuals (sandbox KYC
 * APPROVED), each with its own platformCustomerId and UMA address, as a platform migrating its
 * customers would send them.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/infra/config';
import { PlatformsService } from '../src/platforms/platforms.service';
import { CpuMeter, formatRate, microsecondsPer, recordResults, startBenchDatabase, startBenchRedis } from './lib/environment';

const ROWS = Number(process.argv[2] ?? process.env.BENCH_ROWS ?? 10_000);
const HEADER = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,email,addressLine1,city,state,postalCode,country';

async function main(): Promise<void> {
  const database = await startBenchDatabase('bulk');
  const redis = await startBenchRedis();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-bulk-data-'));
  const config = loadConfig({ MASTER_KEY: randomBytes(32).toString('hex'), QUEUE_PREFIX: 'bench-bulk', DATA_DIR: dataDir, SERVICE_MODE: 'sandbox' }, { databaseUrl: database.url, redisUrl: redis.url });
  const app = await createApp(config);
  try {
    await app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/2025-10-13`;
    const platform = await app.get(PlatformsService).createPlatform();
    const authorization = `Basic ${Buffer.from(`${platform.clientId}:${platform.clientSecret}`).toString('base64')}`;
    const csv = csvOf(ROWS);

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(csv)], { type: 'text/csv' }), 'customers.csv');
    const started = performance.now();
    const meter = new CpuMeter([database.postmasterPid]);
    const accepted = await fetch(`${baseUrl}/customers/bulk/csv`, { method: 'POST', headers: { authorization }, body: form });
    const answeredMs = performance.now() - started;
    if (accepted.status !== 202) throw new Error(`upload answered ${accepted.status}: ${await accepted.text()}`);
    const { jobId } = (await accepted.json()) as { jobId: string };
    let job: { status: string; progress: { successful: number; failed: number } };
    for (;;) {
      job = (await (await fetch(`${baseUrl}/customers/bulk/jobs/${jobId}`, { headers: { authorization } })).json()) as typeof job;
      if (job.status === 'COMPLETED' || job.status === 'FAILED') break;
      await new Promise((resolve) => setTimeout(resolve, Number(process.env.BENCH_POLL_MS ?? 1000)));
    }
    const seconds = (performance.now() - started) / 1000;
    const [serviceMs, postgresMs] = meter.elapsed();
    recordResults(`Bulk customer import (bench/bulk-import.ts)`, database.description, [
      `rows: ${ROWS} (${(csv.length / 1024 / 1024).toFixed(2)} MB CSV); upload answered 202 in ${answeredMs.toFixed(0)} ms`,
      `job: ${job.status}, ${job.progress.successful} created, ${job.progress.failed} failed, in ${seconds.toFixed(1)} s: ${formatRate(ROWS / seconds)} rows/s`,
      `CPU per row: service ${microsecondsPer(serviceMs, ROWS)}, postgres ${microsecondsPer(postgresMs, ROWS)}`,
    ]);
  } finally {
    await app.close();
    await redis.stop();
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function csvOf(rows: number): Buffer {
  const run = Date.now().toString(36);
  const lines = Array.from({ length: rows }, (_, index) =>
    `$c${index}.${run}@uma.example.com,cust-${run}-${index},INDIVIDUAL,Customer ${index} Person,1985-06-15,c${index}@example.com,${index} Market Street,San Francisco,CA,94105,US`,
  );
  return Buffer.from([HEADER, ...lines].join('\r\n') + '\r\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
