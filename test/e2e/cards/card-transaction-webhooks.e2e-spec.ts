import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { Cardholder, approvedCardholder } from './card-fixtures';
import { authorize, eventOf, fundedCard, simulate } from './card-simulate-support';

/** Retries within a test's time (as in the webhooks suites). */
const FAST_WEBHOOKS_ENV = {
  WEBHOOK_RETRY_BASE_DELAY_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '400',
  WEBHOOK_TIMEOUT_MS: '2000',
};

/**
 * `CARD_TRANSACTION.<status>` and `CARD.FUNDING_SOURCE_CHANGE` end to end: stored event ->
 * webhook reactor -> queue -> worker -> a signed POST to a real local receiver, whose `data` is
 * the resource as GET answered right after the event (docs/cards.md "Card transactions on the wire").
 */
describe('card transaction and funding source webhooks', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;
  let other: TestPlatform;

  beforeAll(async () => {
    testApp = await startTestApp({ env: FAST_WEBHOOKS_ENV });
    receiver = await WebhookReceiver.start();
    receiver.publicKeyPem = (await testApp.platform.api.get('/config').expect(200)).body.webhookPublicKey;
    await testApp.platform.api.patch('/config').send({ webhookEndpoint: receiver.url('/platform-a') }).expect(200);
    other = await testApp.createPlatform();
    await other.api.patch('/config').send({ webhookEndpoint: receiver.url('/platform-b') }).expect(200);
  });

  afterAll(async () => {
    await receiver?.close();
    await testApp?.close();
  });

  const api = () => testApp.platform.api;
  const get = async (transactionId: string) => (await api().get(`/transactions/${transactionId}`).expect(200)).body;
  const hooksOf = (transactionId: string) => receiver.received.filter((entry) => entry.body.type.startsWith('CARD_TRANSACTION.') && entry.body.data?.id === transactionId);
  const hook = (transactionId: string, status: string) =>
    receiver.waitFor((entry) => entry.body.type === `CARD_TRANSACTION.${status}` && entry.body.data?.id === transactionId);

  let holder: Cardholder;
  let card: any;
  beforeAll(async () => {
    holder = await approvedCardholder(testApp.platform.api);
    card = await fundedCard(testApp.platform.api, holder, 100_000);
  });

  it('AUTHORIZED on approval, nothing for the pull confirmation, SETTLED by the clearing: each signed, carrying the view of that moment', async () => {
    const declined = await authorize(api(), card.id, 700, 'NO FUNDS 002');
    const transactionId = await authorize(api(), card.id, 2_500);
    const authorized = await hook(transactionId, 'AUTHORIZED');
    expect(authorized.signatureValid).toBe(true);
    expect(authorized.path).toBe('/platform-a');
    expect(authorized.body).toEqual({ id: expect.stringMatching(/^Webhook:[0-9a-f-]{36}$/), type: 'CARD_TRANSACTION.AUTHORIZED', timestamp: expect.any(String), data: expect.any(Object) });
    const confirmed = await eventOf(api(), transactionId, 'CardPullConfirmed');
    const afterConfirmation = await get(transactionId);
    expect(afterConfirmation.lastEventAt).toBe(confirmed.data.confirmedAt);
    const { lastEventAt: _confirmedAt, ...beforeConfirmation } = afterConfirmation;
    // The view right after the authorization: the pull still pending, no later event.
    expect(authorized.body.data).toEqual({ ...beforeConfirmation, pullSummary: { ...afterConfirmation.pullSummary, pendingCount: 1 }, updatedAt: authorized.body.data.authorizedAt });

    await simulate(api(), card.id, 'clearing', { cardTransactionId: transactionId, amount: 2_500 });
    const settledView = await get(transactionId);
    const settled = await hook(transactionId, 'SETTLED');
    expect(settled.body.data).toEqual(settledView);
    expect(settled.signatureValid).toBe(true);
    expect(hooksOf(transactionId).map((entry) => entry.body.type)).toEqual(['CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.SETTLED']);
    expect(receiver.received.filter((entry) => entry.body.data?.id === declined)).toEqual([]);
  });

  it('a pull confirmation that fails (suffix 006) is CARD_TRANSACTION.EXCEPTION', async () => {
    const transactionId = await authorize(api(), card.id, 1_000, 'PULL FAILS 006');
    await hook(transactionId, 'AUTHORIZED');
    const exception = await hook(transactionId, 'EXCEPTION');
    expect(exception.body.data).toEqual(await get(transactionId));
    expect(exception.body.data).toMatchObject({ status: 'EXCEPTION', pullSummary: { count: 1, totalAmount: 0, pendingCount: 0 } });
  });

  it('a single-message authorization is AUTHORIZED, then SETTLED', async () => {
    const transactionId = await authorize(api(), card.id, 300, undefined, 'financial_authorization');
    const [authorized, settled] = await Promise.all([hook(transactionId, 'AUTHORIZED'), hook(transactionId, 'SETTLED')]);
    expect(settled.body.data).toEqual(await get(transactionId));
    // Approval and clearing are one commit: the view right after the approval is still AUTHORIZED.
    expect(authorized.body.data).toMatchObject({ status: 'AUTHORIZED', settlementSummary: { count: 0, totalAmount: 0 } });
    expect(hooksOf(transactionId)).toHaveLength(2);
  });

  it('CARD.FUNDING_SOURCE_CHANGE after a PATCH of the funding sources carries the card as PATCH answered it; other changes send none', async () => {
    const limited = (await api().patch(`/cards/${card.id}`).send({ maxSpendPerTransaction: 90_000 }).expect(200)).body;
    const sources = [holder.accounts.USDC.id, holder.accounts.USD.id];
    const changed = (await api().patch(`/cards/${card.id}`).send({ fundingSources: sources }).expect(200)).body;
    expect(changed).toEqual({ ...limited, fundingSources: sources, updatedAt: changed.updatedAt });
    const change = await receiver.waitFor((entry) => entry.body.type === 'CARD.FUNDING_SOURCE_CHANGE' && entry.body.data?.id === card.id);
    expect(change.body).toEqual({ id: expect.stringMatching(/^Webhook:[0-9a-f-]{36}$/), type: 'CARD.FUNDING_SOURCE_CHANGE', timestamp: expect.any(String), data: changed });
    expect(change.signatureValid).toBe(true);
    expect(change.path).toBe('/platform-a');
    expect(receiver.received.filter((entry) => entry.body.type === 'CARD.FUNDING_SOURCE_CHANGE' && entry.body.data?.id === card.id)).toHaveLength(1);
  });

  it("each platform receives only its own card transactions' webhooks", async () => {
    const theirs = await approvedCardholder(other.api);
    const theirCard = await fundedCard(other.api, theirs, 5_000);
    const transactionId = await authorize(other.api, theirCard.id, 1_000);
    const authorized = await hook(transactionId, 'AUTHORIZED');
    expect(authorized.path).toBe('/platform-b');
    expect(authorized.body.data).toMatchObject({ id: transactionId, customerId: theirs.customer.id, status: 'AUTHORIZED' });
    expect(hooksOf(transactionId).every((entry) => entry.path === '/platform-b')).toBe(true);
  });
});
