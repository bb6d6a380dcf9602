/**
 * The contract every EventStore adapter must honour, run against each adapter by
 * test/contract/event-store.contract-spec.ts. Tests share one store per adapter and never assume
 * an empty log: each test writes to fresh streams and reads $all from the head it saw first.
 */
import { uuidv7 } from '../../src/infra/ids';
import {
  AppendOptions,
  AppendResult,
  ConcurrencyError,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
  Position,
  RecordedEvent,
  START_POSITION,
  Subscription,
  comparePositions,
  positionToString,
} from '../../src/infra/event-store/event-store.port';

export interface EventStoreContractHarness {
  store: EventStore;
  /**
   * Optional: appends inside a transaction held open `holdMs` before it commits or rolls back,
   * so commits interleave out of start order (Postgres). Resolves to null when rolled back.
   */
  appendInSlowTransaction?(
    streamName: string,
    events: NewEvent[],
    options: AppendOptions,
    holdMs: number,
    outcome: 'commit' | 'rollback',
  ): Promise<AppendResult | null>;
  dispose(): Promise<void>;
}

export type EventStoreContractFactory = () => Promise<EventStoreContractHarness>;

const VISIBILITY_TIMEOUT_MS = 10_000;
const HARD_TEST_WRITERS = 16;
const HARD_TEST_STREAMS = 100;
const HARD_TEST_TARGET_EVENTS = 4_000;
const HARD_TEST_MAX_BATCH = 8;

