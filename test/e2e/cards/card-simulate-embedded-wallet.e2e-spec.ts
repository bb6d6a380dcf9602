import { fund } from '../../support/customer-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { createDelegatedKey, fiatAccountOf, issueWalletCard, walletCard } from '../wallet-auth/delegated-key-fixtures';
import { authorize, balances, history } from './card-simulate-support';

/**
 * An EMBEDDED_WALLET funding account pays a card authorization only when the card funding
 * source's delegated key stamps the pull: without one (or once revoked) it is skipped, and the
 * next funding account, or a FUNDING_SOURCE_UNAVAILABLE decline, follows.
 */
describe('card authorizations funded by an embedded wallet', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  it('without a delegated key the wallet is skipped (FUNDING_SOURCE_UNAVAILABLE); with one it pays and the key is recorded; revoked, skipped again', async () => {
    const funded = await walletCard(testApp);
    await fund(api(), funded.wallet.accountId, 20_000_000);
    const skipped = await authorize(api(), funded.card.id, 500);
    expect((await history(api(), skipped))[0].data.reason).toBe('FUNDING_SOURCE_UNAVAILABLE');

    const { created } = await createDelegatedKey(api(), funded.body, funded.sessionKey);
    const paid = await authorize(api(), funded.card.id, 500);
    const [authorized] = await history(api(), paid);
    expect(authorized.data).toMatchObject({ accountId: funded.wallet.accountId, amountCents: 500, amountUnits: 5_000_000, delegatedKeyId: created.id });
    expect(await balances(api(), funded.wallet.accountId)).toEqual({ available: 15_000_000, held: 5_000_000 });

    await api().delete(`/auth/delegated-keys/${created.id}`).expect(204);
    const revoked = await authorize(api(), funded.card.id, 500);
    expect((await history(api(), revoked))[0].data.reason).toBe('FUNDING_SOURCE_UNAVAILABLE');
  });

  it('a wallet without a key is passed over for the next funding account', async () => {
    const funded = await walletCard(testApp);
    const fiat = await fiatAccountOf(api(), funded.wallet.customerId);
    await fund(api(), funded.wallet.accountId, 20_000_000);
    await fund(api(), fiat.id, 1_000);
    const card = await issueWalletCard(api(), funded.wallet, [fiat.id]);
    const transactionId = await authorize(api(), card.id, 400);
    expect((await history(api(), transactionId))[0].data).toMatchObject({ accountId: fiat.id, amountUnits: 400 });
    expect((await history(api(), transactionId))[0].data.delegatedKeyId).toBeUndefined();
    expect(await balances(api(), funded.wallet.accountId)).toEqual({ available: 20_000_000, held: 0 });
  });
});
