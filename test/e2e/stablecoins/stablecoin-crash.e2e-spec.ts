import { CommandBus } from '@nestjs/cqrs';
import { AccountsLedger } from '../../../src/accounts';
import { CommandStore } from '../../../src/infra/commands/command-store';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { newId, streamNameFor } from '../../../src/infra/ids';
import { TaskScheduler } from '../../../src/infra/queue/task-scheduler';
import { AdvanceStablecoinOperation } from '../../../src/stablecoins/commands/advance-stablecoin-operation';
import { OperationCommits } from '../../../src/stablecoins/commands/operation-commits';
import { OperationCommand } from '../../../src/stablecoins/domain/operation/operation.decider';
import { STABLECOIN_OPERATION_STREAM, STABLECOIN_STREAM } from '../../../src/stablecoins/streams';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { linkProvider, operationInStatus, platformAccount, postWithKey, registerCoin, usdBank } from './stablecoin-fixtures';

/**
 * "Nothing lost on a crash" for the steps of a mint or burn (docs/stablecoins.md, "Crash
 * safety"): on Postgres a step is one commit, so a process dying in it leaves nothing; on an event
 * store without multi-stream commits (EventStoreDB, simulated by a store without
 * `appendToStreams`) a step cut short is finished or given back by its task.
 */