export function runEventStoreContract(name: string, factory: EventStoreContractFactory): void {
  describe(`EventStore contract (${name})`, () => {
    let harness: EventStoreContractHarness;
    let store: EventStore;

    beforeAll(async () => {
      harness = await factory();
      store = harness.store;
    }, 60_000);

    afterAll(async () => {
      await harness?.dispose();
    }, 60_000);

    it('appends to a new stream with no_stream and reads it back in order', async () => {
      const stream = newStreamName();
      const events = [newEvent('Opened', { n: 0 }), newEvent('Credited', { n: 1 }), newEvent('Debited', { n: 2 })];

      const result = await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });

      expect(result.nextExpectedRevision).toBe(2);
      const read = await store.readStream(stream);
      expect(read.map((event) => [event.id, event.type, event.revision, event.streamName])).toEqual(
        events.map((event, index) => [event.id, event.type, index, stream]),
      );
      expect(read.map((event) => event.data)).toEqual(events.map((event) => event.data));
      expectStrictlyIncreasing(read.map((event) => event.position));
      expect(positionToString(read[2].position)).toBe(positionToString(result.position));
      for (const event of read) expect(event.createdAt).toBeInstanceOf(Date);
      expect(describeEvents(await store.readStream(newStreamName()))).toEqual([]);
    });

    it('rejects a wrong expected revision with ConcurrencyError for every kind of expectation', async () => {
      const stream = newStreamName();
      const missing = newStreamName();
      await store.appendToStream(stream, [newEvent('A'), newEvent('B')], { expectedRevision: 'no_stream' });

      await expectConcurrencyError(store, stream, 'no_stream', 1);
      await expectConcurrencyError(store, stream, 0, 1);
      await expectConcurrencyError(store, stream, 5, 1);
      await expectConcurrencyError(store, missing, 'stream_exists', 'no_stream');
      await expectConcurrencyError(store, missing, 0, 'no_stream');
      expect(await store.readStream(stream)).toHaveLength(2);
      expect(describeEvents(await store.readStream(missing))).toEqual([]);

      const exact = await store.appendToStream(stream, [newEvent('C')], { expectedRevision: 1 });
      expect(exact.nextExpectedRevision).toBe(2);
      const exists = await store.appendToStream(stream, [newEvent('D')], { expectedRevision: 'stream_exists' });
      expect(exists.nextExpectedRevision).toBe(3);
      const any = await store.appendToStream(stream, [newEvent('E'), newEvent('F')], { expectedRevision: 'any' });
      expect(any.nextExpectedRevision).toBe(5);
      const anyOnMissing = await store.appendToStream(missing, [newEvent('G')], { expectedRevision: 'any' });
      expect(anyOnMissing.nextExpectedRevision).toBe(0);
      expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    });

    it('reads a stream from a revision with a maximum count', async () => {
      const stream = newStreamName();
      await store.appendToStream(stream, range(0, 4).map((n) => newEvent('N', { n })), { expectedRevision: 'no_stream' });
      await store.appendToStream(stream, range(4, 7).map((n) => newEvent('N', { n })), { expectedRevision: 3 });
      // Past revision 9, so an ordering by the revision's text ('10' < '2') would show.
      await store.appendToStream(stream, range(7, 13).map((n) => newEvent('N', { n })), { expectedRevision: 6 });

      const revisionsOf = (events: RecordedEvent[]) => events.map((event) => [event.revision, event.data.n]);
      expect(revisionsOf(await store.readStream(stream))).toEqual(range(0, 13).map((n) => [n, n]));
      expect(revisionsOf(await store.readStream(stream, { fromRevision: 3, maxCount: 4 }))).toEqual(
        range(3, 7).map((n) => [n, n]),
      );
      expect(revisionsOf(await store.readStream(stream, { fromRevision: 8 }))).toEqual(range(8, 13).map((n) => [n, n]));
      expect(revisionsOf(await store.readStream(stream, { maxCount: 2 }))).toEqual([
        [0, 0],
        [1, 1],
      ]);
      expect(describeEvents(await store.readStream(stream, { fromRevision: 13 }))).toEqual([]);
    });

    it('round-trips data and metadata exactly', async () => {
      const stream = newStreamName();
      const metadata: EventMetadata = {
        correlationId: uuidv7(),
        causationId: uuidv7(),
        platformId: 'Platform:0195f0a4-3a0e-7c41-9a53-3c1f0d3b8a11',
        actor: 'customer:Customer:0195f0a4-3a0e-7c41-9a53-3c1f0d3b8a12',
        idempotencyKey: 'idem-key-42',
        requestId: 'Request:0195f0a4-3a0e-7c41-9a53-3c1f0d3b8a13',
        extra: { nested: [1, 'two', null, true] },
      };
      const withNulls: EventMetadata = {
        correlationId: uuidv7(),
        causationId: uuidv7(),
        platformId: null,
        actor: 'system',
        idempotencyKey: null,
        requestId: null,
      };
      const data = {
        amountMinor: 123_456_789_012,
        currency: 'EUR',
        note: 'üñí©ødé "quoted" \\ back\nslash',
        flags: [true, false],
        nested: { emptyObject: {}, emptyArray: [], zero: 0, negative: -1.5 },
      };
      await store.appendToStream(
        stream,
        [
          { id: uuidv7(), type: 'Rich', data, metadata },
          { id: uuidv7(), type: 'Nulls', data: {}, metadata: withNulls },
        ],
        { expectedRevision: 'no_stream' },
      );

      const [rich, nulls] = await store.readStream(stream);
      expect(rich.data).toStrictEqual(data);
      expect(rich.metadata).toStrictEqual(metadata);
      expect(nulls.data).toStrictEqual({});
      expect(nulls.metadata).toStrictEqual(withNulls);
    });

    it('answers a retried append with the same event ids like the first time, writing nothing', async () => {
      const stream = newStreamName();
      const first = [newEvent('A'), newEvent('B')];
      const second = [newEvent('C')];
      const original = await store.appendToStream(stream, first, { expectedRevision: 'no_stream' });
      const next = await store.appendToStream(stream, second, { expectedRevision: 1 });
      await waitForHeadAtLeast(store, next.position);
      const headBefore = await store.headPosition();

      expect(describeAppend(await store.appendToStream(stream, first, { expectedRevision: 'no_stream' }))).toBe(describeAppend(original));
      expect(describeAppend(await store.appendToStream(stream, second, { expectedRevision: 1 }))).toBe(describeAppend(next));
      expect(describeAppend(await store.appendToStream(stream, first, { expectedRevision: 'no_stream' }))).toBe(describeAppend(original));

      await expect(
        store.appendToStream(stream, [first[0], newEvent('X')], { expectedRevision: 'no_stream' }).then(describeAppend),
      ).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(
        store.appendToStream(stream, [first[1], first[0]], { expectedRevision: 'no_stream' }).then(describeAppend),
      ).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(store.appendToStream(stream, first, { expectedRevision: 0 }).then(describeAppend)).rejects.toBeInstanceOf(
        ConcurrencyError,
      );

      expect((await store.readStream(stream)).map((event) => event.id)).toEqual([...first, ...second].map((e) => e.id));
      expect(positionToString(await store.headPosition())).toBe(positionToString(headBefore));
      expect(describeEvents(await store.readAll({ from: headBefore, limit: 10 }))).toEqual([]);
    });

    it('counts the events after a position, up to a maximum', async () => {
      const before = await store.headPosition();
      const stream = newStreamName();
      const appended = await appendAndReturn(store, stream, range(0, 5).map((n) => newEvent('Counted', { n })), 'no_stream');
      await waitForHeadAtLeast(store, appended[4].position);
      expect(await store.countEventsAfter(before, 100)).toBeGreaterThanOrEqual(5);
      expect(await store.countEventsAfter(appended[1].position, 100)).toBe(3);
      expect(await store.countEventsAfter(appended[1].position, 2)).toBe(2);
      expect(await store.countEventsAfter(appended[4].position, 100)).toBe(0);
    });

    it('lets exactly one of several writers racing on the same expected revision win', async () => {
      const stream = newStreamName();
      await store.appendToStream(stream, [newEvent('Opened')], { expectedRevision: 'no_stream' });
      const racers = range(0, 8).map((n) => [newEvent('Raced', { n }), newEvent('Raced', { n })]);
      const outcomes = await Promise.allSettled(
        racers.map((events) => store.appendToStream(stream, events, { expectedRevision: 0 })),
      );
      const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect(winners.map((winner) => describeAppend(winner.value))).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') {
          expect(outcome.reason).toBeInstanceOf(ConcurrencyError);
          expect((outcome.reason as ConcurrencyError).actual).toBe(2);
        }
      }
      const read = await store.readStream(stream);
      expect(read.map((event) => event.revision)).toEqual([0, 1, 2]);
      expect(new Set(read.slice(1).map((event) => event.data.n)).size).toBe(1);

      const missing = newStreamName();
      const creators = await Promise.allSettled(
        range(0, 6).map(() => store.appendToStream(missing, [newEvent('Created')], { expectedRevision: 'no_stream' })),
      );
      expect(creators.filter((outcome) => outcome.status === 'fulfilled').map((outcome) => describeAppend(outcome.value))).toHaveLength(1);
      const created = await store.readStream(missing);
      expect(describeEvents(created)).toHaveLength(1);
      // Later tests read $all from the head they see first: let these events become visible.
      await waitForHeadAtLeast(store, created[0].position);
    });

    it("appends every racing 'any' batch, at consecutive revisions", async () => {
      const stream = newStreamName();
      const batches = range(0, 8).map((n) => [newEvent('Any', { n }), newEvent('Any', { n })]);
      const results = await Promise.all(batches.map((events) => store.appendToStream(stream, events, { expectedRevision: 'any' })));
      expect(results.map((result) => result.nextExpectedRevision).sort((a, b) => a - b)).toEqual(range(0, 8).map((n) => 2 * n + 1));
      const read = await store.readStream(stream);
      expect(read.map((event) => event.revision)).toEqual(range(0, 16));
      // Each batch stays contiguous.
      for (let index = 0; index < read.length; index += 2) expect(read[index].data.n).toBe(read[index + 1].data.n);
      const highest = read.map((event) => event.position).reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b));
      await waitForHeadAtLeast(store, highest);
    });

    it('reads $all strictly after a position, in order, and reports the head position', async () => {
      const before = await store.headPosition();
      const streamA = newStreamName();
      const streamB = newStreamName();
      const appended = [
        ...(await appendAndReturn(store, streamA, [newEvent('A0'), newEvent('A1')], 'no_stream')),
        ...(await appendAndReturn(store, streamB, [newEvent('B0')], 'no_stream')),
        ...(await appendAndReturn(store, streamA, [newEvent('A2'), newEvent('A3')], 1)),
      ];
      const lastAppend = appended[appended.length - 1].position;
      await waitForHeadAtLeast(store, lastAppend);

      expect(positionToString(await store.headPosition())).toBe(positionToString(lastAppend));
      const all = await store.readAll({ from: before, limit: 100 });
      expect(all.map((event) => event.id)).toEqual(appended.map((event) => event.id));
      expect(all.map((event) => positionToString(event.position))).toEqual(appended.map((event) => positionToString(event.position)));
      expectStrictlyIncreasing(all.map((event) => event.position));
      expect(all.map((event) => [event.streamName, event.revision])).toEqual([
        [streamA, 0],
        [streamA, 1],
        [streamB, 0],
        [streamA, 2],
        [streamA, 3],
      ]);

      expect(idsOf(await store.readAll({ from: all[1].position, limit: 2 }))).toEqual(idsOf(all.slice(2, 4)));
      expect(idsOf(await store.readAll({ from: before, limit: 1 }))).toEqual(idsOf(all.slice(0, 1)));
      expect(describeEvents(await store.readAll({ from: lastAppend, limit: 10 }))).toEqual([]);
      const fromStart = await store.readAll({ limit: 1 });
      expect(fromStart).toHaveLength(1);
      expect(describeEvents(await store.readAll({ from: START_POSITION, limit: 1 }))).toEqual(describeEvents(fromStart));
    });

    it('subscribes to $all from the start and keeps delivering new events until stopped', async () => {
      const stream = newStreamName();
      const early = await appendAndReturn(store, stream, [newEvent('Early0'), newEvent('Early1')], 'no_stream');
      await waitForHeadAtLeast(store, early[1].position);
      const [firstInLog] = await store.readAll({ limit: 1 });
      const collector = collect(store.subscribeToAll());

      await collector.waitFor((events) => containsIds(events, idsOf(early)));
      const late = await appendAndReturn(store, stream, [newEvent('Late0'), newEvent('Late1')], 1);
      await collector.waitFor((events) => containsIds(events, idsOf(late)));
      await collector.stop();

      expect(collector.events[0].id).toBe(firstInLog.id);
      expectStrictlyIncreasing(collector.events.map((event) => event.position));
      expect(collector.events.filter((event) => event.streamName === stream).map((event) => event.type)).toEqual([
        'Early0',
        'Early1',
        'Late0',
        'Late1',
      ]);
    });

    it('subscribes to $all from a middle position, exclusively, and ends promptly on stop', async () => {
      const stream = newStreamName();
      const appended = await appendAndReturn(store, stream, range(0, 5).map((n) => newEvent('N', { n })), 'no_stream');
      await waitForHeadAtLeast(store, appended[4].position);
      const collector = collect(store.subscribeToAll({ from: appended[1].position }));

      await collector.waitFor((events) => events.length >= 3);
      expect(idsOf(collector.events.slice(0, 3))).toEqual(idsOf(appended.slice(2)));
      const more = await appendAndReturn(store, stream, [newEvent('N', { n: 5 })], 4);
      await collector.waitFor((events) => containsIds(events, idsOf(more)));
      expect(idsOf(collector.events)).toEqual(idsOf([...appended.slice(2), ...more]));

      // The consumer is now waiting for the next event: stop must end its loop.
      await collector.stop();
      await expect(collector.finished).resolves.toBeUndefined();
    });

    it(
      'delivers every event exactly once, in position order, to a subscriber running during concurrent appends',
      async () => {
        const random = seededRandom(0x5eed);
        const streams = range(0, HARD_TEST_STREAMS).map(() => newStreamName());
        const streamSet = new Set(streams);
        const knownRevision = new Map<string, ExpectedRevision>(streams.map((stream) => [stream, 'no_stream']));
        const committed = new Map<string, { streamName: string; revision: number }>();
        const rolledBack = new Set<string>();
        const counters = { appendedEvents: 0, conflicts: 0, slowTransactions: 0 };
        const head = await store.headPosition();
        const collector = collect(store.subscribeToAll({ from: head }));

        const writer = async (): Promise<void> => {
          while (counters.appendedEvents < HARD_TEST_TARGET_EVENTS) {
            const streamName = streams[Math.floor(random() * streams.length)];
            const expectedRevision = knownRevision.get(streamName) ?? 'no_stream';
            const batchSize = 1 + Math.floor(random() * HARD_TEST_MAX_BATCH);
            const events = range(0, batchSize).map((index) => newEvent('Tick', { index, batchSize }));
            const slow = harness.appendInSlowTransaction !== undefined && random() < 0.05;
            const rollback = slow && random() < 0.25;
            try {
              let result: AppendResult | null;
              if (slow) {
                counters.slowTransactions += 1;
                const holdMs = 20 + Math.floor(random() * 130);
                result = await harness.appendInSlowTransaction!(
                  streamName,
                  events,
                  { expectedRevision },
                  holdMs,
                  rollback ? 'rollback' : 'commit',
                );
              } else {
                result = await store.appendToStream(streamName, events, { expectedRevision });
              }
              if (result === null) {
                for (const event of events) rolledBack.add(event.id);
                continue;
              }
              const firstRevision = result.nextExpectedRevision - events.length + 1;
              events.forEach((event, index) =>
                committed.set(event.id, { streamName, revision: firstRevision + index }),
              );
              counters.appendedEvents += events.length;
              advanceKnownRevision(knownRevision, streamName, result.nextExpectedRevision);
            } catch (error) {
              if (!(error instanceof ConcurrencyError)) throw error;
              counters.conflicts += 1;
              knownRevision.set(streamName, error.actual);
            }
          }
        };

        try {
          await Promise.all(range(0, HARD_TEST_WRITERS).map(() => writer()));
          // A sentinel appended after every writer finished: once it arrives, everything before it has too.
          const [sentinel] = await appendAndReturn(store, newStreamName(), [newEvent('Sentinel')], 'no_stream');
          await collector.waitFor((events) => events.some((event) => event.id === sentinel.id), 20_000);
        } finally {
          await collector.stop();
        }

        const received = collector.events.filter((event) => streamSet.has(event.streamName));
        const receivedIds = received.map((event) => event.id);
        expect(new Set(receivedIds).size).toBe(receivedIds.length);
        expect(receivedIds.filter((id) => !committed.has(id))).toEqual([]);
        const receivedIdSet = new Set(receivedIds);
        expect([...committed.keys()].filter((id) => !receivedIdSet.has(id))).toEqual([]);
        expect(receivedIds.filter((id) => rolledBack.has(id))).toEqual([]);
        expect(firstOutOfOrder(collector.events.map((event) => event.position))).toBeNull();

        const nextRevision = new Map<string, number>();
        const revisionErrors: string[] = [];
        for (const event of received) {
          const expected = nextRevision.get(event.streamName) ?? 0;
          if (event.revision !== expected || committed.get(event.id)?.revision !== event.revision) {
            revisionErrors.push(`${event.streamName}@${event.revision} (expected ${expected})`);
          }
          nextRevision.set(event.streamName, event.revision + 1);
        }
        expect(revisionErrors).toEqual([]);

        const replayed = await readAllAfter(store, head);
        expect(replayed.filter((event) => streamSet.has(event.streamName)).map((event) => event.id)).toEqual(receivedIds);
        const streamLengths = await Promise.all(streams.map(async (stream) => (await store.readStream(stream)).length));
        expect(streamLengths.reduce((sum, length) => sum + length, 0)).toBe(committed.size);
        expect(committed.size).toBeGreaterThanOrEqual(HARD_TEST_TARGET_EVENTS);
      },
      60_000,
    );
  });
}

