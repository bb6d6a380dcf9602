import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { transactionsProjection } from '../../../projections/transactions/transactions.projection';
import { EVENT_STORE, EventStore } from '../../../src/infra/event-store/event-store.port';
import { verifyProjection } from '../../../src/infra/projections/projection-rebuild';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { Cardholder, approvedCardholder } from './card-fixtures';
import { ISO, authorize, eventOf, fundedCard, merchant, simulate } from './card-simulate-support';

const USD = { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 };

/**
 * Card transactions on `GET /transactions` (docs/cards.md "Card transactions on the wire"): one
 * list and one cursor with the payments, the reference's CardTransaction by id, the filters
 * (cardholder, funding account as sender or receiver, type, status), tenancy, and the read
 * model rebuilding row for row.
 */
describe('card transactions on GET /transactions', () => {
  let testApp: TestApp;
  let other: TestPlatform;
  let holder: Cardholder;
  let card: any;
  let transactionId: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    other = await testApp.createPlatform();
    holder = await approvedCardholder(testApp.platform.api);
    card = await fundedCard(testApp.platform.api, holder, 10_000);
    transactionId = await authorize(testApp.platform.api, card.id, 1_250);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const get = async (id: string) => (await api().get(`/transactions/${id}`).expect(200)).body;
  const list = async (query: Record<string, unknown>) => (await api().get('/transactions').query(query).expect(200)).body;

  it('GET by id answers the reference CardTransaction: AUTHORIZED, then its pull confirmed', async () => {
    const token = transactionId.slice('CardTransaction:'.length);
    const authorized = {
      type: 'CARD',
      id: transactionId,
      cardId: card.id,
      customerId: holder.customer.id,
      platformCustomerId: holder.customer.platformCustomerId,
      issuerTransactionToken: token,
      status: 'AUTHORIZED',
      direction: 'DEBIT',
      merchant: merchant(),
      authorizedAmount: { amount: 1_250, currency: USD },
      accountId: holder.accounts.USD.id,
      pullSummary: { count: 1, totalAmount: 1_250, pendingCount: expect.any(Number) },
      refundSummary: { count: 0, totalAmount: 0 },
      settlementSummary: { count: 0, totalAmount: 0 },
      authorizedAt: expect.stringMatching(ISO),
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    };
    const first = await get(transactionId);
    expect(first).toEqual(first.pullSummary.pendingCount === 1 ? authorized : { ...authorized, lastEventAt: expect.stringMatching(ISO) });
    expect(first.createdAt).toBe(first.authorizedAt);

    const confirmed = await eventOf(api(), transactionId, 'CardPullConfirmed');
    const after = await eventually(async () => {
      const body = await get(transactionId);
      return body.pullSummary.pendingCount === 0 && body;
    });
    expect(after).toEqual({
      ...authorized,
      pullSummary: { count: 1, totalAmount: 1_250, pendingCount: 0 },
      authorizedAt: first.authorizedAt,
      createdAt: first.authorizedAt,
      lastEventAt: confirmed.data.confirmedAt,
      updatedAt: confirmed.data.confirmedAt,
    });
  });

  it('the list shows it as type CARD next to the payments, newest first, filtered by cardholder', async () => {
    const page = await list({ customerId: holder.customer.id });
    expect(page.data.map((transaction: any) => transaction.type)).toEqual(['CARD', 'INCOMING']);
    expect(page.data[0]).toEqual(await get(transactionId));
    expect(page.totalCount).toBe(2);
    const otherHolder = await approvedCardholder(api());
    expect((await list({ customerId: otherHolder.customer.id })).data).toEqual([]);
  });

  it('a DEBIT is sent from its funding account; type and status filter it; a card status is a filter value', async () => {
    const account = holder.accounts.USD.id;
    const idsOf = (page: any) => page.data.map((transaction: any) => transaction.id);
    expect(idsOf(await list({ senderAccountIdentifier: account }))).toEqual([transactionId]);
    expect(idsOf(await list({ receiverAccountIdentifier: account }))).not.toContain(transactionId);
    expect(idsOf(await list({ accountIdentifier: account }))).toContain(transactionId);
    expect(idsOf(await list({ accountId: account }))).toContain(transactionId);
    expect(idsOf(await list({ customerId: holder.customer.id, type: 'INCOMING' }))).not.toContain(transactionId);
    expect(idsOf(await list({ customerId: holder.customer.id, status: 'AUTHORIZED' }))).toEqual([transactionId]);
    expect(idsOf(await list({ customerId: holder.customer.id, status: 'SETTLED' }))).toEqual([]);
    const bad = await api().get('/transactions').query({ status: 'SETTLING' }).expect(400);
    expect(bad.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  });

  it('a cursor after a card transaction continues the list', async () => {
    const first = await list({ customerId: holder.customer.id, limit: 1 });
    expect(first).toMatchObject({ hasMore: true, totalCount: 2, data: [{ id: transactionId }] });
    const second = await list({ customerId: holder.customer.id, limit: 1, cursor: first.nextCursor });
    expect(second).toMatchObject({ hasMore: false, data: [{ type: 'INCOMING' }] });
  });

  it('a settled clearing shows on GET at once: SETTLED with its settled amount', async () => {
    await simulate(api(), card.id, 'clearing', { cardTransactionId: transactionId, amount: 1_250 });
    const body = await get(transactionId);
    expect(body).toMatchObject({
      status: 'SETTLED',
      settledAmount: { amount: 1_250, currency: USD },
      settlementSummary: { count: 1, totalAmount: 1_250 },
      pullSummary: { count: 1, totalAmount: 1_250, pendingCount: 0 },
    });
    expect(body.updatedAt).toBe(body.lastEventAt);
  });

  it('a declined authorization shows no transaction', async () => {
    const declined = await authorize(api(), card.id, 500, 'PAUSED SHOP 003');
    await eventOf(api(), declined, 'CardAuthorizationDeclined');
    await api().get(`/transactions/${declined}`).expect(404);
    expect((await list({ customerId: holder.customer.id })).data.map((transaction: any) => transaction.id)).not.toContain(declined);
  });

  it("another platform's card transaction, or an unknown one, is 404 and in no list", async () => {
    const notFound = await other.api.get(`/transactions/${transactionId}`).expect(404);
    expect(notFound.body).toMatchObject({ status: 404, code: 'TRANSACTION_NOT_FOUND' });
    expect((await other.api.get('/transactions').query({ customerId: holder.customer.id }).expect(200)).body.data).toEqual([]);
    expect((await other.api.get('/transactions').expect(200)).body.data.map((transaction: any) => transaction.id)).not.toContain(transactionId);
    await api().get(`/transactions/CardTransaction:${randomUUID()}`).expect(404);
  });

  it('the transactions read model rebuilds from the log row for row, card rows included', async () => {
    const pool = new Pool({ connectionString: testApp.databaseUrl, max: 2 });
    try {
      const { differences } = await verifyProjection(pool, testApp.app.get<EventStore>(EVENT_STORE), transactionsProjection);
      expect(differences).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
