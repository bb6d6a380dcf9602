import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { EsdbEventStore } from '../../src/infra/event-store/esdb-event-store';
import {
  EventStoreContractFactory,
  EventStoreContractHarness,
  runEventStoreContract,
} from '../../src/infra/event-store/event-store.contract';
import { NewEvent, Position, RecordedEvent, START_POSITION, Subscription } from '../../src/infra/event-store/event-store.port';
import { PostgresEventStore, PostgresEventStoreOptions } from '../../src/infra/event-store/postgres-event-store';
import { uuidv7 } from '../../src/infra/ids';

/**
 * Runs the event-store contract against every adapter: Postgres always (TEST_DATABASE_URL, a
 * fresh database per harness), EventStoreDB when EVENTSTORE_CONNECTION_STRING is set. Then the
 * Postgres-only behaviour: schema boot races, the visibility horizon, NOTIFY wake-ups.
 */
const testDatabaseUrl = process.env.TEST_DATABASE_URL;
const esdbConnectionString = process.env.EVENTSTORE_CONNECTION_STRING;

interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseUrl === undefined) {
    throw new Error('TEST_DATABASE_URL is not set: the test harness (or you) must provide a Postgres server');
  }
  const name = `es_contract_${randomBytes(6).toString('hex')}`;
  const admin = new Pool({ connectionString: testDatabaseUrl, max: 1 });
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new Pool({ connectionString: testDatabaseUrl, max: 1 });
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

interface PostgresHarness extends EventStoreContractHarness {
  store: PostgresEventStore;
  pool: Pool;
  database: TestDatabase;
}

async function postgresHarness(options: PostgresEventStoreOptions = {}): Promise<PostgresHarness> {
  const database = await createTestDatabase();
  const pool = new Pool({ connectionString: database.url, max: 24 });
  // pool.end() resolves before its sockets have closed; the DROP DATABASE ... WITH (FORCE) that
  // follows may end them first, which an idle client reports as an error on the pool.
  pool.on('error', () => undefined);
  await PostgresEventStore.ensureSchema(pool);
  const store = new PostgresEventStore(pool, options);
  return {
    store,
    pool,
    database,
    async appendInSlowTransaction(streamName, events, appendOptions, holdMs, outcome) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await store.appendToStreamInTransaction(client, streamName, events, appendOptions);
        await client.query('SELECT pg_sleep($1)', [holdMs / 1000]);
        await client.query(outcome === 'commit' ? 'COMMIT' : 'ROLLBACK');
        return outcome === 'commit' ? result : null;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async dispose() {
      await store.close();
      await pool.end();
      await database.drop();
    },
  };
}

const adapters: Array<[string, EventStoreContractFactory]> = [['postgres', () => postgresHarness()]];
if (esdbConnectionString !== undefined) {
  adapters.push([
    'esdb',
    async () => {
      const store = new EsdbEventStore(esdbConnectionString);
      return { store, dispose: () => store.close() };
    },
  ]);
}

describe.each(adapters)('%s adapter', (name, factory) => {
  runEventStoreContract(name, factory);
});

if (esdbConnectionString === undefined) {
  describe.skip('esdb adapter (set EVENTSTORE_CONNECTION_STRING to run)', () => {
    it('runs the event-store contract', () => undefined);
  });
}

