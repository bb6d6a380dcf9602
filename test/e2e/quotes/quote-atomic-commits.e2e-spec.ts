import { RecordedEvent } from '../../../src/infra/event-store/event-store.port';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { streamNameFor } from '../../../src/infra/ids';
import { holdIdFor } from '../../../src/quotes/quote-store';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { accountQuoteBody, balances, fundedCustomer, quoteToSuffix, quoteWithStatus } from '../../support/quote-fixtures';

/**
 * Execute and the settlement steps that only touch the source account commit the ledger movement
 * and the quote's events in ONE transaction (EventStore.appendToStreams): the events share their
 * commit position and nothing else does. Refusals and two-account steps keep the sequential path.
 */
describe('quotes: execute and settlement in one commit', () => {
  let testApp: TestApp;
  let events: EventStoreService;

  beforeAll(async () => {
    testApp = await startTestApp();
    events = testApp.app.get(EventStoreService);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  /** The events of the quote and of its source account, newest last in global order. */
  const flowEvents = async (quoteId: string, accountId: string): Promise<RecordedEvent[]> => {
    const all = [...(await events.readStream(streamNameFor(quoteId))), ...(await events.readStream(streamNameFor(accountId)))];
    return all.sort((a, b) => (a.position.prepare < b.position.prepare ? -1 : 1));
  };

  /** The events grouped by commit, as [stream kind, type] pairs, in global order. */
  const commits = (recorded: RecordedEvent[]): string[][] => {
    const groups = new Map<bigint, string[]>();
    for (const event of recorded) {
      const group = groups.get(event.position.commit) ?? [];
      group.push(`${event.streamName.split('-')[0]}:${event.type}`);
      groups.set(event.position.commit, group);
    }
    return [...groups.values()];
  };

  it('execute: FundsHeld, QuoteExecutionRequested and QuoteFundsHeld in one commit; the completion settles the hold in one commit', async () => {
    const owner = await fundedCustomer(api(), 30_000);
    const quote = await quoteToSuffix(api(), owner, '789', 10_000);

    const executed = await api().post(`/quotes/${quote.id}/execute`).expect(200);

    expect(executed.body).toEqual({ ...quote, status: 'PROCESSING' });
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 20_000, total: 30_000 });
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
    const recorded = await flowEvents(quote.id, owner.usd.id);
    expect(commits(recorded).slice(-3)).toEqual([
      ['quote:QuoteCreated'],
      ['internalAccount:FundsHeld', 'quote:QuoteExecutionRequested', 'quote:QuoteFundsHeld'],
      ['internalAccount:HoldSettled', 'quote:QuoteCompleted'],
    ]);
    const held = recorded.find((event) => event.type === 'FundsHeld')!;
    expect(held.data).toMatchObject({ holdId: holdIdFor(quote.id, 1), amount: 10_000, reference: quote.transactionId });
    expect(held.metadata.platformId).toBe(testApp.platform.platformId);
    const requested = recorded.find((event) => event.type === 'QuoteExecutionRequested')!;
    expect(requested.metadata.platformId).toBe(testApp.platform.platformId);
    expect(requested.metadata.correlationId).toBe(held.metadata.correlationId);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 20_000, total: 20_000 });
  });

  it('a failure moves nothing; its refund releases the hold with QuoteRefundCompleted in one commit, a failed refund settles it with QuoteRefundFailed', async () => {
    const owner = await fundedCustomer(api(), 30_000);
    const failing = await quoteToSuffix(api(), owner, '002', 10_000);
    const unrefunded = await quoteToSuffix(api(), owner, '007', 5_000);
    await api().post(`/quotes/${failing.id}/execute`).expect(200);
    await api().post(`/quotes/${unrefunded.id}/execute`).expect(200);
    const refundEnded = (quote: { transactionId: string }) =>
      eventually(async () => ['COMPLETED', 'FAILED'].includes((await api().get(`/transactions/${quote.transactionId}`).expect(200)).body.refund?.status));
    await refundEnded(failing);
    await refundEnded(unrefunded);

    expect(commits(await events.readStream(streamNameFor(failing.id)))).toEqual([
      ['quote:QuoteCreated'], ['quote:QuoteExecutionRequested', 'quote:QuoteFundsHeld'], ['quote:QuoteFailed'], ['quote:QuoteRefundCompleted'],
    ]);
    const failed = commits(await flowEvents(failing.id, owner.usd.id));
    expect(failed).toContainEqual(['internalAccount:HoldReleased', 'quote:QuoteRefundCompleted']);
    const unrefundedCommits = commits(await flowEvents(unrefunded.id, owner.usd.id));
    expect(unrefundedCommits).toContainEqual(['quote:QuoteFailed']);
    expect(unrefundedCommits).toContainEqual(['internalAccount:HoldSettled', 'quote:QuoteRefundFailed']);
    expect(await balances(api(), owner.usd.id)).toEqual({ available: 25_000, total: 25_000 });
  });

  it('a short balance still answers 400 INVALID_AMOUNT (reason INSUFFICIENT_FUNDS) with the balance, recorded step by step, with nothing held', async () => {
    const owner = await fundedCustomer(api(), 10_000);
    const first = await quoteToSuffix(api(), owner, '789', 5_000);
    const quote = await quoteToSuffix(api(), owner, '789', 8_000);
    await api().post(`/quotes/${first.id}/execute`).expect(200);

    const refused = await api().post(`/quotes/${quote.id}/execute`).expect(400);

    expect(refused.body).toEqual({
      status: 400, code: 'INVALID_AMOUNT', message: 'The account balance is too low for this quote',
      details: { reason: 'INSUFFICIENT_FUNDS', accountId: owner.usd.id, available: 5_000, requested: 8_000 },
    });
    expect((await api().get(`/quotes/${quote.id}`).expect(200)).body).toEqual(quote);
    const quoteCommits = commits(await events.readStream(streamNameFor(quote.id)));
    expect(quoteCommits).toEqual([['quote:QuoteCreated'], ['quote:QuoteExecutionRequested'], ['quote:QuoteExecutionRejected']]);
    const ledger = await events.readStream(streamNameFor(owner.usd.id));
    expect(ledger.filter((event) => event.type === 'FundsHeld').map((event) => event.data.holdId)).toEqual([holdIdFor(first.id, 1)]);
    expect((await balances(api(), owner.usd.id)).available).toBe(5_000);
  });

  it('a payout to an internal account (two accounts move) keeps the sequential settlement', async () => {
    const owner = await fundedCustomer(api(), 30_000);
    const peer = await fundedCustomer(api(), 0);
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.usd.id, peer.usd.id, 10_000)).expect(201)).body;
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    await quoteWithStatus(api(), quote.id, 'COMPLETED');

    const ownerCommits = commits(await flowEvents(quote.id, owner.usd.id));
    expect(ownerCommits).toContainEqual(['internalAccount:FundsHeld', 'quote:QuoteExecutionRequested', 'quote:QuoteFundsHeld']);
    expect(ownerCommits).toContainEqual(['internalAccount:HoldSettled']);
    expect(ownerCommits).toContainEqual(['quote:QuoteCompleted']);
    expect(await balances(api(), peer.usd.id)).toEqual({ available: quote.totalReceivingAmount, total: quote.totalReceivingAmount });
  });
});
