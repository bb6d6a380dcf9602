import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { NewEvent } from '../src/infra/event-store/event-store.port';
import { PostgresEventStore } from '../src/infra/event-store/postgres-event-store';
import { BenchDatabase, CpuMeter, formatRate, microsecondsPer, numberFromEnv, percentile, recordResults, startBenchDatabase } from './lib/environment';

/**
 * Appends per second with WRITERS concurrent writers, each on its own stream, one event per
 * append with an exact expected revision, through PostgresEventStore; against the same rows
 * inserted by bare `pg` (one INSERT per event, autocommit) into a table with the same columns,
 * keys and indexes as `events`. Short rounds alternate (bare, event store, bare, ...) and the
 * ratio is the median of the per-pair ratios: the 2-core machine is shared, and background load
 * drifts more between minutes than between neighbouring seconds.
 * Target (issue 2): at least 70% of the bare rate and at least 2,000 appends/s.
 *
 * BENCH_DURATION_MS (default 2000) per round, BENCH_ROUNDS (default 8 pairs), BENCH_WRITERS (16).
 */
const WRITERS = numberFromEnv('BENCH_WRITERS', 16);
const ROUND_MS = numberFromEnv('BENCH_DURATION_MS', 2000);
const ROUNDS = numberFromEnv('BENCH_ROUNDS', 8);
const WARMUP_MS = 1500;

const BARE_DDL = `
CREATE TABLE IF NOT EXISTS bare_events (
  global_position bigserial PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id uuid NOT NULL UNIQUE,
  stream_name text NOT NULL,
  stream_revision bigint NOT NULL,
  event_type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_name, stream_revision)
);
CREATE INDEX IF NOT EXISTS bare_events_transaction_position_idx ON bare_events (transaction_id, global_position);`;

const BARE_INSERT = `INSERT INTO bare_events (event_id, stream_name, stream_revision, event_type, data, metadata)
  VALUES ($1, $2, $3, $4, $5, $6)`;

interface RoundResult {
  appends: number;
  elapsedMs: number;
  latenciesMs: number[];
  /** CPU of this process and of the Postgres server (all backends) during the round. */
  nodeCpuMs: number;
  postgresCpuMs: number;
}

let postmasterPid: number | null = null;

/** A realistic event: a few hundred bytes of data and the usual metadata. */
function sampleEvent(writer: number, revision: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'PlatformConfigUpdated',
    data: {
      platformId: `Platform:${writer}`,
      changes: { feeConfigs: [{ currencyCode: 'USD', fixedFee: revision % 500, variableFeeRate: 0.001 }] },
      updatedAt: new Date().toISOString(),
    },
    metadata: {
      correlationId: randomUUID(),
      causationId: randomUUID(),
      platformId: `Platform:${writer}`,
      actor: 'platform:client_bench',
      idempotencyKey: null,
      requestId: randomUUID(),
    },
  };
}

async function runRound(durationMs: number, append: (writer: number, revision: number) => Promise<void>): Promise<RoundResult> {
  const deadline = Date.now() + durationMs;
  const meter = new CpuMeter([postmasterPid]);
  const started = process.hrtime.bigint();
  const latenciesMs: number[] = [];
  let appends = 0;
  const revisions = new Array<number>(WRITERS).fill(0);
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      while (Date.now() < deadline) {
        const before = process.hrtime.bigint();
        await append(writer, revisions[writer]);
        latenciesMs.push(Number(process.hrtime.bigint() - before) / 1e6);
        revisions[writer]++;
        appends++;
      }
    }),
  );
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  const [nodeCpuMs, postgresCpuMs] = meter.elapsed();
  return { appends, elapsedMs, latenciesMs, nodeCpuMs, postgresCpuMs };
}

