import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { EventStoreService } from '../../src/infra/event-store/event-store.service';
import { Position } from '../../src/infra/event-store/event-store.port';
import { PostgresEventStore } from '../../src/infra/event-store/postgres-event-store';
import { CHECKPOINT_DDL } from '../../src/infra/projections/checkpoints';
import { Projection } from '../../src/infra/projections/projection';
import { ProjectionRunner } from '../../src/infra/projections/projection-runner';
import { ReportedProgress } from '../../src/infra/projections/in-process-read-model-waiter';
import { NotifiedReadModelWaiter } from '../../src/infra/projections/notified-read-model-waiter';
import { createPool } from '../../src/infra/postgres/pool';
import { FreshDatabase, freshDatabase } from '../support/database';

/**
 * Read-your-writes in an api process without a projector (src/infra/projections/notified-read-model-waiter.ts):
 * the projector NOTIFYs in each batch transaction and the waiter wakes on it; without the NOTIFY,
 * the waiter's fallback re-read still answers; nothing projected answers false at the timeout.
 */
describe('NotifiedReadModelWaiter on real Postgres', () => {
  let database: FreshDatabase;
  let projectorPool: Pool;
  let apiPool: Pool;
  let store: PostgresEventStore;
  let events: EventStoreService;
  let runner: ProjectionRunner | null = null;
  let waiter: NotifiedReadModelWaiter | null = null;

  const lines: Projection = {
    name: 'lines',
    version: 1,
    tables: ['lines'],
    schema: (t) => [`CREATE TABLE IF NOT EXISTS ${t('lines')} (event_id uuid PRIMARY KEY)`],
    handles: ['LineAdded'],
    async apply(event, tx) {
      tx.execute(`INSERT INTO ${tx.table('lines')} (event_id) VALUES ($1)`, [event.id]);
    },
  };

  beforeEach(async () => {
    database = await freshDatabase('waiter');
    projectorPool = createPool(database.url, 4);
    apiPool = createPool(database.url, 4);
    await PostgresEventStore.ensureSchema(projectorPool);
    await projectorPool.query(CHECKPOINT_DDL);
    store = new PostgresEventStore(projectorPool);
    events = new EventStoreService(store);
  });

  afterEach(async () => {
    await waiter?.close();
    await runner?.stop();
    waiter = null;
    runner = null;
    await store.close();
    await Promise.all([projectorPool.end(), apiPool.end()]);
    await database.drop();
  });

  async function startProjector(notifyProgress: boolean): Promise<void> {
    // A 60 s poll: the projector wakes on this process's appends, not on its timer.
    runner = new ProjectionRunner(projectorPool, events, [lines], [], { pollIntervalMs: 60_000, notifyProgress });
    await runner.prepare();
    await runner.start();
  }

  /** Appends through the service, whose in-process wake-up the projector follows (its poll is 60 s). */
  async function append(): Promise<{ id: string; position: Position }> {
    const id = randomUUID();
    const appended = await events.append(`line-${id}`, [{ id, type: 'LineAdded', data: {} }], 'no_stream');
    return { id, position: appended.position };
  }

  async function projected(id: string): Promise<boolean> {
    return (await apiPool.query('SELECT 1 FROM lines WHERE event_id = $1', [id])).rowCount === 1;
  }

  it('wakes on the projector NOTIFY, long before its fallback re-read, with the write projected', async () => {
    await startProjector(true);
    waiter = new NotifiedReadModelWaiter(apiPool, 60_000);
    for (let round = 0; round < 3; round++) {
      const started = Date.now();
      const write = await append();
      expect(await waiter.waitFor(write.position, 30_000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await projected(write.id)).toBe(true);
    }
  });

  it('crosses processes both ways on NOTIFYs: the api appends, the projector wakes, the api answers (both polls 60 s)', async () => {
    const projectorStore = new PostgresEventStore(projectorPool, { notify: true });
    const apiStore = new PostgresEventStore(apiPool, { notify: true });
    const apiEvents = new EventStoreService(apiStore);
    runner = new ProjectionRunner(projectorPool, new EventStoreService(projectorStore), [lines], [], { pollIntervalMs: 60_000, notifyProgress: true });
    try {
      await runner.prepare();
      await runner.start();
      waiter = new NotifiedReadModelWaiter(apiPool, 60_000);
      for (let round = 0; round < 3; round++) {
        // A transaction another test file holds open on this server hides later events from every
        // reader of the log for a while; a further append (a further NOTIFY) wakes the projector
        // again once it is gone. Without the NOTIFY path nothing answers before the 60 s polls.
        let reached = false;
        for (let attempt = 0; attempt < 4 && !reached; attempt++) {
          const id = randomUUID();
          const appended = await apiEvents.append(`line-${id}`, [{ id, type: 'LineAdded', data: {} }], 'no_stream');
          reached = await waiter.waitFor(appended.position, 5_000);
          if (reached) expect(await projected(id)).toBe(true);
        }
        expect(reached).toBe(true);
      }
    } finally {
      await runner.stop();
      runner = null;
      await Promise.all([projectorStore.close(), apiStore.close()]);
    }
  }, 90_000);

  it('keeps answering when its LISTEN connection is killed, and listens again', async () => {
    await startProjector(true);
    waiter = new NotifiedReadModelWaiter(apiPool, 50);
    const first = await append();
    expect(await waiter.waitFor(first.position, 30_000)).toBe(true);
    const listening = async () =>
      (await projectorPool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN projections_advanced'`)).rows;
    const [killed] = await listening();
    expect(killed).toBeDefined();
    await projectorPool.query('SELECT pg_terminate_backend($1)', [killed.pid]);
    const second = await append();
    expect(await waiter.waitFor(second.position, 30_000)).toBe(true);
    expect(await projected(second.id)).toBe(true);
    const third = await append();
    expect(await waiter.waitFor(third.position, 30_000)).toBe(true);
    const again = await listening();
    expect(again).toHaveLength(1);
    expect(again[0].pid).not.toBe(killed.pid);
  });

  it('answers from its fallback re-read when no NOTIFY comes', async () => {
    await startProjector(false);
    waiter = new NotifiedReadModelWaiter(apiPool, 50);
    const write = await append();
    expect(await waiter.waitFor(write.position, 30_000)).toBe(true);
    expect(await projected(write.id)).toBe(true);
  });

  it('answers false at the timeout when the projections never get there', async () => {
    await projectorPool.query(
      `INSERT INTO projection_checkpoints (name, kind, version, commit_position, prepare_position) VALUES ('lines', 'projection', 1, 0, 0)`,
    );
    waiter = new NotifiedReadModelWaiter(apiPool, 20);
    const write = await append();
    const started = Date.now();
    expect(await waiter.waitFor(write.position, 300)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('answers at once for a position the projections already hold', async () => {
    await startProjector(true);
    waiter = new NotifiedReadModelWaiter(apiPool, 60_000);
    const first = await append();
    expect(await waiter.waitFor(first.position, 30_000)).toBe(true);
    const started = Date.now();
    expect(await waiter.waitFor(first.position, 30_000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(50);
  });
});

/**
 * Read-your-writes with the projector in this process (src/infra/projections/in-process-read-model-waiter.ts):
 * a wait answers on the first report that covers it, and only then.
 */
describe('ReportedProgress', () => {
  const at = (commit: number): Position => ({ commit: BigInt(commit), prepare: BigInt(commit) });

  it('answers a wait when a report covers its position, not before, and at once once covered', async () => {
    const progress = new ReportedProgress();
    let answered: boolean | null = null;
    const waiting = progress.waitFor(at(5), 5_000).then((reached) => (answered = reached));
    progress.report(at(4));
    await Promise.resolve();
    expect(answered).toBeNull();
    progress.report(at(6));
    await waiting;
    expect(answered).toBe(true);
    expect(progress.current()).toEqual(at(6));
    await expect(progress.waitFor(at(6), 0)).resolves.toBe(true);
  });

  it('waits again after a lower report (a projector starting over from its checkpoints)', async () => {
    const progress = new ReportedProgress();
    progress.report(at(6));
    progress.report(at(3));
    await expect(progress.waitFor(at(5), 20)).resolves.toBe(false);
  });

  it('tells its listeners of every report, and answers false to pending waits when cancelled', async () => {
    const progress = new ReportedProgress();
    const heard: Position[] = [];
    const stop = progress.onReport((position) => heard.push(position));
    const waiting = progress.waitFor(at(9), 5_000);
    progress.report(at(1));
    stop();
    progress.report(at(2));
    progress.cancelWaits();
    await expect(waiting).resolves.toBe(false);
    expect(heard).toEqual([at(1)]);
  });
});