function newStreamName(): string {
  return `contractTest-${uuidv7()}`;
}

function newEvent(type: string, data: Record<string, unknown> = {}): NewEvent {
  return {
    id: uuidv7(),
    type,
    data,
    metadata: { correlationId: uuidv7(), causationId: uuidv7(), platformId: null, actor: 'contract-test' },
  };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, index) => from + index);
}

function idsOf(events: Array<{ id: string }>): string[] {
  return events.map((event) => event.id);
}

function containsIds(events: RecordedEvent[], ids: string[]): boolean {
  const seen = new Set(idsOf(events));
  return ids.every((id) => seen.has(id));
}

function advanceKnownRevision(known: Map<string, ExpectedRevision>, stream: string, revision: number): void {
  const current = known.get(stream);
  if (typeof current !== 'number' || current < revision) known.set(stream, revision);
}

/** Appends and returns the events as stored, with their positions. */
async function appendAndReturn(
  store: EventStore,
  stream: string,
  events: NewEvent[],
  expectedRevision: ExpectedRevision,
): Promise<RecordedEvent[]> {
  const result = await store.appendToStream(stream, events, { expectedRevision });
  const fromRevision = result.nextExpectedRevision - events.length + 1;
  return store.readStream(stream, { fromRevision, maxCount: events.length });
}

