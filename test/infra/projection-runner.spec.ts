import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { EventStoreService } from '../../src/infra/event-store/event-store.service';
import { NewEvent, RecordedEvent, positionToString } from '../../src/infra/event-store/event-store.port';
import { PostgresEventStore } from '../../src/infra/event-store/postgres-event-store';
import { logger } from '../../src/infra/logger';
import { CHECKPOINT_DDL, CheckpointRow, readCheckpoints } from '../../src/infra/projections/checkpoints';
import { Projection, Reactor } from '../../src/infra/projections/projection';
import { IN_PROCESS_POLL_INTERVAL_MS, ProjectionRunner } from '../../src/infra/projections/projection-runner';
import { FreshDatabase, freshDatabase } from '../support/database';
import { eventually } from '../support/test-app';

/**
 * The projection runner on a real Postgres: a projection failing on one event stops right before
 * it without holding the others back, loses and repeats nothing, and resumes after a restart;
 * reactors run at least once per event.
 */
describe('ProjectionRunner', () => {
  let database: FreshDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  const runners: ProjectionRunner[] = [];

  let errorLogs: jest.SpyInstance;

  beforeEach(async () => {
    // Failures are expected here; they are asserted, not printed.
    errorLogs = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    database = await freshDatabase('projection runner');
    pool = new Pool({ connectionString: database.url, max: 8 });
    pool.on('error', () => undefined); // The database is dropped right after pool.end().
    await PostgresEventStore.ensureSchema(pool);
    await pool.query(CHECKPOINT_DDL);
    store = new PostgresEventStore(pool);
  });

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    await store.close();
    await pool.end();
    await database.drop();
    errorLogs.mockRestore();
  });

  async function startRunner(
    projections: Projection[],
    reactors: Reactor[] = [],
    batchSize?: number,
    pollIntervalMs = 10,
    events = new EventStoreService(store),
  ): Promise<ProjectionRunner> {
    const runner = new ProjectionRunner(pool, events, projections, reactors, {
      batchSize,
      pollIntervalMs,
      retryDelayMs: 20,
      maxRetryDelayMs: 100,
    });
    runners.push(runner);
    await runner.prepare();
    await runner.start();
    return runner;
  }

  async function stopRunner(runner: ProjectionRunner): Promise<void> {
    await runner.stop();
    runners.splice(runners.indexOf(runner), 1);
  }

  const lineAdded = (kind: string): NewEvent => ({
    id: randomUUID(),
    type: 'LineAdded',
    data: { kind, platformId: 'Platform:spec' },
    metadata: { correlationId: randomUUID(), causationId: randomUUID(), platformId: 'Platform:spec', actor: 'test' },
  });

  /**
   * Appends one event per stream, in order, and answers them as recorded once $all readers see
   * them (transactions of other test files on the same server can hide them for a moment).
   */
  async function appendEvents(kinds: string[]): Promise<RecordedEvent[]> {
    const ids: string[] = [];
    for (const kind of kinds) {
      const event = lineAdded(kind);
      ids.push(event.id);
      await store.appendToStream(`line-${randomUUID()}`, [event], { expectedRevision: 'no_stream' });
    }
    return eventually(async () => {
      const visible = await store.readAll({ limit: 10_000 });
      const appended = visible.filter((event) => ids.includes(event.id));
      return appended.length === ids.length ? appended : null;
    });
  }

  async function checkpoint(name: string): Promise<CheckpointRow> {
    return (await readCheckpoints(pool, [name])).get(name)!;
  }

  async function kindsIn(table: string): Promise<string[]> {
    const result = await pool.query(`SELECT kind FROM ${table} ORDER BY position`);
    return result.rows.map((row) => row.kind);
  }

  /**
   * Inserts one row per event, keyed by event id without ON CONFLICT: applying an event twice
   * fails. `failOn` makes it throw in apply, or write a row its table refuses.
   */
  function lineProjection(name: string, failOn: { kind: string; how: 'throw' | 'write'; healed: boolean } | null): Projection {
    const table = name.replace(/-/g, '_');
    return {
      name,
      version: 1,
      tables: [table],
      schema: (t) => [
        `CREATE TABLE IF NOT EXISTS ${t(table)} (
           event_id uuid PRIMARY KEY, platform_id text NOT NULL, kind text NOT NULL CHECK (kind <> 'refused'),
           position numeric NOT NULL)`,
      ],
      handles: ['LineAdded'],
      async apply(event, tx) {
        const kind = String(event.data.kind);
        const poisoned = failOn !== null && !failOn.healed && kind === failOn.kind;
        if (poisoned && failOn.how === 'throw') throw new Error(`cannot project ${kind}`);
        tx.execute(`INSERT INTO ${tx.table(table)} (event_id, platform_id, kind, position) VALUES ($1, $2, $3, $4)`, [
          event.id,
          event.data.platformId,
          poisoned ? 'refused' : kind,
          event.position.prepare.toString(),
        ]);
      },
    };
  }

  it.each(['throw', 'write'] as const)(
    'stops a projection failing on an event (%s) right before it, lets the others go on, and resumes after a restart',
    async (how) => {
      const failOn = { kind: 'poison', how, healed: false };
      const failing = lineProjection('failing-lines', failOn);
      const healthy = lineProjection('healthy-lines', null);
      const events = await appendEvents(['a', 'b', 'poison', 'c', 'd']);
      const head = events[4].position;
      const runner = await startRunner([failing, healthy]);

      await eventually(async () => (await checkpoint('healthy-lines')).eventsApplied === 5);
      const stuck = await eventually(async () => {
        const row = await checkpoint('failing-lines');
        return row.lastError !== null ? row : null;
      });
      expect(stuck.position).toEqual(events[1].position);
      expect(stuck.eventsApplied).toBe(2);
      expect(stuck.lastError).toContain(events[2].id);
      expect(stuck.lastError).toContain(positionToString(events[2].position));
      expect(stuck.lastErrorAt).toBeInstanceOf(Date);
      expect(await kindsIn('failing_lines')).toEqual(['a', 'b']);
      expect(await kindsIn('healthy_lines')).toEqual(['a', 'b', 'poison', 'c', 'd']);
      expect((await checkpoint('healthy-lines')).position).toEqual(head);

      // Retried several times meanwhile, without applying a, b again (their rows would collide).
      await eventually(async () => (runner.failingProjections()[0]?.attempts ?? 0) >= 3);
      expect(runner.failingProjections()).toEqual([expect.objectContaining({ name: 'failing-lines' })]);
      expect(await kindsIn('failing_lines')).toEqual(['a', 'b']);
      expect((await checkpoint('failing-lines')).lastError).toContain(events[2].id);
      expect(errorLogs).toHaveBeenCalledWith(
        'projection failed on an event; it stops before it and retries',
        expect.objectContaining({ projection: 'failing-lines' }),
      );
      // Read-your-writes does not wait for a failing projection.
      await expect(runner.waitForPosition(head, 5000)).resolves.toBe(true);

      await stopRunner(runner);
      failOn.healed = true;
      const restarted = await startRunner([failing, healthy]);
      await eventually(async () => (await checkpoint('failing-lines')).eventsApplied === 5);
      const recovered = await checkpoint('failing-lines');
      expect(recovered.position).toEqual(head);
      expect(recovered.lastError).toBeNull();
      expect(recovered.lastErrorAt).toBeNull();
      expect(await kindsIn('failing_lines')).toEqual(['a', 'b', 'poison', 'c', 'd']);
      expect((await checkpoint('healthy-lines')).eventsApplied).toBe(5);
      expect(restarted.failingProjections()).toEqual([]);
    },
  );

  it('recovers a failing projection without a restart once its cause is gone, and catches up with the others', async () => {
    const failOn = { kind: 'poison', how: 'throw' as const, healed: false };
    const events = await appendEvents(['a', 'poison', 'b']);
    const runner = await startRunner([lineProjection('failing-lines', failOn), lineProjection('healthy-lines', null)]);
    await eventually(async () => (await checkpoint('failing-lines')).lastError !== null);
    const later = await appendEvents(['c']);
    await eventually(async () => (await checkpoint('healthy-lines')).eventsApplied === 4);
    failOn.healed = true;
    await eventually(async () => (await checkpoint('failing-lines')).eventsApplied === 4);
    expect(await kindsIn('failing_lines')).toEqual(['a', 'poison', 'b', 'c']);
    expect((await checkpoint('failing-lines')).position).toEqual(later[0].position);
    expect(runner.failingProjections()).toEqual([]);
    // And it follows new events with the others again.
    await appendEvents(['d']);
    await eventually(async () => (await checkpoint('failing-lines')).eventsApplied === 5);
    expect(events).toHaveLength(3);
  });

  it('catching up in batches sent back to back, rolls back the batches behind a failing one and pins the failure', async () => {
    const failOn = { kind: 'poison', how: 'write' as const, healed: false };
    const kinds = ['a', 'b', 'c', 'd', 'e', 'f', 'poison', 'g', 'h', 'i', 'j'];
    const events = await appendEvents(kinds);
    const runner = await startRunner([lineProjection('failing-lines', failOn), lineProjection('healthy-lines', null)], [], 2);
    await eventually(async () => (await checkpoint('healthy-lines')).eventsApplied === kinds.length);
    const stuck = await eventually(async () => {
      const row = await checkpoint('failing-lines');
      return row.lastError !== null ? row : null;
    });
    expect(stuck.position).toEqual(events[5].position);
    expect(await kindsIn('failing_lines')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(await kindsIn('healthy_lines')).toEqual(kinds);
    await expect(runner.waitForPosition(events[events.length - 1].position, 5000)).resolves.toBe(true);
    failOn.healed = true;
    await eventually(async () => (await checkpoint('failing-lines')).eventsApplied === kinds.length);
    expect(await kindsIn('failing_lines')).toEqual(kinds);
  });

  it('two projectors on the same projections apply every event exactly once between them', async () => {
    const projections = [lineProjection('first-lines', null), lineProjection('second-lines', null)];
    await startRunner(projections, [], 3);
    await startRunner(projections, [], 3);
    const kinds: string[] = [];
    for (let round = 0; round < 5; round++) {
      const more = Array.from({ length: 7 }, (_, index) => `k${round}-${index}`);
      kinds.push(...more);
      await appendEvents(more);
    }
    for (const name of ['first-lines', 'second-lines']) {
      await eventually(async () => (await checkpoint(name)).eventsApplied === kinds.length);
      expect((await checkpoint(name)).lastError).toBeNull();
    }
    expect(await kindsIn('first_lines')).toEqual(kinds);
    expect(await kindsIn('second_lines')).toEqual(kinds);
  });

  it('delivers every event to a reactor at least once: a failed reaction is retried, nothing before it repeats', async () => {
    const deliveries = new Map<string, number>();
    let failuresLeft = 2;
    const reactor: Reactor = {
      name: 'spec-reactor',
      handles: ['LineAdded'],
      async react(event) {
        deliveries.set(String(event.data.kind), (deliveries.get(String(event.data.kind)) ?? 0) + 1);
        if (event.data.kind === 'flaky' && failuresLeft > 0) {
          failuresLeft--;
          throw new Error('downstream unavailable');
        }
      },
    };
    const events = await appendEvents(['a', 'b', 'flaky', 'c']);
    await startRunner([], [reactor]);
    await eventually(async () => (await checkpoint('spec-reactor')).position.prepare === events[3].position.prepare);
    expect(Object.fromEntries(deliveries)).toEqual({ a: 1, b: 1, flaky: 3, c: 1 });
    const row = await checkpoint('spec-reactor');
    expect(row.eventsApplied).toBe(4);
    expect(row.lastError).toBeNull();
  });

  it('delivers again, after a crash, the events a reactor handled since its last checkpoint', async () => {
    const deliveries: Array<{ runner: number; kind: string }> = [];
    let hang: { reject: (error: Error) => void } | null = null;
    const reactorFor = (runner: number): Reactor => ({
      name: 'spec-reactor',
      handles: ['LineAdded'],
      react(event) {
        deliveries.push({ runner, kind: String(event.data.kind) });
        // The first process "crashes" while reacting to `stall`: its batch is never checkpointed.
        if (runner === 1 && event.data.kind === 'stall') {
          return new Promise((_, reject) => {
            hang = { reject };
          });
        }
        return Promise.resolve();
      },
    });
    const events = await appendEvents(['a', 'b', 'stall']);
    const first = await startRunner([], [reactorFor(1)]);
    await eventually(async () => hang !== null);
    expect((await checkpoint('spec-reactor')).eventsApplied).toBe(0);

    // A second process starts from the last checkpoint: a and b again, then stall, exactly as a
    // restart after a crash would.
    await startRunner([], [reactorFor(2)]);
    await eventually(async () => (await checkpoint('spec-reactor')).position.prepare === events[2].position.prepare);
    expect(deliveries).toEqual([
      { runner: 1, kind: 'a' },
      { runner: 1, kind: 'b' },
      { runner: 1, kind: 'stall' },
      { runner: 2, kind: 'a' },
      { runner: 2, kind: 'b' },
      { runner: 2, kind: 'stall' },
    ]);

    // The stuck first process fails late: its checkpoint write must not drag the reactor back.
    const stopping = stopRunner(first);
    (hang as unknown as { reject: (error: Error) => void }).reject(new Error('crashed'));
    await stopping;
    const row = await checkpoint('spec-reactor');
    expect(row.position).toEqual(events[2].position);
  });

  it('with every appender in its process, polls the log only as a safety net, and still picks up an append made elsewhere', async () => {
    const events = await appendEvents(['a']);
    const reactions: string[] = [];
    const reactor: Reactor = { name: 'spec-reactor', handles: ['LineAdded'], react: async (event) => void reactions.push(String(event.data.kind)) };
    const runner = await startRunner([lineProjection('lines', null)], [reactor], undefined, IN_PROCESS_POLL_INTERVAL_MS);
    await eventually(async () => (await checkpoint('lines')).eventsApplied === 1 && reactions.length === 1);
    expect(runner.progress()).toEqual(events[0].position);

    // Idle for a second: the projector and the reactor loop read the log a few times between
    // them (at the 25 ms default, each loop read it 40 times a second: 6% of a core).
    const reads = jest.spyOn(store, 'readAll');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(reads.mock.calls.length).toBeLessThanOrEqual(2 * Math.ceil(1000 / IN_PROCESS_POLL_INTERVAL_MS) + 2);
    reads.mockRestore();

    // An append that does not go through this runner's EventStoreService (another process, a
    // script) wakes nothing here: the poll finds it.
    const later = await appendEvents(['b']);
    await eventually(async () => (await checkpoint('lines')).eventsApplied === 2 && reactions.length === 2);
    expect(runner.progress()).toEqual(later[0].position);
    expect(await kindsIn('lines')).toEqual(['a', 'b']);
    expect(reactions).toEqual(['a', 'b']);
  });

  /** `lineProjection` into `gated_lines`, whose `apply` of kind 'slow' waits for `gate`. */
  function gatedProjection(state: { gate: Promise<void> | null; projecting: boolean; applied: string[] }): Projection {
    const lines = lineProjection('gated-lines', null);
    return {
      ...lines,
      async apply(event, tx) {
        state.projecting = true;
        if (event.data.kind === 'slow') await state.gate;
        state.applied.push(String(event.data.kind));
        await lines.apply(event, tx);
      },
    };
  }

  // The poll is a minute in the two tests below: what they see read, an append woke.
  const MINUTE_POLL = 60_000;

  it('caught up, reads the log once per in-process append: not again after each batch', async () => {
    const service = new EventStoreService(store);
    const state = { gate: null, projecting: false, applied: [] as string[] };
    const append = async (kind: string) =>
      (await service.append(`line-${randomUUID()}`, [{ type: 'LineAdded', data: { kind, platformId: 'Platform:spec' } }], 'no_stream')).position;
    const runner = await startRunner([gatedProjection(state)], [], undefined, MINUTE_POLL, service);
    await expect(runner.waitForPosition(await append('first'), 5000)).resolves.toBe(true);

    // From the moment a batch is being applied until the next append, the log is not read: the
    // read after the batch would come back empty (it used to be made after every batch).
    const reads = jest.spyOn(store, 'readAll');
    let readsWhileQuiet = 0;
    reads.mockImplementation(function (this: PostgresEventStore, ...args) {
      if (state.projecting) readsWhileQuiet++;
      return PostgresEventStore.prototype.readAll.apply(this, args);
    });
    for (let index = 0; index < 5; index++) {
      state.projecting = false;
      const position = await append(`quiet-${index}`);
      await expect(runner.waitForPosition(position, 5000)).resolves.toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    const readCount = reads.mock.calls.length;
    reads.mockRestore();
    expect(readsWhileQuiet).toBe(0);
    expect(readCount).toBeGreaterThanOrEqual(5);
    expect(state.applied).toEqual(['first', 'quiet-0', 'quiet-1', 'quiet-2', 'quiet-3', 'quiet-4']);
    expect(await kindsIn('gated_lines')).toEqual(state.applied);
  });

  it('reads at once after a batch an append announced elsewhere (NOTIFY) while the batch was applied', async () => {
    const listening = new PostgresEventStore(pool, { notify: true });
    const elsewhere = new PostgresEventStore(pool, { notify: true });
    try {
      const state = { gate: null as Promise<void> | null, projecting: false, applied: [] as string[] };
      let release!: () => void;
      state.gate = new Promise((resolve) => (release = resolve));
      const runner = await startRunner([gatedProjection(state)], [], undefined, MINUTE_POLL, new EventStoreService(listening));
      // The runner's LISTEN connects in the background: an append NOTIFYing before it listens is
      // seen only by the minute poll (the production safety net), so wait until it listens.
      await listening.ensureListener();
      const appendElsewhere = async (kind: string) =>
        (await elsewhere.appendToStream(`line-${randomUUID()}`, [lineAdded(kind)], { expectedRevision: 'no_stream' })).position;

      // The NOTIFY wakes the projector; it holds the batch of 'slow' open.
      await appendElsewhere('slow');
      await eventually(async () => (state.projecting ? true : null), 10_000);
      let heard = 0;
      const stopHearing = listening.onAppendedElsewhere(() => heard++);
      const during = await appendElsewhere('during');
      await eventually(async () => (heard > 0 ? true : null), 10_000);
      stopHearing();
      release();
      // Not in the batch's read, and no position known in this process: only the wake-up heard
      // while the batch was applied says to read again.
      await expect(runner.waitForPosition(during, 5000)).resolves.toBe(true);
      expect(state.applied).toEqual(['slow', 'during']);
      expect(await kindsIn('gated_lines')).toEqual(['slow', 'during']);
    } finally {
      await Promise.all(runners.splice(0).map((runner) => runner.stop()));
      await listening.close();
      await elsewhere.close();
    }
  });
});
