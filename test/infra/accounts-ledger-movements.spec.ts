import { AccountsLedger, CompanionAppend, LedgerMovement } from '../../src/accounts/ledger/accounts-ledger';
import { CommandStore } from '../../src/infra/commands/command-store';
import { EventStore } from '../../src/infra/event-store/event-store.port';
import { EventStoreService } from '../../src/infra/event-store/event-store.service';
import { PostgresEventStore } from '../../src/infra/event-store/postgres-event-store';
import { newId, streamNameFor } from '../../src/infra/ids';
import { ledgerOnPostgres } from '../support/ledger-on-postgres';

/**
 * AccountsLedger's card movements on a real Postgres: `capture`, `adjustHold`, `debit` and the
 * batches (`movements` one step at a time, `movementsWith` in one commit with a companion stream,
 * all or nothing). Two ledgers on one database stand for two processes with their own caches.
 */
describe('AccountsLedger movements', () => {
  const fixture = ledgerOnPostgres('ledger movements');
  const { platformId, openFunded } = fixture;
  let store: PostgresEventStore;
  let events: EventStoreService;
  let ledger: AccountsLedger;
  const now = () => new Date().toISOString();

  beforeAll(() => {
    ({ store, events, ledger } = fixture);
  });
  const companion = (): CompanionAppend => fixture.companion();
  const typesOf = async (accountId: string) => (await store.readStream(streamNameFor(accountId))).map((event) => event.type);
  /** What this process caches and what the stream says agree. */
  const expectCacheTrue = async (accountId: string) => {
    const fresh = await new AccountsLedger(new CommandStore(events)).snapshot({ platformId, accountId });
    expect(await ledger.recentSnapshot({ platformId, accountId })).toEqual(fresh);
  };

  it('captures part of a hold, adjusts it and debits available, each once however often repeated', async () => {
    const accountId = await openFunded(10_000);
    await ledger.hold({ platformId, accountId, holdId: 'h', amount: 4_000 });

    expect(await ledger.adjustHold({ platformId, accountId, holdId: 'h', adjustmentId: 'a1', amount: 5_000 })).toMatchObject({ available: 5_000, held: 5_000, applied: true });
    expect(await ledger.capture({ platformId, accountId, holdId: 'h', captureId: 'c1', amount: 1_500 })).toMatchObject({ available: 5_000, held: 3_500, applied: true });
    expect(await ledger.capture({ platformId, accountId, holdId: 'h', captureId: 'c1', amount: 1_500 })).toMatchObject({ held: 3_500, applied: false });
    expect(await ledger.debit({ platformId, accountId, movementId: 'd1', amount: 2_000, reason: 'CARD_PURCHASE', reference: 'CardTransaction:t' })).toMatchObject({
      available: 3_000,
      held: 3_500,
      total: 6_500,
      applied: true,
    });
    expect(await ledger.debit({ platformId, accountId, movementId: 'd1', amount: 2_000, reason: 'CARD_PURCHASE' })).toMatchObject({ applied: false });
    expect(await ledger.holdStatus({ platformId, accountId, holdId: 'h' })).toEqual({ amount: 4_000, remaining: 3_500, status: 'HELD' });

    expect(await ledger.settleHold({ platformId, accountId, holdId: 'h' })).toMatchObject({ available: 3_000, held: 0 });
    expect(await typesOf(accountId)).toEqual(['InternalAccountOpened', 'FundsCredited', 'FundsHeld', 'HoldAdjusted', 'HoldCaptured', 'FundsDebited', 'HoldSettled']);
    const settled = (await store.readStream(streamNameFor(accountId)))[6];
    expect(settled.data).toMatchObject({ amount: 3_500 });
  });

  it('refuses a debit or an increase beyond available with INSUFFICIENT_FUNDS, writing nothing', async () => {
    const accountId = await openFunded(1_000);
    await ledger.hold({ platformId, accountId, holdId: 'h', amount: 600 });
    await expect(ledger.debit({ platformId, accountId, movementId: 'd', amount: 401, reason: 'X' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      details: { available: 400, requested: 401 },
    });
    await expect(ledger.adjustHold({ platformId, accountId, holdId: 'h', adjustmentId: 'a', amount: 1_001 })).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await expect(ledger.capture({ platformId, accountId, holdId: 'h', captureId: 'c', amount: 601 })).rejects.toMatchObject({
      code: 'INVALID_AMOUNT',
      details: { holdId: 'h', remaining: 600 },
    });
    expect(await typesOf(accountId)).toEqual(['InternalAccountOpened', 'FundsCredited', 'FundsHeld']);
  });

  it('movementsWith commits every movement and the companion in ONE commit', async () => {
    const accountId = await openFunded(10_000);
    const card = companion();
    const batch: LedgerMovement[] = [
      { kind: 'HOLD', holdId: 'h', amount: 3_000, reference: 'CardTransaction:t' },
      { kind: 'CAPTURE', holdId: 'h', captureId: 'c', amount: 1_000 },
      { kind: 'ADJUST', holdId: 'h', adjustmentId: 'a', amount: 500 },
      { kind: 'DEBIT', movementId: 'd', amount: 700, reason: 'CARD_PURCHASE', reference: null },
      { kind: 'CREDIT', movementId: 'r', amount: 200, reason: 'CARD_RETURN', reference: null },
      { kind: 'RELEASE', holdId: 'h', reason: 'EXPIRED' },
    ];

    const outcome = await ledger.movementsWith(platformId, accountId, batch, card, now());

    // 10,000 - 1,000 captured - 700 debited + 200 credited; the hold's last 500 went back.
    expect(outcome).toMatchObject({ kind: 'applied', account: { available: 8_500, held: 0, applied: true }, companion: { nextExpectedRevision: 0 } });
    const ledgerEvents = await store.readStream(streamNameFor(accountId));
    expect(ledgerEvents.map((event) => event.type)).toEqual([
      'InternalAccountOpened', 'FundsCredited', 'FundsHeld', 'HoldCaptured', 'HoldAdjusted', 'FundsDebited', 'FundsCredited', 'HoldReleased',
    ]);
    const [companionEvent] = await store.readStream(card.streamName);
    expect(new Set(ledgerEvents.slice(2).map((event) => event.position.commit))).toEqual(new Set([companionEvent.position.commit]));
    expect(ledgerEvents.slice(2).map((event) => event.metadata.platformId)).toEqual(Array(6).fill(platformId));
    await expectCacheTrue(accountId);

    // The same batch again moves nothing: declined NOOP, the companion not written.
    expect(await ledger.movementsWith(platformId, accountId, batch, companion(), now())).toEqual({ kind: 'declined', reason: 'NOOP' });
  });

  it('a refusal of any movement declines the whole batch with the error, nothing written and the cache true', async () => {
    const accountId = await openFunded(1_000);
    await ledger.hold({ platformId, accountId, holdId: 'h', amount: 600 });
    const refused = companion();

    const outcome = await ledger.movementsWith(
      platformId,
      accountId,
      [
        { kind: 'CAPTURE', holdId: 'h', captureId: 'c', amount: 600 },
        { kind: 'HOLD', holdId: 'h2', amount: 300 },
        { kind: 'DEBIT', movementId: 'd', amount: 200, reason: 'X' },
      ],
      refused,
      now(),
    );

    expect(outcome).toEqual({ kind: 'declined', reason: 'REFUSED', error: expect.objectContaining({ code: 'INSUFFICIENT_FUNDS', details: { accountId, available: 100, requested: 200 } }) });
    expect(await typesOf(accountId)).toEqual(['InternalAccountOpened', 'FundsCredited', 'FundsHeld']);
    expect(await store.readStream(refused.streamName)).toEqual([]);
    await expectCacheTrue(accountId);
    // Nothing of the refused batch lingers in memory: the capture and the hold are still to be made.
    expect(await ledger.holdStatus({ platformId, accountId, holdId: 'h' })).toEqual({ amount: 600, remaining: 600, status: 'HELD' });
    expect(await ledger.movementsWith(platformId, accountId, [{ kind: 'CAPTURE', holdId: 'h', captureId: 'c', amount: 600 }, { kind: 'HOLD', holdId: 'h2', amount: 300 }], companion(), now())).toMatchObject({
      kind: 'applied',
      account: { available: 100, held: 300 },
    });
  });

  it('decides a refusal on the stream caught up, not on a stale cache', async () => {
    const accountId = await openFunded(100);
    await ledger.snapshot({ platformId, accountId });
    await new AccountsLedger(new CommandStore(events)).credit({ platformId, accountId, movementId: 'theirs', amount: 900, reason: 'SANDBOX_FUNDING' });

    expect(await ledger.movementsWith(platformId, accountId, [{ kind: 'DEBIT', movementId: 'd', amount: 500, reason: 'X' }], companion(), now())).toMatchObject({
      kind: 'applied',
      account: { available: 500 },
    });
    expect(await ledger.movementsWith(platformId, newId('InternalAccount'), [{ kind: 'DEBIT', movementId: 'd', amount: 1, reason: 'X' }], companion(), now())).toEqual({
      kind: 'declined',
      reason: 'REFUSED',
      error: expect.objectContaining({ code: 'NOT_FOUND' }),
    });
    expect(await ledger.movementsWith(newId('Platform'), accountId, [{ kind: 'DEBIT', movementId: 'e', amount: 1, reason: 'X' }], companion(), now())).toMatchObject({
      reason: 'REFUSED',
      error: { code: 'NOT_FOUND' },
    });
  });

  it('movements applies each step on its own: a retry after a refusal part-way applies the rest once', async () => {
    const accountId = await openFunded(1_000);
    const withoutMulti: EventStore = Object.assign(Object.create(store) as PostgresEventStore, { appendToStreams: undefined });
    const sequentialOnly = new AccountsLedger(new CommandStore(new EventStoreService(withoutMulti)));
    const batch: LedgerMovement[] = [
      { kind: 'HOLD', holdId: 'h', amount: 800 },
      { kind: 'DEBIT', movementId: 'd', amount: 300, reason: 'X' },
    ];
    expect(await sequentialOnly.movementsWith(platformId, accountId, batch, companion(), now())).toEqual({ kind: 'declined', reason: 'UNSUPPORTED' });

    await expect(sequentialOnly.movements(platformId, accountId, batch)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await sequentialOnly.credit({ platformId, accountId, movementId: 'more', amount: 100, reason: 'SANDBOX_FUNDING' });
    expect(await sequentialOnly.movements(platformId, accountId, batch)).toMatchObject({ available: 0, held: 800, applied: true });
    expect(await sequentialOnly.movements(platformId, accountId, batch)).toMatchObject({ available: 0, held: 800, applied: false });
    expect(await typesOf(accountId)).toEqual(['InternalAccountOpened', 'FundsCredited', 'FundsHeld', 'FundsCredited', 'FundsDebited']);
  });
});
