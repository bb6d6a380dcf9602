import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { FundedCustomer, fundedCustomer, quoteToSuffix, transactionWithStatus } from '../../support/quote-fixtures';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { approvedCardholder, cardInState, issueCard } from '../cards/card-fixtures';

const UNKNOWN_CARD = 'Card:0195f3a0-0000-7000-8000-000000000000';
const NOT_FOUND = { status: 404, code: 'REFERENCE_NOT_FOUND', message: 'Resource not found' };

/**
 * The platform console API (docs/console.md "Console API"): search, a resource's page (state as
 * GET shows it, whole history, related resources and a payment's chain), time travel, tenancy.
 */
describe('console API: explorer', () => {
  let testApp: TestApp;
  let other: TestPlatform;
  let receiver: WebhookReceiver;
  let owner: FundedCustomer;
  let quote: any;

  const api = () => testApp.platform.api;
  const deliveredAbout = (transactionId: string, type: string) =>
    eventually(async () => {
      const deliveries = await api().get('/webhooks/deliveries').query({ type }).expect(200);
      return deliveries.body.data.find((delivery: any) => delivery.payload.data.id === transactionId && delivery.status === 'DELIVERED');
    });

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
    other = await testApp.createPlatform();
    owner = await fundedCustomer(api());
    quote = await quoteToSuffix(api(), owner, '789');
    await api().post(`/quotes/${quote.id}/execute`).expect(200);
    await transactionWithStatus(api(), quote.transactionId, 'COMPLETED');
    await deliveredAbout(quote.transactionId, 'OUTGOING_PAYMENT.COMPLETED');
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  it('finds a resource by id and a customer by its platformCustomerId; nothing for unknown text', async () => {
    const byId = await api().get('/console/search').query({ q: quote.id }).expect(200);
    expect(byId.body).toEqual({ data: [{ id: quote.id, type: 'Quote', label: expect.stringContaining('COMPLETED') }] });
    const byPlatformCustomerId = await api().get('/console/search').query({ q: owner.customer.platformCustomerId }).expect(200);
    expect(byPlatformCustomerId.body).toEqual({ data: [{ id: owner.customer.id, type: 'Customer', label: expect.stringContaining(owner.customer.platformCustomerId) }] });
    const transaction = await api().get('/console/search').query({ q: quote.transactionId }).expect(200);
    expect(transaction.body.data).toEqual([{ id: quote.transactionId, type: 'Transaction', label: expect.stringContaining('COMPLETED') }]);
    expect((await api().get('/console/search').query({ q: UNKNOWN_CARD }).expect(200)).body).toEqual({ data: [] });
    expect((await api().get('/console/search').query({ q: 'no such customer' }).expect(200)).body).toEqual({ data: [] });
  });

  it('answers 400 listing every bad search parameter', async () => {
    const missing = await api().get('/console/search').expect(400);
    expect(missing.body.code).toBe('INVALID_INPUT');
    expect(missing.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['q']);
    const empty = await api().get('/console/search').query({ q: '' }).expect(400);
    expect(empty.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['q']);
    const long = await api().get('/console/search').query({ q: 'x'.repeat(256), page: '2' }).expect(400);
    expect(long.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['page', 'q']);
  });

  it("shows a customer with its accounts, quotes, transactions and cards, and its whole history", async () => {
    const external = await createUsdExternalAccount(api(), owner.customer.id, '321');
    const card = await issueCard(api(), { customer: owner.customer, accounts: owner.accounts });
    const page = await api().get(`/console/resources/${owner.customer.id}`).expect(200);
    const customer = (await api().get(`/customers/${owner.customer.id}`).expect(200)).body;
    expect(page.body).toEqual({ id: owner.customer.id, type: 'Customer', state: customer, events: expect.any(Array), related: expect.any(Array) });
    const audit = await api().get('/audit/events').query({ resourceId: owner.customer.id, limit: 100 }).expect(200);
    expect(page.body.events).toEqual(audit.body.data);
    const relatedIds = (relation: string) => page.body.related.filter((item: any) => item.relation === relation).map((item: any) => item.id).sort();
    expect(relatedIds('account')).toEqual([...Object.values(owner.accounts).map((account: any) => account.id), external.id, quote.destination.accountId].sort());
    expect(relatedIds('quote')).toEqual([quote.id]);
    expect(relatedIds('transaction')).toEqual(expect.arrayContaining([quote.transactionId]));
    expect(relatedIds('card')).toEqual([card.id]);
  });

  it("shows a quote's chain in order: holds, settlement, transaction, then each webhook and its delivery", async () => {
    const page = await api().get(`/console/resources/${quote.id}`).expect(200);
    expect(page.body.state).toEqual((await api().get(`/quotes/${quote.id}`).expect(200)).body);
    expect(page.body.events.map((event: any) => event.type)).toEqual(['QuoteCreated', 'QuoteExecutionRequested', 'QuoteFundsHeld', 'QuoteCompleted']);
    const relations = page.body.related.map((item: any) => item.relation);
    expect(relations.slice(0, 3)).toEqual(['hold', 'settlement', 'transaction']);
    expect(page.body.related.slice(0, 2).map((item: any) => [item.id, item.label.split(' · ')[0]])).toEqual([
      [owner.usd.id, 'FundsHeld'],
      [owner.usd.id, 'HoldSettled'],
    ]);
    expect(page.body.related[2]).toEqual({ id: quote.transactionId, type: 'Transaction', label: expect.stringContaining('COMPLETED'), relation: 'transaction' });
    const webhooks = page.body.related.slice(3);
    expect(webhooks.map((item: any) => item.relation)).toEqual(['webhook', 'delivery', 'webhook', 'delivery', 'webhook', 'delivery']);
    expect(webhooks.filter((item: any) => item.relation === 'webhook').map((item: any) => item.label)).toEqual([
      'Webhook · OUTGOING_PAYMENT.PENDING',
      'Webhook · OUTGOING_PAYMENT.PROCESSING',
      'Webhook · OUTGOING_PAYMENT.COMPLETED',
    ]);

    // The transaction's page: the same chain, its quote first; its history is its quote's stream.
    const transaction = await api().get(`/console/resources/${quote.transactionId}`).expect(200);
    expect(transaction.body.state).toEqual((await api().get(`/transactions/${quote.transactionId}`).expect(200)).body);
    expect(transaction.body.events).toEqual(page.body.events);
    expect(transaction.body.related.map((item: any) => item.relation)).toEqual(['quote', 'hold', 'settlement', ...webhooks.map((item: any) => item.relation)]);

    // A delivery's page: the delivery as the log lists it, its webhook and the transaction it carried.
    const completed = await deliveredAbout(quote.transactionId, 'OUTGOING_PAYMENT.COMPLETED');
    const delivery = await api().get(`/console/resources/${completed.id}`).expect(200);
    expect(delivery.body).toEqual({ id: completed.id, type: 'WebhookDelivery', state: completed, events: [], related: expect.any(Array) });
    expect(delivery.body.related).toEqual(
      expect.arrayContaining([
        { id: quote.transactionId, type: 'Transaction', label: 'Transaction', relation: 'transaction' },
        { id: completed.webhookId, type: 'Webhook', label: 'Webhook · OUTGOING_PAYMENT.COMPLETED', relation: 'webhook' },
      ]),
    );
    expect((await api().get(`/console/resources/${completed.webhookId}`).expect(200)).body.state).toEqual(completed);
  });

  it('time-travels: the state after each revision is what GET showed at that time', async () => {
    const holder = await approvedCardholder(api());
    const created = await issueCard(api(), holder);
    const active = await cardInState(api(), created.id, 'ACTIVE');
    const frozen = (await api().patch(`/cards/${created.id}`).send({ state: 'FROZEN' }).expect(200)).body;
    const stateAt = async (revision: number) => (await api().get(`/console/resources/${created.id}/state`).query({ revision }).expect(200)).body;
    expect(await stateAt(0)).toEqual({ id: created.id, type: 'Card', revision: 0, state: created });
    expect(await stateAt(1)).toEqual({ id: created.id, type: 'Card', revision: 1, state: active });
    expect(await stateAt(2)).toEqual({ id: created.id, type: 'Card', revision: 2, state: frozen });
    const page = await api().get(`/console/resources/${created.id}`).expect(200);
    expect(page.body.state).toEqual(frozen);
    expect(page.body.events.map((event: any) => event.revision)).toEqual([0, 1, 2]);

    // A quote and its transaction, folded from the quote's stream.
    const completedQuote = (await api().get(`/quotes/${quote.id}`).expect(200)).body;
    const quoteAt = async (id: string, revision: number) => (await api().get(`/console/resources/${id}/state`).query({ revision }).expect(200)).body.state;
    expect(await quoteAt(quote.id, 0)).toEqual(quote);
    expect(await quoteAt(quote.id, 3)).toEqual(completedQuote);
    expect((await quoteAt(quote.transactionId, 0)).status).toBe('PENDING');
    expect((await quoteAt(quote.transactionId, 2)).status).toBe('PROCESSING');
    expect(await quoteAt(quote.transactionId, 3)).toEqual((await api().get(`/transactions/${quote.transactionId}`).expect(200)).body);

    // A customer, opened as GET shows it.
    const customer = (await api().get(`/customers/${owner.customer.id}`).expect(200)).body;
    const history = (await api().get(`/console/resources/${owner.customer.id}`).expect(200)).body.events;
    expect(await quoteAt(owner.customer.id, history[history.length - 1].revision)).toEqual(customer);
  });

  it('answers 400 for a bad revision and 404 for an unknown id', async () => {
    const card = (await api().get(`/console/resources/${owner.customer.id}`).expect(200)).body.related.find((item: any) => item.relation === 'card');
    for (const revision of ['abc', '-1', '1.5', '']) {
      const response = await api().get(`/console/resources/${card.id}/state`).query({ revision }).expect(400);
      expect(response.body.details.errors.map((error: { field: string }) => error.field)).toEqual(['revision']);
    }
    const missing = await api().get(`/console/resources/${card.id}/state`).expect(400);
    expect(missing.body.details.errors).toEqual([{ field: 'revision', constraint: expect.any(Object), message: expect.stringContaining('revision') }]);
    const beyond = await api().get(`/console/resources/${card.id}/state`).query({ revision: 99 }).expect(400);
    expect(beyond.body.details.errors).toEqual([{ field: 'revision', constraint: {}, message: expect.stringMatching(/^revision must be from 0 to \d$/) }]);
    const delivery = (await api().get('/webhooks/deliveries').expect(200)).body.data[0];
    const noHistory = await api().get(`/console/resources/${delivery.id}/state`).query({ revision: 0 }).expect(400);
    expect(noHistory.body.details.errors[0].message).toBe(`${delivery.id} has no event history`);

    for (const id of [UNKNOWN_CARD, 'nope', 'Card:not-a-uuid', 'WebhookDelivery:0195f3a0-0000-7000-8000-000000000000']) {
      expect((await api().get(`/console/resources/${encodeURIComponent(id)}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await api().get(`/console/resources/${encodeURIComponent(id)}/state`).query({ revision: 0 }).expect(404)).body).toEqual(NOT_FOUND);
    }
  });

  it("knows nothing of another platform's ids", async () => {
    const card = (await api().get(`/console/resources/${owner.customer.id}`).expect(200)).body.related.find((item: any) => item.relation === 'card');
    const delivery = (await api().get('/webhooks/deliveries').expect(200)).body.data[0];
    for (const id of [owner.customer.id, owner.usd.id, quote.id, quote.transactionId, card.id, delivery.id, delivery.webhookId]) {
      expect((await other.api.get('/console/search').query({ q: id }).expect(200)).body).toEqual({ data: [] });
      expect((await other.api.get(`/console/resources/${id}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await other.api.get(`/console/resources/${id}/state`).query({ revision: 0 }).expect(404)).body).toEqual(NOT_FOUND);
    }
    expect((await other.api.get('/console/search').query({ q: owner.customer.platformCustomerId }).expect(200)).body).toEqual({ data: [] });
  });
});
