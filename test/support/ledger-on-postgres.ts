import { Pool } from 'pg';
import { AccountsLedger, CompanionAppend } from '../../src/accounts/ledger/accounts-ledger';
import { CommandStore } from '../../src/infra/commands/command-store';
import { EventStoreService } from '../../src/infra/event-store/event-store.service';
import { PostgresEventStore } from '../../src/infra/event-store/postgres-event-store';
import { newId } from '../../src/infra/ids';
import { FreshDatabase, freshDatabase } from './database';

/** What the ledger specs of test/infra work with; the stores are set once the suite's beforeAll ran. */
export interface LedgerOnPostgres {
  readonly platformId: string;
  store: PostgresEventStore;
  events: EventStoreService;
  ledger: AccountsLedger;
  /** A new USD (or `currency`) account of the platform, credited `amount` when it is not 0. */
  openFunded(amount: number, currency?: string): Promise<string>;
  /** One `CompanionRecorded` event on a new (or the given) companion stream. */
  companion(expectedRevision?: number | 'no_stream', streamName?: string): CompanionAppend;
}

/**
 * An AccountsLedger on a fresh Postgres database for one spec file: registers the suite's
 * beforeAll (database, event store, ledger) and afterAll (closed and dropped). Call it at the top
 * of the `describe`, before the suite's own hooks.
 */
export function ledgerOnPostgres(name: string): LedgerOnPostgres {
  let database: FreshDatabase;
  let pool: Pool;
  const fixture = {
    platformId: newId('Platform'),
    async openFunded(amount: number, currency = 'USD'): Promise<string> {
      const accountId = newId('InternalAccount');
      const { ledger, platformId } = fixture;
      await ledger.open({ platformId, accountId, customerId: null, accountType: 'INTERNAL_FIAT', currency, openedAt: new Date().toISOString() });
      if (amount > 0) await ledger.credit({ platformId, accountId, movementId: 'funding', amount, reason: 'SANDBOX_FUNDING' });
      return accountId;
    },
    companion(expectedRevision: number | 'no_stream' = 'no_stream', streamName = `companion-${newId('Quote').slice('Quote:'.length)}`): CompanionAppend {
      return { streamName, events: [{ type: 'CompanionRecorded', data: { n: 1 } }], expectedRevision };
    },
  } as LedgerOnPostgres;

  beforeAll(async () => {
    database = await freshDatabase(name);
    pool = new Pool({ connectionString: database.url, max: 8 });
    pool.on('error', () => undefined); // The database is dropped right after pool.end().
    await PostgresEventStore.ensureSchema(pool);
    fixture.store = new PostgresEventStore(pool);
    fixture.events = new EventStoreService(fixture.store);
    fixture.ledger = new AccountsLedger(new CommandStore(fixture.events));
  });

  afterAll(async () => {
    await fixture.store?.close();
    await pool?.end();
    await database?.drop();
  });

  return fixture;
}