async function main(): Promise<void> {
  const database: BenchDatabase = await startBenchDatabase('appends');
  postmasterPid = database.postmasterPid;
  const pool = new Pool({ connectionString: database.url, max: WRITERS + 4 });
  pool.on('error', () => undefined);
  try {
    await PostgresEventStore.ensureSchema(pool);
    await pool.query(BARE_DDL);
    const store = new PostgresEventStore(pool);

    let round = 0;
    const eventStoreAppend = () => {
      const streams = Array.from({ length: WRITERS }, () => `bench-${round}-${randomUUID()}`);
      return async (writer: number, revision: number) => {
        await store.appendToStream(streams[writer], [sampleEvent(writer, revision)], {
          expectedRevision: revision === 0 ? 'no_stream' : revision - 1,
        });
      };
    };
    const bareInsert = () => {
      const streams = Array.from({ length: WRITERS }, () => `bare-${round}-${randomUUID()}`);
      return async (writer: number, revision: number) => {
        const event = sampleEvent(writer, revision);
        await pool.query({
          name: 'bare_insert',
          text: BARE_INSERT,
          values: [event.id, streams[writer], revision, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata)],
        });
      };
    };

    process.stderr.write(`warming up (${WARMUP_MS} ms each)...\n`);
    await runRound(WARMUP_MS, bareInsert());
    await runRound(WARMUP_MS, eventStoreAppend());

    const eventStoreRounds: RoundResult[] = [];
    const bareRounds: RoundResult[] = [];
    for (round = 1; round <= ROUNDS; round++) {
      const bare = await runRound(ROUND_MS, bareInsert());
      bareRounds.push(bare);
      const eventStore = await runRound(ROUND_MS, eventStoreAppend());
      eventStoreRounds.push(eventStore);
      process.stderr.write(
        `round ${round}: bare ${formatRate(rate(bare))}/s, event store ${formatRate(rate(eventStore))}/s\n`,
      );
    }

    const eventStoreRate = median(eventStoreRounds.map(rate));
    const bareRate = median(bareRounds.map(rate));
    const ratio = median(eventStoreRounds.map((result, index) => rate(result) / rate(bareRounds[index])));
    const eventStoreLatencies = eventStoreRounds.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
    const bareLatencies = bareRounds.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
    const meets = ratio >= 0.7 && eventStoreRate >= 2000;
    const cpu = (rounds: RoundResult[]) => {
      const appends = rounds.reduce((sum, r) => sum + r.appends, 0);
      const node = rounds.reduce((sum, r) => sum + r.nodeCpuMs, 0);
      const postgres = rounds.reduce((sum, r) => sum + r.postgresCpuMs, 0);
      return { text: `${microsecondsPer(node, appends)} node + ${microsecondsPer(postgres, appends)} Postgres`, total: (node + postgres) / appends };
    };
    const eventStoreCpu = cpu(eventStoreRounds);
    const bareCpu = cpu(bareRounds);
    recordResults('Appends: 16 concurrent writers on distinct streams', database.description, [
      `writers: ${WRITERS}, ${ROUNDS} alternating pairs of ${ROUND_MS} ms rounds (medians shown), one event (~500 bytes) per append`,
      `PostgresEventStore.appendToStream (exact expected revision): **${formatRate(eventStoreRate)} appends/s**, latency p50 ${percentile(eventStoreLatencies, 0.5).toFixed(2)} ms, p99 ${percentile(eventStoreLatencies, 0.99).toFixed(2)} ms`,
      `bare pg INSERT of the same rows (same columns, keys, indexes): **${formatRate(bareRate)} inserts/s**, latency p50 ${percentile(bareLatencies, 0.5).toFixed(2)} ms, p99 ${percentile(bareLatencies, 0.99).toFixed(2)} ms`,
      `ratio event store / bare (median of per-pair ratios): **${(ratio * 100).toFixed(1)}%** (target >= 70% and >= 2,000/s: ${meets ? 'met' : 'NOT met'})`,
      `CPU per append (steadier than rates on a shared machine): event store ${eventStoreCpu.text}, bare ${bareCpu.text}; bare / event store CPU: ${((bareCpu.total / eventStoreCpu.total) * 100).toFixed(1)}%`,
    ]);
    await store.close();
  } finally {
    await pool.end();
    await database.stop();
  }
}

function rate(result: RoundResult): number {
  return (result.appends * 1000) / result.elapsedMs;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
