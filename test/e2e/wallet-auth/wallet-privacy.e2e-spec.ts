import { stampPayload } from '../../../src/wallet-auth/client';
import { TestApp, startTestApp } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { createWallet } from './wallet-fixtures';

/**
 * The embedded wallet's privacy setting (`PATCH /internal-accounts/{id}`, signed) as the account
 * lists show it: `privateEnabled` on EMBEDDED_WALLET accounts only, false until a signed PATCH,
 * the same in `GET /internal-accounts`, `GET /customers/internal-accounts` and the PATCH answer.
 */
describe('embedded wallet privacy in the internal account lists', () => {
  let testApp: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await WebhookReceiver.forPlatform(testApp.platform.api);
  });

  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  const api = () => testApp.platform.api;

  async function listed(path: string, customerId: string) {
    return (await api().get(path).query({ customerId }).expect(200)).body.data as Array<Record<string, unknown>>;
  }

  it('false at opening, true after the signed PATCH, in both lists and in the PATCH answer; other accounts have no such field', async () => {
    const wallet = await createWallet(testApp);
    for (const path of ['/internal-accounts', '/customers/internal-accounts']) {
      const accounts = await listed(path, wallet.customerId);
      const walletView = accounts.find((account) => account.id === wallet.accountId)!;
      expect(walletView).toEqual(expect.objectContaining({ type: 'EMBEDDED_WALLET', privateEnabled: false }));
      for (const other of accounts.filter((account) => account.type !== 'EMBEDDED_WALLET')) expect(other).not.toHaveProperty('privateEnabled');
    }

    const { sessionKey } = await wallet.client.loginWithOtp(wallet.emailCredentialId);
    const challenge = (await api().patch(`/internal-accounts/${wallet.accountId}`).send({ privateEnabled: true }).expect(202)).body;
    const done = await api()
      .patch(`/internal-accounts/${wallet.accountId}`)
      .set({ 'Service-Wallet-Signature': stampPayload(challenge.payloadToSign, sessionKey), 'Request-Id': challenge.requestId })
      .send({ privateEnabled: true })
      .expect(200);
    expect(done.body).toEqual(expect.objectContaining({ id: wallet.accountId, customerId: wallet.customerId, type: 'EMBEDDED_WALLET', privateEnabled: true }));

    const [fromInternal] = (await listed('/internal-accounts', wallet.customerId)).filter((account) => account.id === wallet.accountId);
    const [fromCustomers] = (await listed('/customers/internal-accounts', wallet.customerId)).filter((account) => account.id === wallet.accountId);
    expect(fromInternal).toEqual(done.body);
    expect(fromCustomers).toEqual(done.body);

    const filtered = (await api().get('/internal-accounts').query({ customerId: wallet.customerId, type: 'EMBEDDED_WALLET' }).expect(200)).body;
    expect(filtered).toEqual(expect.objectContaining({ data: [done.body], hasMore: false, totalCount: 1 }));

    // Sandbox funding answers the account as GET shows it, privacy included.
    const funded = (await api().post(`/sandbox/internal-accounts/${wallet.accountId}/fund`).send({ amount: 2_500_000 }).expect(200)).body;
    expect(funded).toEqual(expect.objectContaining({ id: wallet.accountId, type: 'EMBEDDED_WALLET', privateEnabled: true }));
    expect(funded).toEqual((await api().get(`/internal-accounts/${wallet.accountId}`).expect(200)).body);
    // So does the balance webhook of that movement.
    const balanceWebhook = await receiver.waitFor(
      (entry) => entry.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' && entry.body.data.id === wallet.accountId && entry.body.data.balance.amount === 2_500_000,
    );
    expect(balanceWebhook.body.data).toEqual(funded);
  });

  it('a refused PATCH (bad body, unsigned retry) changes nothing', async () => {
    const wallet = await createWallet(testApp);
    const bad = await api().patch(`/internal-accounts/${wallet.accountId}`).send({ privateEnabled: 'yes', other: 1 }).expect(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
    expect(bad.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['other', 'privateEnabled']);
    const challenge = (await api().patch(`/internal-accounts/${wallet.accountId}`).send({ privateEnabled: true }).expect(202)).body;
    const unsigned = await api().patch(`/internal-accounts/${wallet.accountId}`).set('Request-Id', challenge.requestId).send({ privateEnabled: true }).expect(401);
    expect(unsigned.body.code).toBe('WALLET_SIGNATURE_MISSING');
    const [view] = (await listed('/internal-accounts', wallet.customerId)).filter((account) => account.id === wallet.accountId);
    expect(view.privateEnabled).toBe(false);
  });
});