describe('PostgresEventStore specifics', () => {
  let harness: PostgresHarness;

  beforeAll(async () => {
    harness = await postgresHarness({ notify: true, pollIntervalMs: 60_000 });
  }, 30_000);

  afterAll(async () => {
    await harness?.dispose();
  }, 30_000);

  /**
   * The head once every event committed in this database is visible. Transactions of other test
   * files (other databases of the same server) hold the visibility horizon back for a moment, so
   * the previous test's events may still be hidden: a head read then would be stale.
   */
  async function visibleHead(): Promise<Position> {
    await waitUntilAsync(async () => !(await harness.store.hasHiddenEvents()), 10_000);
    return harness.store.headPosition();
  }

  it('creates its schema idempotently when several processes boot at once', async () => {
    const pools = Array.from({ length: 4 }, () => new Pool({ connectionString: harness.database.url, max: 1 }).on('error', () => undefined));
    try {
      await Promise.all(pools.map((pool) => PostgresEventStore.ensureSchema(pool)));
      await PostgresEventStore.ensureSchema(pools[0]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('reports START_POSITION and no events while empty', async () => {
    expect(await harness.store.headPosition()).toEqual(START_POSITION);
    expect(await harness.store.readAll({ limit: 10 })).toEqual([]);
  });

  it("recognises a retried batch under 'any' and 'stream_exists'", async () => {
    const stream = `pgTest-${uuidv7()}`;
    const batch = [event('A'), event('B')];
    const first = await harness.store.appendToStream(stream, batch, { expectedRevision: 'any' });
    expect(await harness.store.appendToStream(stream, batch, { expectedRevision: 'any' })).toEqual(first);
    expect(await harness.store.appendToStream(stream, batch, { expectedRevision: 'stream_exists' })).toEqual(first);
    expect(await harness.store.readStream(stream)).toHaveLength(2);
  });

  it('hides events committed after an older transaction that is still open, then delivers both in order', async () => {
    const head = await visibleHead();
    const olderStream = `pgTest-${uuidv7()}`;
    const youngerStream = `pgTest-${uuidv7()}`;
    const client = await harness.pool.connect();
    try {
      await client.query('BEGIN');
      await harness.store.appendToStreamInTransaction(client, olderStream, [event('Older')], {
        expectedRevision: 'no_stream',
      });
      await harness.store.appendToStream(youngerStream, [event('Younger')], { expectedRevision: 'no_stream' });
      expect(await harness.store.readAll({ from: head, limit: 10 })).toEqual([]);
      expect(await harness.store.headPosition()).toEqual(head);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    // Other sessions of the cluster can hold the horizon back a little longer: wait, then check order.
    let visible: RecordedEvent[] = [];
    await waitUntilAsync(async () => {
      visible = await harness.store.readAll({ from: head, limit: 10 });
      return visible.length >= 2;
    }, 10_000);
    expect(visible.map((recorded) => recorded.type)).toEqual(['Older', 'Younger']);
  });

  it('drops events of a rolled-back transaction', async () => {
    const head = await visibleHead();
    const stream = `pgTest-${uuidv7()}`;
    const client = await harness.pool.connect();
    try {
      await client.query('BEGIN');
      await harness.store.appendToStreamInTransaction(client, stream, [event('Gone')], { expectedRevision: 'no_stream' });
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await harness.store.readStream(stream)).toEqual([]);
    expect(await harness.store.readAll({ from: head, limit: 10 })).toEqual([]);
    await harness.store.appendToStream(stream, [event('Kept')], { expectedRevision: 'no_stream' });
  });

  it('wakes a subscription of another process through NOTIFY, and releases its connection on stop', async () => {
    const otherPool = new Pool({ connectionString: harness.database.url, max: 4 });
    otherPool.on('error', () => undefined);
    const otherStore = new PostgresEventStore(otherPool, { notify: true, pollIntervalMs: 60_000 });
    const head = await visibleHead();
    const subscription = otherStore.subscribeToAll({ from: head });
    const received: RecordedEvent[] = [];
    const consumed = consume(subscription, received);
    try {
      // Let the subscription catch up and park on its 60 s poll: only a NOTIFY can wake it now.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stream = `pgTest-${uuidv7()}`;
      await harness.store.appendToStream(stream, [event('Notified')], { expectedRevision: 'no_stream' });
      // Events of earlier tests may arrive first: the visibility horizon is cluster-wide, so other
      // test files' open transactions can hold them back past the head this test read.
      await waitUntil(() => received.some((recorded) => recorded.streamName === stream), 5_000);
      expect(received.filter((recorded) => recorded.streamName === stream)).toHaveLength(1);
      await subscription.stop();
      await consumed;
      await otherStore.close();
      expect(otherPool.totalCount - otherPool.idleCount).toBe(0);
    } finally {
      await subscription.stop();
      await otherStore.close();
      await otherPool.end();
    }
  });
});

function event(type: string): NewEvent {
  return {
    id: uuidv7(),
    type,
    data: {},
    metadata: { correlationId: uuidv7(), causationId: uuidv7(), platformId: null, actor: 'test' },
  };
}

async function consume(subscription: Subscription, into: RecordedEvent[]): Promise<void> {
  for await (const recorded of subscription) into.push(recorded);
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function waitUntilAsync(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
