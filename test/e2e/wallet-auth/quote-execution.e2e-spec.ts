import { WalletKeyPair, embeddedWalletPayload, generateWalletKeyPair, stampPayload } from '../../../src/wallet-auth/client';
import { WalletClock } from '../../../src/wallet-auth/services/wallet-clock';
import { createUsdExternalAccount, fund } from '../../support/customer-fixtures';
import { accountQuoteBody, balances, quoteWithStatus } from '../../support/quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { stampPayload as turnkeyStamp } from '../../support/wallet-client';
import { TestWallet, createWallet } from './wallet-fixtures';

const FUNDED = 20_000_000;
const SENT = 5_000_000;

/**
 * `POST /quotes/{id}/execute` from an EMBEDDED_WALLET source: the quotes context asks this
 * context's verifier (QUOTE_EXECUTION_SIGNATURE_VERIFIER), which requires a stamp over the quote's
 * payloadToSign by a live session key of the source wallet.
 */
describe('embedded wallet quote execution', () => {
  let testApp: TestApp;
  let clock: WalletClock;

  beforeAll(async () => {
    testApp = await startTestApp();
    clock = testApp.app.get(WalletClock);
  });

  afterEach(() => clock.reset());

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  async function walletQuote(wallet?: TestWallet): Promise<{ wallet: TestWallet; quote: any; payloadToSign: string }> {
    const owner = wallet ?? (await createWallet(testApp));
    await fund(api(), owner.accountId, FUNDED);
    const external = await createUsdExternalAccount(api(), owner.customerId, '789');
    const quote = (await api().post('/quotes').send(accountQuoteBody(owner.accountId, external.id, SENT)).expect(201)).body;
    return { wallet: owner, quote, payloadToSign: embeddedWalletPayload(quote) };
  }

  async function login(wallet: TestWallet): Promise<{ sessionId: string; key: WalletKeyPair }> {
    const { session, sessionKey } = await wallet.client.loginWithOtp(wallet.emailCredentialId);
    return { sessionId: session.id, key: sessionKey };
  }

  function execute(quoteId: string, signature?: string) {
    const call = api().post(`/quotes/${quoteId}/execute`);
    return signature === undefined ? call : call.set('Service-Wallet-Signature', signature);
  }

  async function expectRefused(quoteId: string, walletId: string, signature: string | undefined, code: string, reason?: RegExp) {
    const response = await execute(quoteId, signature);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(code);
    if (reason) expect(response.body.details.reason).toMatch(reason);
    expect((await api().get(`/quotes/${quoteId}`).expect(200)).body.status).toBe('PENDING');
    expect(await balances(api(), walletId)).toEqual({ available: FUNDED, total: FUNDED });
  }

  it('the quote carries the EMBEDDED_WALLET payloadToSign; a stamp by a live session key executes it (200) and it settles', async () => {
    const { wallet, quote, payloadToSign } = await walletQuote();
    expect(quote.paymentInstructions).toEqual([expect.objectContaining({ accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign } })]);
    expect(JSON.parse(payloadToSign)).toMatchObject({ organizationId: wallet.accountId, type: 'ACTIVITY_TYPE_EXECUTE_QUOTE', parameters: { quoteId: quote.id } });
    const { key } = await login(wallet);
    const executed = await execute(quote.id, await turnkeyStamp(payloadToSign, key)).expect(200);
    expect(executed.body).toMatchObject({ id: quote.id, status: 'PROCESSING' });
    expect(await balances(api(), wallet.accountId)).toEqual({ available: FUNDED - SENT, total: FUNDED });
    await quoteWithStatus(api(), quote.id, 'COMPLETED');
  });

  it('the client toolkit stamps and executes it', async () => {
    const { wallet, quote } = await walletQuote();
    const { key } = await login(wallet);
    const executed = await wallet.client.executeQuote(quote, key);
    expect(executed.status).toBe('PROCESSING');
  });

  it('a missing or malformed header, a stamp over another payload: 401 _MISSING, _MALFORMED, _INVALID; nothing held', async () => {
    const { wallet, quote, payloadToSign } = await walletQuote();
    const { key } = await login(wallet);
    await expectRefused(quote.id, wallet.accountId, undefined, 'WALLET_SIGNATURE_MISSING');
    await expectRefused(quote.id, wallet.accountId, 'not base64url!', 'WALLET_SIGNATURE_MALFORMED');
    await expectRefused(quote.id, wallet.accountId, stampPayload(`${payloadToSign} `, key), 'WALLET_SIGNATURE_INVALID', /does not verify/);
  });

  it('a stamp by a key that is no session, by another wallet session, by an expired or a revoked session: 401 WALLET_SIGNATURE_INVALID', async () => {
    const { wallet, quote, payloadToSign } = await walletQuote();
    const other = await createWallet(testApp);
    const otherSession = await login(other);
    await expectRefused(quote.id, wallet.accountId, stampPayload(payloadToSign, generateWalletKeyPair()), 'WALLET_SIGNATURE_INVALID', /not an active session key/);
    await expectRefused(quote.id, wallet.accountId, stampPayload(payloadToSign, otherSession.key), 'WALLET_SIGNATURE_INVALID', /not an active session key/);

    const revoked = await login(wallet);
    const live = await login(wallet);
    await wallet.client.revokeSession(revoked.sessionId, live.key);
    await expectRefused(quote.id, wallet.accountId, stampPayload(payloadToSign, revoked.key), 'WALLET_SIGNATURE_INVALID', /not an active session key/);

    // Sessions last 15 minutes: this context's clock moves past them (the quote's own clock does not).
    clock.advanceBy(15 * 60 * 1000 + 1000);
    await expectRefused(quote.id, wallet.accountId, stampPayload(payloadToSign, live.key), 'WALLET_SIGNATURE_INVALID', /not an active session key/);
  });

  it('the sandbox literal stands for a live session of the source wallet only', async () => {
    const { wallet, quote } = await walletQuote();
    await expectRefused(quote.id, wallet.accountId, 'sandbox-valid-signature', 'WALLET_SIGNATURE_INVALID');
    await login(wallet);
    expect((await execute(quote.id, 'sandbox-valid-signature').expect(200)).body.status).toBe('PROCESSING');
  });
});
