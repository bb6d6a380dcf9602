import { Pool } from 'pg';
import { CommandStore } from '../../src/infra/commands/command-store';
import { streamType } from '../../src/infra/commands/stream-type';
import { Decider } from '../../src/infra/domain/decider';
import { DomainError } from '../../src/infra/domain/domain-error';
import { EventStoreService } from '../../src/infra/event-store/event-store.service';
import { PostgresEventStore } from '../../src/infra/event-store/postgres-event-store';
import { uuidv5, uuidv7 } from '../../src/infra/ids';
import { FreshDatabase, freshDatabase } from '../support/database';

/**
 * The one write path (src/infra/commands) on a real Postgres: re-deciding after a conflict, a
 * refusal decided on a cached state checked against the stream, deterministic event ids, the
 * 409 after the last attempt. Two CommandStores on one database stand for two processes.
 */
type CounterEvent = { type: 'Added'; data: { amount: number; key: string }; id?: string };
type CounterCommand = { type: 'Add'; amount: number; key: string; max: number };

const counter: Decider<CounterCommand, { total: number; keys: string[] }, CounterEvent> = {
  initialState: () => ({ total: 0, keys: [] }),
  evolve: (state, event) => ({ total: state.total + event.data.amount, keys: [...state.keys, event.data.key] }),
  decide: (command, state) => {
    if (state.keys.includes(command.key)) return [];
    if (state.total + command.amount > command.max) throw new DomainError('INVALID_INPUT', 'over the maximum');
    return [{ type: 'Added', data: { amount: command.amount, key: command.key } }];
  },
};

const PLAIN = streamType({ name: 'counter', decider: counter, maxAttempts: 3 });
const CACHED = streamType({ name: 'cached counter', decider: counter, cacheSize: 10, serialize: true, eventId: (stream, event) => uuidv5(`${stream}:${event.data.key}`) });

describe('CommandStore', () => {
  let database: FreshDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  let events: EventStoreService;

  beforeAll(async () => {
    database = await freshDatabase('command store');
    pool = new Pool({ connectionString: database.url, max: 8 });
    pool.on('error', () => undefined); // The database is dropped right after pool.end().
    await PostgresEventStore.ensureSchema(pool);
    store = new PostgresEventStore(pool);
    events = new EventStoreService(store);
  });

  afterAll(async () => {
    await store.close();
    await pool.end();
    await database.drop();
  });

  const newStream = () => `counter-${uuidv7()}`;

  it('appends at the revision decided on and answers the new state', async () => {
    const commands = new CommandStore(events);
    const stream = newStream();
    const first = await commands.handle(PLAIN, stream, { type: 'Add', amount: 2, key: 'a', max: 10 });
    const second = await commands.handle(PLAIN, stream, { type: 'Add', amount: 3, key: 'b', max: 10 });
    expect(first).toMatchObject({ state: { total: 2 }, revision: 0 });
    expect(second).toMatchObject({ state: { total: 5, keys: ['a', 'b'] }, revision: 1 });
    expect((await store.readStream(stream)).map((event) => event.data)).toEqual([{ amount: 2, key: 'a' }, { amount: 3, key: 'b' }]);
  });

  it('re-decides concurrent commands on the fresh state: every one lands once, none past the maximum', async () => {
    const commands = new CommandStore(events);
    const stream = newStream();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) => commands.handle(streamType({ ...PLAIN, maxAttempts: 10 }), stream, { type: 'Add', amount: 1, key: `k${index}`, max: 4 })),
    );
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => ((outcome as PromiseRejectedResult).reason as DomainError).code);
    expect(refused).toEqual(['INVALID_INPUT', 'INVALID_INPUT']);
    expect((await commands.load(PLAIN, stream)).state.total).toBe(4);
  });

  it('answers 409 CONFLICT once the attempts are used up', async () => {
    const commands = new CommandStore(events);
    const stream = newStream();
    await commands.handle(PLAIN, stream, { type: 'Add', amount: 1, key: 'seed', max: 100 });
    // Another writer moves the stream between every read and append of this command.
    let writes = 0;
    const command = () => {
      void store.appendToStream(stream, [{ id: uuidv7(), type: 'Added', data: { amount: 0, key: `other${writes++}` }, metadata: { correlationId: 'c', causationId: 'c', platformId: null, actor: 'test' } }], { expectedRevision: 'any' });
      return { type: 'Add' as const, amount: 1, key: 'mine', max: 100 };
    };
    const slowAppend = events.append.bind(events);
    events.append = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return slowAppend(...args);
    };
    try {
      await expect(commands.handle(PLAIN, stream, command)).rejects.toMatchObject({ code: 'CONFLICT' });
    } finally {
      events.append = slowAppend;
    }
    expect(writes).toBe(3);
  });

  it('checks a refusal decided on a cached state against the stream', async () => {
    const mine = new CommandStore(events);
    const theirs = new CommandStore(events);
    const stream = newStream();
    await mine.handle(CACHED, stream, { type: 'Add', amount: 5, key: 'a', max: 5 });
    // Another process's write makes room that this process's cache does not know of.
    await theirs.handle(CACHED, stream, { type: 'Add', amount: -5, key: 'b', max: 5 });
    const handled = await mine.handle(CACHED, stream, { type: 'Add', amount: 4, key: 'c', max: 5 });
    expect(handled.state).toEqual({ total: 4, keys: ['a', 'b', 'c'] });
  });

  it('stores a step appended twice once (deterministic ids), also from two processes', async () => {
    const stream = newStream();
    await new CommandStore(events).handle(CACHED, stream, { type: 'Add', amount: 1, key: 'once', max: 5 });
    const again = await new CommandStore(events).handle(CACHED, stream, { type: 'Add', amount: 1, key: 'once', max: 5 });
    expect(again.events).toEqual([]);
    expect((await store.readStream(stream)).map((event) => event.id)).toEqual([uuidv5(`${stream}:once`)]);
  });
});
