import { AccountsLedger } from '../../src/accounts/ledger/accounts-ledger';
import { EventStoreService } from '../../src/infra/event-store/event-store.service';
import { PostgresEventStore } from '../../src/infra/event-store/postgres-event-store';
import { ledgerOnPostgres } from '../support/ledger-on-postgres';

/**
 * `movementsWith` with several companions and `movementsAcrossWith` (movements on several
 * accounts) on a real Postgres: every account and every companion in one commit, or nothing
 * written (the stablecoin steps rely on it: docs/stablecoins.md, "Crash safety").
 */
describe('AccountsLedger atomic steps over several streams', () => {
  const fixture = ledgerOnPostgres('ledger across');
  const { platformId, openFunded, companion } = fixture;
  let store: PostgresEventStore;
  let events: EventStoreService;
  let ledger: AccountsLedger;
  const now = () => new Date().toISOString();

  beforeAll(() => {
    ({ store, events, ledger } = fixture);
  });

  const revisionOf = async (streamName: string) => (await store.readStream(streamName)).length - 1;
  const balances = async (accountId: string) => {
    const { available, held } = await ledger.snapshot({ platformId, accountId });
    return { available, held };
  };

  it('commits a hold with two companions, each at its revision; the outcome carries the first companion', async () => {
    const accountId = await openFunded(1_000);
    const [first, second] = [companion(), companion()];
    const outcome = await ledger.movementsWith(platformId, accountId, [{ kind: 'HOLD', holdId: 'h', amount: 400 }], [first, second], now());
    expect(outcome).toMatchObject({ kind: 'applied', account: { available: 600, held: 400 }, companion: { nextExpectedRevision: 0 } });
    expect([await revisionOf(first.streamName), await revisionOf(second.streamName)]).toEqual([0, 0]);
  });

  it('settles a hold on one account and credits another with the companions in one commit', async () => {
    const fiat = await openFunded(1_000);
    const coin = await openFunded(0, 'USDB');
    await ledger.hold({ platformId, accountId: fiat, holdId: 'mint', amount: 300 });
    const record = companion();
    const outcome = await ledger.movementsAcrossWith(
      platformId,
      [
        { accountId: fiat, movements: [{ kind: 'SETTLE', holdId: 'mint' }] },
        { accountId: coin, movements: [{ kind: 'CREDIT', movementId: 'mint', amount: 3_000_000, reason: 'STABLECOIN_MINT' }] },
      ],
      [record],
      now(),
    );
    expect(outcome).toMatchObject({ kind: 'applied', account: { accountId: fiat, available: 700, held: 0, total: 700 } });
    expect(await balances(coin)).toEqual({ available: 3_000_000, held: 0 });
    expect(await revisionOf(record.streamName)).toBe(0);
  });

  it('writes nothing when one companion moved first, or one account refuses', async () => {
    const fiat = await openFunded(1_000);
    const coin = await openFunded(0, 'USDB');
    const moved = companion();
    await events.append(moved.streamName, [{ type: 'Elsewhere', data: {} }], 'no_stream');
    const fresh = companion();
    const batches = [
      { accountId: fiat, movements: [{ kind: 'HOLD' as const, holdId: 'x', amount: 100 }] },
      { accountId: coin, movements: [{ kind: 'CREDIT' as const, movementId: 'x', amount: 5, reason: 'STABLECOIN_MINT' }] },
    ];
    expect(await ledger.movementsAcrossWith(platformId, batches, [fresh, moved], now())).toEqual({ kind: 'declined', reason: 'COMPANION_CONFLICT' });
    const refused = [batches[1], { accountId: fiat, movements: [{ kind: 'HOLD' as const, holdId: 'y', amount: 5_000 }] }];
    expect(await ledger.movementsAcrossWith(platformId, refused, [fresh], now())).toEqual({ kind: 'declined', reason: 'REFUSED', error: expect.objectContaining({ code: 'INSUFFICIENT_FUNDS' }) });
    expect([await balances(fiat), await balances(coin)]).toEqual([{ available: 1_000, held: 0 }, { available: 0, held: 0 }]);
    expect(await store.readStream(fresh.streamName)).toEqual([]);
  });
});
