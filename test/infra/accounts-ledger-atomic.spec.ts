import { AccountsLedger, CompanionAppend } from '../../src/accounts/ledger/accounts-ledger';
import { EventStore } from '../../src/infra/event-store/event-store.port';
import { CommandStore } from '../../src/infra/commands/command-store';
import { EventStoreService } from '../../src/infra/event-store/event-store.service';
import { PostgresEventStore } from '../../src/infra/event-store/postgres-event-store';
import { newId, streamNameFor } from '../../src/infra/ids';
import { ledgerOnPostgres } from '../support/ledger-on-postgres';

/**
 * AccountsLedger's atomic steps (`holdWith`, `settleHoldWith`, `releaseHoldWith`) on a real
 * Postgres: a movement and a companion stream commit together, or nothing is written and the
 * ledger's cache stays true (the next step, atomic or sequential, sees the real balance). Two
 * ledgers on one database stand for two processes with their own caches.
 */
describe('AccountsLedger atomic steps', () => {
  const fixture = ledgerOnPostgres('ledger atomic');
  const { platformId, openFunded } = fixture;
  let store: PostgresEventStore;
  let events: EventStoreService;
  let ledger: AccountsLedger;
  const now = () => new Date().toISOString();

  beforeAll(() => {
    ({ store, events, ledger } = fixture);
  });

  /** A declined REFUSED step, with the decider's error. */
  const refusal = (code: string) => ({ kind: 'declined', reason: 'REFUSED', error: expect.objectContaining({ code }) });

  const companion = (streamName?: string, expectedRevision: number | 'no_stream' = 'no_stream'): CompanionAppend => fixture.companion(expectedRevision, streamName);

  it('holds, settles and releases with the companion events in one commit each', async () => {
    const accountId = await openFunded(10_000);
    const first = companion();

    const held = await ledger.holdWith({ platformId, accountId, holdId: 'h1', amount: 4_000, now: now() }, first);
    const settled = await ledger.settleHoldWith({ platformId, accountId, holdId: 'h1', now: now() }, companion(first.streamName, 0));
    await ledger.holdWith({ platformId, accountId, holdId: 'h2', amount: 1_000, now: now() }, companion());
    const released = await ledger.releaseHoldWith({ platformId, accountId, holdId: 'h2', reason: 'QUOTE_FAILED', now: now() }, companion());

    expect(held).toMatchObject({ kind: 'applied', account: { available: 6_000, held: 4_000, applied: true }, companion: { nextExpectedRevision: 0 } });
    expect(settled).toMatchObject({ kind: 'applied', account: { available: 6_000, held: 0 }, companion: { nextExpectedRevision: 1 } });
    expect(released).toMatchObject({ kind: 'applied', account: { available: 6_000, held: 0 } });
    const ledgerEvents = await store.readStream(streamNameFor(accountId));
    const companionEvents = await store.readStream(first.streamName);
    expect(ledgerEvents.map((event) => event.type)).toEqual(['InternalAccountOpened', 'FundsCredited', 'FundsHeld', 'HoldSettled', 'FundsHeld', 'HoldReleased']);
    expect(companionEvents.map((event) => event.position.commit)).toEqual([ledgerEvents[2].position.commit, ledgerEvents[3].position.commit]);
    expect(ledgerEvents[2].metadata.platformId).toBe(platformId);
    expect(await ledger.snapshot({ platformId, accountId })).toMatchObject({ available: 6_000, held: 0 });
  });

  it('declines a refusal, a repeat and another platform without writing anything', async () => {
    const accountId = await openFunded(1_000);
    const before = await store.readStream(streamNameFor(accountId));
    const refused = companion();

    expect(await ledger.holdWith({ platformId, accountId, holdId: 'big', amount: 5_000, now: now() }, refused)).toEqual(refusal('INSUFFICIENT_FUNDS'));
    expect(await ledger.holdWith({ platformId: newId('Platform'), accountId, holdId: 'x', amount: 5, now: now() }, companion())).toEqual(refusal('NOT_FOUND'));
    expect(await ledger.settleHoldWith({ platformId, accountId, holdId: 'unknown', now: now() }, companion())).toEqual(refusal('NOT_FOUND'));
    await ledger.hold({ platformId, accountId, holdId: 'done', amount: 500 });
    expect(await ledger.holdWith({ platformId, accountId, holdId: 'done', amount: 500, now: now() }, companion())).toEqual({ kind: 'declined', reason: 'NOOP' });

    expect(await store.readStream(refused.streamName)).toEqual([]);
    expect((await store.readStream(streamNameFor(accountId))).length).toBe(before.length + 1);
  });

  it('declines a companion conflict with nothing written, and the cache stays right for the next step', async () => {
    const accountId = await openFunded(1_000);
    const taken = companion();
    await events.append(taken.streamName, [{ type: 'AlreadyThere', data: {} }], 'no_stream');

    expect(await ledger.holdWith({ platformId, accountId, holdId: 'h', amount: 800, now: now() }, taken)).toEqual({
      kind: 'declined',
      reason: 'COMPANION_CONFLICT',
    });

    expect((await store.readStream(streamNameFor(accountId))).map((event) => event.type)).toEqual(['InternalAccountOpened', 'FundsCredited']);
    expect(await ledger.recentSnapshot({ platformId, accountId })).toMatchObject({ available: 1_000, held: 0 });
    expect(await ledger.holdWith({ platformId, accountId, holdId: 'h', amount: 800, now: now() }, companion())).toMatchObject({
      kind: 'applied',
      account: { available: 200, held: 800 },
    });
  });

  it('catches up when another process moved the account, deciding on the real balance', async () => {
    const accountId = await openFunded(1_000);
    await ledger.snapshot({ platformId, accountId });
    const otherProcess = new AccountsLedger(new CommandStore(events));
    await otherProcess.hold({ platformId, accountId, holdId: 'theirs', amount: 700 });

    expect(await ledger.holdWith({ platformId, accountId, holdId: 'mine', amount: 500, now: now() }, companion())).toEqual(refusal('INSUFFICIENT_FUNDS'));
    expect(await ledger.holdWith({ platformId, accountId, holdId: 'mine', amount: 300, now: now() }, companion())).toMatchObject({
      kind: 'applied',
      account: { available: 0, held: 1_000 },
    });
    await otherProcess.credit({ platformId, accountId, movementId: 'more', amount: 50, reason: 'SANDBOX_FUNDING' });
    // The cached revision is stale now: the append conflicts on the account, the ledger catches up once and commits.
    expect(await ledger.releaseHoldWith({ platformId, accountId, holdId: 'mine', reason: 'QUOTE_FAILED', now: now() }, companion())).toMatchObject({
      kind: 'applied',
      account: { available: 350, held: 700 },
    });
  });

  it('declines every atomic step on an event store without multi-stream appends (EventStoreDB)', async () => {
    const accountId = await openFunded(1_000);
    // The same store seen through an object without appendToStreams, as the EventStoreDB adapter is.
    const withoutMulti: EventStore = Object.assign(Object.create(store) as PostgresEventStore, { appendToStreams: undefined });
    const sequentialOnly = new AccountsLedger(new CommandStore(new EventStoreService(withoutMulti)));

    expect(sequentialOnly.supportsAtomicSteps).toBe(false);
    expect(await sequentialOnly.holdWith({ platformId, accountId, holdId: 'h', amount: 100, now: now() }, companion())).toEqual({
      kind: 'declined',
      reason: 'UNSUPPORTED',
    });
  });
});
