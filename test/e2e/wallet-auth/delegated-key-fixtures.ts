import { WalletKeyPair, stampPayload } from '../../../src/wallet-auth/client';
import { accountsByCurrency, uniqueId } from '../../support/customer-fixtures';
import { PlatformClient, TestApp, TestPlatform, eventually } from '../../support/test-app';
import { TestWallet, createWallet } from './wallet-fixtures';

/** A wallet with a live session, and a card its customer holds, funded by the wallet. */
export interface FundedCard {
  wallet: TestWallet;
  sessionKey: WalletKeyPair;
  card: any;
  body: { cardId: string; internalAccountId: string; nickname: string };
}

export async function walletCard(testApp: TestApp, platform: TestPlatform = testApp.platform): Promise<FundedCard> {
  const wallet = await createWallet(testApp, platform);
  const { sessionKey } = await wallet.client.loginWithOtp(wallet.emailCredentialId);
  const card = await issueWalletCard(platform.api, wallet);
  return { wallet, sessionKey, card, body: { cardId: card.id, internalAccountId: wallet.accountId, nickname: 'Card payments key' } };
}

/** A card of the wallet's customer funded by the wallet (and `extra` funding accounts), once the sandbox issuer made it ACTIVE. */
export async function issueWalletCard(api: PlatformClient, wallet: TestWallet, extraFunding: string[] = []): Promise<any> {
  const body = { cardholderId: wallet.customerId, form: 'VIRTUAL', fundingSources: [wallet.accountId, ...extraFunding], platformCardId: uniqueId('card') };
  const card = (await api.post('/cards').send(body).expect(201)).body;
  return eventually(async () => {
    const found = (await api.get(`/cards/${card.id}`).expect(200)).body;
    return found.state === 'ACTIVE' && found;
  });
}

export async function fiatAccountOf(api: PlatformClient, customerId: string): Promise<any> {
  return (await accountsByCurrency(api, customerId)).USD;
}

/** The three legs: 202, signed 202, signed 201; answers each leg's response. */
export async function createDelegatedKey(api: PlatformClient, body: object, key: WalletKeyPair): Promise<{ first: any; second: any; created: any }> {
  const first = (await api.post('/auth/delegated-keys').send(body).expect(202)).body;
  const second = (await signedRetry(api, body, first, key).expect(202)).body;
  const created = (await signedRetry(api, body, second, key).expect(201)).body;
  return { first, second, created };
}

export function signedRetry(api: PlatformClient, body: object, challenge: { payloadToSign: string; requestId: string }, key: WalletKeyPair) {
  return api.post('/auth/delegated-keys').set({ 'Service-Wallet-Signature': stampPayload(challenge.payloadToSign, key), 'Request-Id': challenge.requestId }).send(body);
}
