import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountsLedger } from '../../../src/accounts/ledger/accounts-ledger';
import { CommandStore } from '../../../src/infra/commands/command-store';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { PostgresEventStore } from '../../../src/infra/event-store/postgres-event-store';
import { streamNameFor } from '../../../src/infra/ids';
import { createPool } from '../../../src/infra/postgres/pool';
import { holdIdFor } from '../../../src/quotes/quote-store';
import { FreshDatabase, freshDatabase, freshRedisPrefix } from '../../support/database';
import { PlatformClient, TestApp, eventually, platformClient, startTestApp } from '../../support/test-app';
import { assertLedgerInvariant, balances, fundedCustomer, ledgerEventTypes, quoteToSuffix, quoteWithStatus } from '../../support/quote-fixtures';

/**
 * A process killed between the steps of execute or settlement: the app is stopped mid-flow
 * (`close({keepDatabase: true})`), the step the dead process had got to is written straight to
 * the stores, and a restarted app (same database, Redis prefix and data dir) finishes the flow.
 * Money moves exactly once.
 */
describe('quotes: a process dying between steps', () => {
  let database: FreshDatabase;
  let dataDir: string;
  let queuePrefix: string;
  let app: TestApp;
  let credentials: { clientId: string; clientSecret: string; platformId: string };

  beforeAll(async () => {
    database = await freshDatabase('quotes-crash');
    dataDir = mkdtempSync(join(tmpdir(), 'quotes-crash-'));
    queuePrefix = freshRedisPrefix('quotes-crash');
    app = await startTestApp({ database, dataDir, queuePrefix });
    credentials = app.platform;
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (): PlatformClient => platformClient(app.baseUrl, credentials.clientId, credentials.clientSecret);

  /** The transaction once its refund has `status`. */
  const refundWithStatus = (transactionId: string, status: string) =>
    eventually(async () => {
      const response = await api().get(`/transactions/${transactionId}`);
      return response.status === 200 && response.body.refund?.status === status && response.body;
    });

  /** Stops the app, runs `whileDown` against the stores as the dead process would have, restarts. */
  async function crashAndRestart(whileDown: (stores: { events: EventStoreService; ledger: AccountsLedger }) => Promise<void>): Promise<void> {
    await app.close({ keepDatabase: true });
    const pool = createPool(database.url, 4);
    const store = new PostgresEventStore(pool);
    const events = new EventStoreService(store);
    try {
      await whileDown({ events, ledger: new AccountsLedger(new CommandStore(events)) });
    } finally {
      await store.close();
      await pool.end();
    }
    app = await startTestApp({ database, dataDir, queuePrefix });
  }

  const metadata = () => ({ platformId: credentials.platformId, actor: 'test:killed-process' });

  it('killed after recording the execute and placing the hold, before recording it: resumed once', async () => {
    const owner = await fundedCustomer(api(), 30_000);
    const quote = await quoteToSuffix(api(), owner, '789', 10_000);
    await crashAndRestart(async ({ events, ledger }) => {
      await events.append(
        streamNameFor(quote.id),
        [
          {
            type: 'QuoteExecutionRequested',
            data: {
              quoteId: quote.id, transactionId: quote.transactionId, platformId: credentials.platformId, attempt: 1, holdId: holdIdFor(quote.id, 1),
              sourceAccountId: owner.usd.id, amount: 10_000, scaFactor: null, requestedAt: new Date().toISOString(),
            },
          },
        ],
        0,
        metadata(),
      );
      await ledger.hold({ platformId: credentials.platformId, accountId: owner.usd.id, holdId: holdIdFor(quote.id, 1), amount: 10_000, reference: quote.transactionId });
    });
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    expect((await api().post(`/quotes/${quote.id}/execute`).expect(409)).body.details.reason).toBe('QUOTE_ALREADY_EXECUTED');
    const ledger = (await ledgerEventTypes(app.databaseUrl, owner.usd.id)).map((event) => event.type);
    expect(ledger).toEqual(['InternalAccountOpened', 'FundsCredited', 'FundsHeld', 'HoldSettled']);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 20_000, total: 20_000 });
  });

  it('killed right after answering execute (settlement scheduled or not): settled once after the restart', async () => {
    const owner = await fundedCustomer(api(), 30_000);
    const quote = await quoteToSuffix(api(), owner, '005', 10_000);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    await crashAndRestart(async () => undefined);
    await quoteWithStatus(api(), quote.id, 'FAILED');
    await refundWithStatus(quote.transactionId, 'COMPLETED');
    const ledger = (await ledgerEventTypes(app.databaseUrl, owner.usd.id)).map((event) => event.type);
    expect(ledger).toEqual(['InternalAccountOpened', 'FundsCredited', 'FundsHeld', 'HoldSettled', 'FundsCredited']);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 30_000, total: 30_000 });
  });

  it('killed after recording a failure, before its refund was scheduled: the refund ends once after the restart, the hold released', async () => {
    const owner = await fundedCustomer(api(), 30_000);
    const quote = await quoteToSuffix(api(), owner, '002', 10_000);
    await crashAndRestart(async ({ events, ledger }) => {
      const ref = { quoteId: quote.id, transactionId: quote.transactionId, platformId: credentials.platformId };
      const at = new Date().toISOString();
      const holdId = holdIdFor(quote.id, 1);
      await ledger.hold({ platformId: credentials.platformId, accountId: owner.usd.id, holdId, amount: 10_000, reference: quote.transactionId });
      await events.append(
        streamNameFor(quote.id),
        [
          { type: 'QuoteExecutionRequested', data: { ...ref, attempt: 1, holdId, sourceAccountId: owner.usd.id, amount: 10_000, scaFactor: null, requestedAt: at } },
          { type: 'QuoteFundsHeld', data: { ...ref, attempt: 1, holdId, heldAt: at } },
          {
            type: 'QuoteFailed',
            data: {
              ...ref, step: 0, failureReason: 'QUOTE_EXECUTION_FAILED', failedAt: at,
              refund: { reference: `${quote.transactionId}:refund`, initiatedAt: at, settledAt: null, status: 'PENDING', reason: 'TRANSACTION_FAILED' },
            },
          },
        ],
        0,
        metadata(),
      );
    });
    const refunded = await refundWithStatus(quote.transactionId, 'COMPLETED');
    expect(refunded).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', refund: { initiatedAt: expect.any(String), settledAt: expect.any(String) } });
    const ledger = (await ledgerEventTypes(app.databaseUrl, owner.usd.id)).map((event) => event.type);
    expect(ledger).toEqual(['InternalAccountOpened', 'FundsCredited', 'FundsHeld', 'HoldReleased']);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 30_000, total: 30_000 });
    await assertLedgerInvariant(app.databaseUrl, api(), [owner.usd.id]);
  });

  it('killed in a settlement step after moving the money, before recording it: the step is repeated as a no-op', async () => {
    const owner = await fundedCustomer(api(), 30_000);
    const quote = await quoteToSuffix(api(), owner, '003', 10_000);
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    await crashAndRestart(async ({ ledger }) => {
      await ledger.settleHold({ platformId: credentials.platformId, accountId: owner.usd.id, holdId: holdIdFor(quote.id, 1) });
    });
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PROCESSING');
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    const ledger = (await ledgerEventTypes(app.databaseUrl, owner.usd.id)).map((event) => event.type);
    expect(ledger).toEqual(['InternalAccountOpened', 'FundsCredited', 'FundsHeld', 'HoldSettled']);
    await assertLedgerInvariant(app.databaseUrl, api(), [owner.usd.id]);
  });
});
