import { TestApp, TestPlatform, startTestApp } from '../../support/test-app';
import { uniqueId } from '../../support/customer-fixtures';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { approvedCardholder, cardInState, issueCard } from './card-fixtures';

/** Retries within a test's time (as in the webhooks suites). */
const FAST_WEBHOOKS_ENV = {
  WEBHOOK_RETRY_BASE_DELAY_MS: '100',
  WEBHOOK_RETRY_MAX_DELAY_MS: '400',
  WEBHOOK_TIMEOUT_MS: '2000',
};

/**
 * `CARD.STATE_CHANGE` end to end: stored card event -> webhook reactor -> queue -> worker -> a
 * signed POST to a real local receiver, whose `data` is the card as GET answered at that moment.
 */
describe('CARD.STATE_CHANGE webhooks', () => {
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

  const cardWebhooksOf = (cardId: string) => receiver.received.filter((entry) => entry.body.type === 'CARD.STATE_CHANGE' && entry.body.data?.id === cardId);
  const stateChange = (cardId: string, state: string) =>
    receiver.waitFor((entry) => entry.body.type === 'CARD.STATE_CHANGE' && entry.body.data?.id === cardId && entry.body.data.state === state);

  it('issued, frozen, unfrozen, closed: one signed webhook each, carrying the card as GET showed it', async () => {
    const api = testApp.platform.api;
    const holder = await approvedCardholder(api);
    const created = await issueCard(api, holder);
    const active = await cardInState(api, created.id, 'ACTIVE');
    const issuedHook = await stateChange(created.id, 'ACTIVE');
    expect(issuedHook.signatureValid).toBe(true);
    expect(issuedHook.path).toBe('/platform-a');
    expect(issuedHook.body).toEqual({ id: expect.stringMatching(/^Webhook:[0-9a-f-]{36}$/), type: 'CARD.STATE_CHANGE', timestamp: expect.any(String), data: active });

    // Not state changes: no webhook.
    const limited = (await api.patch(`/cards/${created.id}`).send({ maxSpendPerTransaction: 4_000 }).expect(200)).body;
    const frozen = (await api.patch(`/cards/${created.id}`).send({ state: 'FROZEN' }).expect(200)).body;
    expect(frozen).toEqual({ ...limited, state: 'FROZEN', updatedAt: frozen.updatedAt });
    expect((await stateChange(created.id, 'FROZEN')).body.data).toEqual(frozen);
    const unfrozen = (await api.patch(`/cards/${created.id}`).send({ state: 'ACTIVE' }).expect(200)).body;
    await receiver.waitFor((entry) => entry.body.data?.id === created.id && entry.body.data.updatedAt === unfrozen.updatedAt);
    const closed = (await api.patch(`/cards/${created.id}`).send({ state: 'CLOSED' }).expect(200)).body;
    const closedHook = await stateChange(created.id, 'CLOSED');
    expect(closedHook.body.data).toEqual(closed);
    expect(closedHook.signatureValid).toBe(true);

    const hooks = cardWebhooksOf(created.id);
    expect(hooks.map((entry) => entry.body.data)).toEqual(expect.arrayContaining([active, frozen, unfrozen, closed]));
    expect(new Set(hooks.map((entry) => entry.body.id)).size).toBe(4);
    expect(hooks.every((entry) => entry.signatureValid === true && entry.path === '/platform-a')).toBe(true);
  });

  it('an issuer rejection (suffix 002) is a webhook to CLOSED with ISSUER_REJECTED; a card that stays PROCESSING (001) sends none', async () => {
    const api = testApp.platform.api;
    const holder = await approvedCardholder(api);
    const silent = await issueCard(api, holder, { platformCardId: uniqueId('s').concat('-001') });
    const created = await issueCard(api, holder, { platformCardId: uniqueId('r').concat('-002') });
    const rejected = await cardInState(api, created.id, 'CLOSED');
    const hook = await stateChange(created.id, 'CLOSED');
    expect(hook.body.data).toEqual(rejected);
    expect(hook.body.data.stateReason).toBe('ISSUER_REJECTED');
    expect(hook.signatureValid).toBe(true);
    expect(cardWebhooksOf(silent.id)).toEqual([]);
  });

  it('each platform receives only its own cards\' webhooks', async () => {
    const holder = await approvedCardholder(other.api);
    const created = await issueCard(other.api, holder);
    const active = await cardInState(other.api, created.id, 'ACTIVE');
    const hook = await stateChange(created.id, 'ACTIVE');
    expect(hook.path).toBe('/platform-b');
    expect(hook.body.data).toEqual(active);
    const paths = new Set(receiver.received.filter((entry) => entry.body.type === 'CARD.STATE_CHANGE' && entry.body.data.cardholderId === holder.customer.id).map((entry) => entry.path));
    expect([...paths]).toEqual(['/platform-b']);
  });
});
