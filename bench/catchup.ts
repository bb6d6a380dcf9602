import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { ALL_PROJECTIONS } from '../projections';
import { EventStoreService } from '../src/infra/event-store/event-store.service';
import { NewEvent, comparePositions } from '../src/infra/event-store/event-store.port';
import { PostgresEventStore } from '../src/infra/event-store/postgres-event-store';
import { CHECKPOINT_DDL } from '../src/infra/projections/checkpoints';
import { rebuildProjection } from '../src/infra/projections/projection-rebuild';
import { ProjectionRunner } from '../src/infra/projections/projection-runner';
import { CpuMeter, formatRate, microsecondsPer, numberFromEnv, recordResults, startBenchDatabase } from './lib/environment';

/**
 * Projection catch-up: EVENTS platform events (PlatformRegistered for PLATFORMS platforms, then
 * PlatformConfigUpdated spread over them) are appended first; then the real ProjectionRunner with
 * every projection of projections/index.ts starts from scratch, and the time until every
 * projection's checkpoint reaches the head gives events/s. Then `rebuildProjection` of
 * platform-config over the same log (what `npm run projections:rebuild` does).
 * Target (issue 2): at least 10,000 events/s.
 *
 * BENCH_EVENTS (default 100000), BENCH_PLATFORMS (default 1000).
 */
const EVENTS = numberFromEnv('BENCH_EVENTS', 100_000);
const PLATFORMS = numberFromEnv('BENCH_PLATFORMS', 1000);
const EVENTS_PER_APPEND = 50;
const SEED_WRITERS = 8;

function metadata(platformId: string) {
  return { correlationId: randomUUID(), causationId: randomUUID(), platformId, actor: 'platform:client_bench', idempotencyKey: null, requestId: randomUUID() };
}

function registered(platformId: string, index: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'PlatformRegistered',
    data: {
      platformId,
      name: `Bench platform ${index}`,
      config: {
        webhookEndpoint: null,
        supportedCurrencies: [{ currencyCode: 'USD', minAmount: 1, maxAmount: 9_000_000_000_000_000, requiredCounterpartyFields: [] }],
        feeConfigs: [],
        embeddedWalletConfig: { rpId: 'wallet.example.com', allowedOrigins: ['https://wallet.example.com'] },
      },
      registeredAt: new Date(Date.UTC(2025, 0, 1)).toISOString(),
    },
    metadata: metadata(platformId),
  };
}

function updated(platformId: string, sequence: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'PlatformConfigUpdated',
    data: {
      platformId,
      changes: sequence % 3 === 0
        ? { webhookEndpoint: `https://hooks.example.com/${sequence}` }
        : { feeConfigs: [{ currencyCode: 'USD', fixedFee: sequence % 500, variableFeeRate: 0.001 }] },
      updatedAt: new Date(Date.UTC(2025, 0, 1) + sequence * 1000).toISOString(),
    },
    metadata: metadata(platformId),
  };
}

/** Appends the log: each platform's stream gets its registration, then its share of updates. */
async function seed(store: PostgresEventStore): Promise<void> {
  const platformIds = Array.from({ length: PLATFORMS }, () => `Platform:${randomUUID()}`);
  const updatesPerPlatform = Math.ceil((EVENTS - PLATFORMS) / PLATFORMS);
  let next = 0;
  let appended = 0;
  await Promise.all(
    Array.from({ length: SEED_WRITERS }, async () => {
      for (let index = next++; index < PLATFORMS; index = next++) {
        const platformId = platformIds[index];
        const stream = `platform-${platformId.slice('Platform:'.length)}`;
        const events = [registered(platformId, index)];
        for (let update = 0; update < updatesPerPlatform && appended + events.length < EVENTS; update++) {
          events.push(updated(platformId, index * updatesPerPlatform + update));
        }
        let revision: number | 'no_stream' = 'no_stream';
        for (let offset = 0; offset < events.length; offset += EVENTS_PER_APPEND) {
          const chunk = events.slice(offset, offset + EVENTS_PER_APPEND);
          const result = await store.appendToStream(stream, chunk, { expectedRevision: revision });
          revision = result.nextExpectedRevision;
        }
        appended += events.length;
      }
    }),
  );
}

async function main(): Promise<void> {
  const database = await startBenchDatabase('catchup');
  const pool = new Pool({ connectionString: database.url, max: 20 });
  pool.on('error', () => undefined);
  try {
    await PostgresEventStore.ensureSchema(pool);
    await pool.query(CHECKPOINT_DDL);
    const store = new PostgresEventStore(pool);
    process.stderr.write(`seeding ${EVENTS.toLocaleString('en-US')} events...\n`);
    await seed(store);
    await pool.query('VACUUM ANALYZE events');
    const head = await store.headPosition();
    const total = Number((await pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n);

    const runner = new ProjectionRunner(pool, new EventStoreService(store), ALL_PROJECTIONS, []);
    await runner.prepare();
    const catchUpMeter = new CpuMeter([database.postmasterPid]);
    const started = process.hrtime.bigint();
    await runner.start();
    while (comparePositions(runner.progress(), head) < 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const catchUpMs = Number(process.hrtime.bigint() - started) / 1e6;
    const [catchUpNodeMs, catchUpPostgresMs] = catchUpMeter.elapsed();
    await runner.stop();

    const rebuildMeter = new CpuMeter([database.postmasterPid]);
    const rebuildStarted = process.hrtime.bigint();
    const rebuilt = await rebuildProjection(pool, store, ALL_PROJECTIONS.find((projection) => projection.name === 'platform-config')!);
    const rebuildMs = Number(process.hrtime.bigint() - rebuildStarted) / 1e6;
    const [rebuildNodeMs, rebuildPostgresMs] = rebuildMeter.elapsed();

    const catchUpRate = (total * 1000) / catchUpMs;
    const rebuildRate = (total * 1000) / rebuildMs;
    recordResults('Projection catch-up', database.description, [
      `log: ${total.toLocaleString('en-US')} events (${PLATFORMS} PlatformRegistered, the rest PlatformConfigUpdated), projections: ${ALL_PROJECTIONS.map((projection) => projection.name).join(', ')}`,
      `ProjectionRunner from scratch to the head: ${(catchUpMs / 1000).toFixed(2)} s, **${formatRate(catchUpRate)} events/s** (target >= 10,000/s: ${catchUpRate >= 10_000 ? 'met' : 'NOT met'}); CPU per event ${microsecondsPer(catchUpNodeMs, total)} node + ${microsecondsPer(catchUpPostgresMs, total)} Postgres`,
      `rebuildProjection(platform-config) of the same log into fresh tables and swap: ${(rebuildMs / 1000).toFixed(2)} s, **${formatRate(rebuildRate)} events/s** (${rebuilt.eventsApplied.toLocaleString('en-US')} applied); CPU per event ${microsecondsPer(rebuildNodeMs, total)} node + ${microsecondsPer(rebuildPostgresMs, total)} Postgres`,
    ]);
    await store.close();
  } finally {
    await pool.end();
    await database.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