describe('stablecoin operations: a process dying between steps', () => {
  let testApp: TestApp;
  let platform: TestPlatform;
  let coin: any;
  let usdb: any;
  let bank: any;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  beforeEach(async () => {
    jest.restoreAllMocks();
    platform = await testApp.createPlatform();
    await linkProvider(platform.api);
    coin = await registerCoin(platform.api, 'usdb');
    bank = await usdBank(platform.api);
    const usd = await platformAccount(platform.api, 'USD');
    usdb = await platformAccount(platform.api, 'USDB');
    await postWithKey(platform.api, `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 1_000 }).expect(200);
    const minted = await postWithKey(platform.api, `/stablecoins/${coin.id}/mints`, { amount: '10000000', fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usd.id }, destination: { accountId: usdb.id } }).expect(201);
    await operationInStatus(platform.api, minted.body.id, 'COMPLETED');
  });

  const ledger = () => testApp.app.get(AccountsLedger);
  const account = () => ledger().snapshot({ platformId: platform.platformId, accountId: usdb.id });
  const supply = async () => (await testApp.app.get(CommandStore).load(STABLECOIN_STREAM, streamNameFor(coin.id))).state as any;
  const burnBody = (description?: string) => ({ amount: '1000000', source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdb.id }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank.id, rail: 'WIRE' }, description });

  /** The app's stores as an event store without multi-stream commits, `dies` failing the appends it names. */
  function inTurnStores(dies: (streamName: string) => boolean) {
    const store = testApp.app.get(EventStoreService).store;
    const events = new EventStoreService(Object.create(store, { appendToStreams: { value: undefined } }));
    const append = events.append.bind(events);
    jest.spyOn(events, 'append').mockImplementation(async (streamName, ...rest) => {
      if (dies(streamName)) throw new Error('the process died');
      return append(streamName, ...rest);
    });
    const commands = new CommandStore(events);
    const inTurnLedger = new AccountsLedger(commands);
    return { commits: new OperationCommits(commands, inTurnLedger, testApp.app.get(TaskScheduler)), ledger: inTurnLedger };
  }

  /** A burn of 1,000,000 from the USDB account as the create handler records it; the provider never answers. */
  function burnRecord(): Extract<OperationCommand, { type: 'CreateOperation' }> {
    return {
      type: 'CreateOperation',
      operationId: newId('StablecoinOperation'),
      stablecoinId: coin.id,
      platformId: platform.platformId,
      operationType: 'BURN',
      status: 'PENDING_PROVIDER',
      amount: 1_000_000,
      fiatAmount: 100,
      baseCurrency: 'USD',
      provider: coin.provider,
      providerEnvironment: coin.providerEnvironment,
      stablecoinProviderAccountId: coin.stablecoinProviderAccountId,
      source: { type: 'GRID_INTERNAL_ACCOUNT', accountId: usdb.id },
      destination: { accountId: bank.id, rail: 'WIRE' },
      fundingInstructions: null,
      estimatedDelivery: null,
      expiresAt: null,
      description: null,
      providerScenario: 'NO_ANSWER',
      ledger: { hold: { accountId: usdb.id, amount: 1_000_000 }, credit: null },
      createdAt: new Date().toISOString(),
    };
  }

  /** The app's next commit writing an event of `eventType` dies (throws, writing nothing); answers whether it did. */
  function nextCommitDies(eventType: string): () => boolean {
    const events = testApp.app.get(EventStoreService);
    const appendToStreams = events.appendToStreams.bind(events);
    let died = false;
    jest.spyOn(events, 'appendToStreams').mockImplementation(async (appends) => {
      if (!died && appends.some((append) => append.events.some((event) => event.type === eventType))) {
        died = true;
        throw new Error('the process died');
      }
      return appendToStreams(appends);
    });
    return () => died;
  }

  it('Postgres: a process dying in the opening or the completion commit leaves nothing reserved, held or moved; the task completes it once', async () => {
    const openingDied = nextCommitDies('StablecoinOperationOpened');
    expect((await postWithKey(platform.api, `/stablecoins/${coin.id}/burns`, burnBody())).status).toBe(500);
    expect(openingDied()).toBe(true);
    expect(await supply()).toMatchObject({ pending: {}, pendingBurns: 0, outstanding: 10_000_000 });
    expect(await account()).toMatchObject({ available: 10_000_000, held: 0 });
    expect((await platform.api.get(`/stablecoins/${coin.id}/operations`).query({ operationType: 'BURN' }).expect(200)).body.totalCount).toBe(0);

    jest.restoreAllMocks();
    const completionDied = nextCommitDies('StablecoinSupplyChanged');
    const burn = (await postWithKey(platform.api, `/stablecoins/${coin.id}/burns`, burnBody())).body;
    expect(completionDied()).toBe(false);
    await operationInStatus(platform.api, burn.id, 'COMPLETED');
    expect(completionDied()).toBe(true);
    expect(await supply()).toMatchObject({ pending: {}, pendingBurns: 0, burned: 1_000_000, outstanding: 9_000_000 });
    expect(await account()).toMatchObject({ available: 9_000_000, held: 0, total: 9_000_000 });
  });

  it('Postgres: a process dying in the failure commit: the re-run of its task gives the hold and the reservation back once', async () => {
    const failureDied = nextCommitDies('StablecoinOperationFailed');
    const burn = (await postWithKey(platform.api, `/stablecoins/${coin.id}/burns`, burnBody('bounce 002')).expect(201)).body;
    await operationInStatus(platform.api, burn.id, 'FAILED');
    expect(failureDied()).toBe(true);
    expect(await supply()).toMatchObject({ pending: {}, pendingBurns: 0, burned: 0, outstanding: 10_000_000 });
    expect(await account()).toMatchObject({ available: 10_000_000, held: 0, total: 10_000_000 });
  });

  it('EventStoreDB: an opening that died after the reservation and the hold is given back by its check, which a late hold cannot undo', async () => {
    const record = burnRecord();
    const { commits } = inTurnStores((streamName) => streamName === streamNameFor(record.operationId));
    await expect(commits.open(record, record.ledger.hold)).rejects.toThrow('the process died');
    expect((await supply()).pending).toEqual({ [record.operationId]: { operationType: 'BURN', amount: 1_000_000 } });
    expect(await account()).toMatchObject({ available: 9_000_000, held: 1_000_000 });

    const check = { platformId: platform.platformId, operationId: record.operationId, stablecoinId: coin.id, holdAccountId: usdb.id };
    await testApp.app.get(OperationCommits).recoverOpening(check);
    await testApp.app.get(OperationCommits).recoverOpening(check);
    expect(await supply()).toMatchObject({ pending: {}, pendingBurns: 0, outstanding: 10_000_000 });
    expect(await account()).toMatchObject({ available: 10_000_000, held: 0 });
    // The dead process's hold arriving late (a retried write) is a repeat of a hold given back: it moves nothing.
    const late = await ledger().hold({ platformId: platform.platformId, accountId: usdb.id, holdId: record.operationId, amount: 1_000_000 });
    expect(late).toMatchObject({ applied: false, available: 10_000_000, held: 0 });
  });

  it('EventStoreDB: a completion that died after settling the hold is finished once by the re-run of its task', async () => {
    const record = burnRecord();
    const opened = await inTurnStores(() => false).commits.open(record, record.ledger.hold);
    expect(opened.status).toBe('PENDING_PROVIDER');
    const { commits } = inTurnStores((streamName) => streamName === streamNameFor(coin.id));
    await expect(commits.complete(opened, new Date().toISOString())).rejects.toThrow('the process died');
    expect(await account()).toMatchObject({ available: 9_000_000, held: 0, total: 9_000_000 });
    expect((await supply()).pending[record.operationId]).toBeDefined();

    await testApp.app.get(CommandBus).execute(new AdvanceStablecoinOperation(record.operationId, 'SETTLE'));
    await testApp.app.get(CommandBus).execute(new AdvanceStablecoinOperation(record.operationId, 'SETTLE'));
    const operation = await testApp.app.get(CommandStore).load(STABLECOIN_OPERATION_STREAM, streamNameFor(record.operationId));
    expect(operation.state.status).toBe('COMPLETED');
    expect(await supply()).toMatchObject({ pending: {}, burned: 1_000_000, outstanding: 9_000_000 });
    expect(await account()).toMatchObject({ available: 9_000_000, held: 0, total: 9_000_000 });
    await eventually(async () => (await platform.api.get(`/stablecoin-operations/${record.operationId}`)).body.status === 'COMPLETED');
  });
});
