import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { Cardholder, approvedCardholder } from './card-fixtures';
import { transactionEvents } from './card-ledger-support';
import { authorizationBody, authorize, balances, fundedCard, merchant, simulate } from './card-simulate-support';

const UNKNOWN_CARD = 'Card:0199a000-0000-7000-8000-0000000000ff';
const UNKNOWN_TRANSACTION = 'CardTransaction:0199a000-0000-7000-8000-0000000000ff';

/**
 * A second platform and the first one's card transactions: it cannot simulate on the first
 * platform's card, cannot clear, advise, return or reverse the first platform's transactions even
 * through a card of its own, and does not see them on GET /transactions, by id or in the audit
 * history: each answer is exactly the one for an unknown id, and nothing moves.
 */
describe('card transactions between platforms', () => {
  let testApp: TestApp;
  let store: EventStoreService;
  let other: TestPlatform;
  let holder: Cardholder;
  let card: any;
  let otherCard: any;
  /** The first platform's transactions, one in each status a simulation takes. */
  const mine = { authorized: '', settled: '', refunded: '', declined: '' };
  let ownTransaction: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    store = testApp.app.get(EventStoreService);
    other = await testApp.createPlatform();
    const api = testApp.platform.api;
    holder = await approvedCardholder(api);
    card = await fundedCard(api, holder, 100_000);
    mine.authorized = await authorize(api, card.id, 1_000);
    mine.settled = await authorize(api, card.id, 2_000);
    await simulate(api, card.id, 'clearing', { cardTransactionId: mine.settled, amount: 2_000 });
    mine.refunded = await authorize(api, card.id, 3_000);
    await simulate(api, card.id, 'clearing', { cardTransactionId: mine.refunded, amount: 3_000 });
    await simulate(api, card.id, 'return', { cardTransactionId: mine.refunded, amount: 3_000 });
    mine.declined = await authorize(api, card.id, 10, 'SHOP 002');
    const otherHolder = await approvedCardholder(other.api);
    otherCard = await fundedCard(other.api, otherHolder, 100_000);
    ownTransaction = await authorize(other.api, otherCard.id, 500);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  /** The first platform's account and transaction streams, to show the attempts moved nothing. */
  const snapshot = async () => ({
    balances: await balances(testApp.platform.api, holder.accounts.USD.id),
    events: await Promise.all(Object.values(mine).map(async (id) => (await transactionEvents(store, id)).length)),
  });

  it('the ten simulations on the first platform\'s card: 404, exactly as for an unknown card', async () => {
    const before = await snapshot();
    const bodies: Record<string, Record<string, unknown>> = {
      authorization: authorizationBody(100),
      financial_authorization: authorizationBody(100),
      credit_authorization: authorizationBody(100),
      credit_authorization_advice: authorizationBody(100),
      financial_credit_authorization: authorizationBody(100),
      balance_inquiry: { merchant: merchant() },
      clearing: { cardTransactionId: mine.authorized, amount: 100 },
      authorization_advice: { cardTransactionId: mine.authorized, amount: 1_500 },
      return: { cardTransactionId: mine.settled, amount: 100 },
      return_reversal: { cardTransactionId: mine.refunded },
    };
    for (const [operation, body] of Object.entries(bodies)) {
      const unknown = await other.api.post(`/sandbox/cards/${UNKNOWN_CARD}/simulate/${operation}`).send(body).expect(404);
      expect(unknown.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Card not found' });
      const foreign = await other.api.post(`/sandbox/cards/${card.id}/simulate/${operation}`).send(body).expect(404);
      expect({ operation, body: foreign.body }).toEqual({ operation, body: unknown.body });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('through its own card, the first platform\'s transactions are not found: clearing, advice, return, reversal', async () => {
    const before = await snapshot();
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['clearing', { cardTransactionId: mine.authorized, amount: 100 }],
      ['clearing', { cardTransactionId: mine.authorized, amount: 0 }],
      ['authorization_advice', { cardTransactionId: mine.authorized, amount: 1_500 }],
      ['return', { cardTransactionId: mine.settled, amount: 100 }],
      ['return_reversal', { cardTransactionId: mine.refunded }],
      ['clearing', { cardTransactionId: mine.declined, amount: 10 }],
    ];
    for (const [operation, body] of attempts) {
      const unknown = await other.api.post(`/sandbox/cards/${otherCard.id}/simulate/${operation}`).send({ ...body, cardTransactionId: UNKNOWN_TRANSACTION }).expect(404);
      expect(unknown.body).toEqual({ status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Card transaction not found' });
      const foreign = await other.api.post(`/sandbox/cards/${otherCard.id}/simulate/${operation}`).send(body).expect(404);
      expect({ operation, body: foreign.body }).toEqual({ operation, body: unknown.body });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('GET /transactions/{id} and the audit history answer 404 for the first platform\'s card transactions, as for unknown ones', async () => {
    const unknown = await other.api.get(`/transactions/${UNKNOWN_TRANSACTION}`).expect(404);
    for (const id of Object.values(mine)) {
      expect({ id, body: (await other.api.get(`/transactions/${id}`).expect(404)).body }).toEqual({ id, body: unknown.body });
      await other.api.get('/audit/events').query({ resourceId: id }).expect(404);
    }
    // The owner sees them (the declined one excepted: a decline shows no CardTransaction).
    for (const id of [mine.authorized, mine.settled, mine.refunded]) await testApp.platform.api.get(`/transactions/${id}`).expect(200);
  });

  it('GET /transactions lists only the platform\'s own card transactions, even filtered by the other\'s cardholder or account', async () => {
    // `type` filters INCOMING / OUTGOING only (the reference's TransactionType): the CARD rows are picked out here.
    const cardIds = (page: any) => page.data.filter((transaction: any) => transaction.type === 'CARD').map((transaction: any) => transaction.id);
    const all = (await other.api.get('/transactions').query({ limit: 100 }).expect(200)).body;
    expect(cardIds(all)).toEqual([ownTransaction]);
    expect((await other.api.get('/transactions').query({ customerId: holder.customer.id }).expect(200)).body.data).toEqual([]);
    expect((await other.api.get('/transactions').query({ accountId: holder.accounts.USD.id }).expect(200)).body.data).toEqual([]);
    // And the first platform lists its three, not the second's.
    const listed = (await testApp.platform.api.get('/transactions').query({ limit: 100 }).expect(200)).body;
    expect(cardIds(listed).sort()).toEqual([mine.authorized, mine.settled, mine.refunded].sort());
  });
});