async function expectConcurrencyError(
  store: EventStore,
  stream: string,
  expectedRevision: ExpectedRevision,
  actual: number | 'no_stream',
): Promise<void> {
  const attempt = store.appendToStream(stream, [newEvent('Rejected')], { expectedRevision });
  await expect(attempt.then(describeAppend)).rejects.toBeInstanceOf(ConcurrencyError);
  await attempt.catch((error: ConcurrencyError) => {
    expect([error.streamName, error.expected, error.actual]).toEqual([stream, expectedRevision, actual]);
  });
}

/** $all readers may lag appends (an unrelated open transaction holds the horizon back): wait. */
async function waitForHeadAtLeast(store: EventStore, position: Position): Promise<void> {
  const deadline = Date.now() + VISIBILITY_TIMEOUT_MS;
  while (comparePositions(await store.headPosition(), position) < 0) {
    if (Date.now() > deadline) throw new Error(`head never reached ${positionToString(position)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function readAllAfter(store: EventStore, from: Position): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  let position = from;
  for (;;) {
    const batch = await store.readAll({ from: position, limit: 1000 });
    events.push(...batch);
    if (batch.length < 1000) return events;
    position = batch[batch.length - 1].position;
  }
}

/**
 * Events compared as text (positions through positionToString): a failed expectation holding a
 * BigInt cannot be sent from a jest worker to its parent, and the file then fails without saying
 * which test did.
 */
/** An append's answer as text: jest cannot report a failed comparison of bigint positions from a worker. */
function describeAppend(result: AppendResult): string {
  return `revision ${result.nextExpectedRevision} at ${positionToString(result.position)}`;
}

/** Events as text (bigint positions included), for comparisons jest can report from a worker. */
function describeEvents(events: RecordedEvent[]): string[] {
  return events.map(
    (event) =>
      `${positionToString(event.position)} ${event.streamName}@${event.revision} ${event.type} ${event.id} ` +
      `${JSON.stringify(event.data)} ${JSON.stringify(event.metadata)} ${event.createdAt.toISOString()}`,
  );
}

function expectStrictlyIncreasing(positions: Position[]): void {
  expect(firstOutOfOrder(positions)).toBeNull();
}

function firstOutOfOrder(positions: Position[]): string | null {
  for (let index = 1; index < positions.length; index += 1) {
    if (comparePositions(positions[index - 1], positions[index]) >= 0) {
      return `#${index}: ${positionToString(positions[index - 1])} then ${positionToString(positions[index])}`;
    }
  }
  return null;
}

interface Collector {
  events: RecordedEvent[];
  finished: Promise<void>;
  waitFor(predicate: (events: RecordedEvent[]) => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Consumes a subscription in the background, like a projection would. */
function collect(subscription: Subscription): Collector {
  const events: RecordedEvent[] = [];
  let failure: unknown = null;
  const finished = (async () => {
    for await (const event of subscription) events.push(event);
  })().catch((error: unknown) => {
    failure = error;
  });
  return {
    events,
    finished,
    async waitFor(predicate, timeoutMs = VISIBILITY_TIMEOUT_MS) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(events)) {
        if (failure !== null) throw failure;
        if (Date.now() > deadline) throw new Error(`subscription did not deliver in time (${events.length} events)`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async stop() {
      await subscription.stop();
      await finished;
      if (failure !== null) throw failure;
    },
  };
}

/** Deterministic PRNG (mulberry32) so a failing interleaving is easier to reproduce. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
