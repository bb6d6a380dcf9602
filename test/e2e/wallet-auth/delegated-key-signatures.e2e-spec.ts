import { embeddedWalletPayload, stampPayload } from '../../../src/wallet-auth/client';
import { DelegatedKeySigner } from '../../../src/wallet-auth/services/delegated-key-signer';
import { WalletQuoteSignatureVerifier } from '../../../src/wallet-auth/services/quote-signature.verifier';
import { createUsdExternalAccount, fund } from '../../support/customer-fixtures';
import { accountQuoteBody, balances } from '../../support/quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { FundedCard, createDelegatedKey, fiatAccountOf, issueWalletCard, walletCard } from './delegated-key-fixtures';

const FUNDED = 20_000_000;
const DELEGATED_OUT_OF_SCOPE = "Wallet signature key is a delegated key of this wallet: it signs only its card's payments, in place of a session key, never this operation";

/**
 * Where a delegated key's signature counts (issue 24 part 4): the service stamps a card payment
 * of the key's card funding source with it (DelegatedKeySigner, for card payments), and the
 * quote signature check accepts that stamp for a quote paying that card from that wallet only.
 * Everywhere else a stamp by the key is 401 WALLET_SIGNATURE_INVALID: a plain quote execution,
 * every signed wallet action, another card of the wallet, another wallet. Revoked, CLOSED card,
 * or the wallet no longer funding the card: refused from the next request on.
 */
describe('delegated key signatures: in scope, out of scope, after revocation', () => {
  let testApp: TestApp;
  let signer: DelegatedKeySigner;
  let verifier: WalletQuoteSignatureVerifier;

  beforeAll(async () => {
    testApp = await startTestApp();
    signer = testApp.app.get(DelegatedKeySigner);
    verifier = testApp.app.get(WalletQuoteSignatureVerifier);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const api = () => testApp.platform.api;

  /** A card of a funded wallet with an ACTIVE delegated key, and a quote spending from the wallet. */
  async function delegated(): Promise<FundedCard & { key: any; quote: any; payloadToSign: string }> {
    const funded = await walletCard(testApp);
    const { created } = await createDelegatedKey(api(), funded.body, funded.sessionKey);
    await fund(api(), funded.wallet.accountId, FUNDED);
    const external = await createUsdExternalAccount(api(), funded.wallet.customerId, '789');
    const quote = (await api().post('/quotes').send(accountQuoteBody(funded.wallet.accountId, external.id, 5_000_000)).expect(201)).body;
    return { ...funded, key: created, quote, payloadToSign: embeddedWalletPayload(quote) };
  }

  const cardPayment = (input: { cardId: string | null; accountId: string; payloadToSign: string; header: string }) =>
    verifier.verify({
      platformId: testApp.platform.platformId,
      quote: { quoteId: 'Quote:0199a000-0000-7000-8000-00000000abcd', walletAccountId: input.accountId, payloadToSign: input.payloadToSign, cardId: input.cardId },
      header: input.header,
    });

  const signedRetryWith = (body: object, requestId: string, signature: string) =>
    api().post('/auth/delegated-keys').set({ 'Service-Wallet-Signature': signature, 'Request-Id': requestId }).send(body);

  async function stamp(funded: FundedCard, payloadToSign: string) {
    return signer.stamp({ platformId: testApp.platform.platformId, cardId: funded.card.id, accountId: funded.wallet.accountId, payloadToSign });
  }

  it("in scope: the service stamps a card payment with the funding source's ACTIVE key, and that stamp is accepted for that card and wallet", async () => {
    const funded = await delegated();
    const stamped = await stamp(funded, funded.payloadToSign);
    expect(stamped).toEqual({ ok: true, delegatedKeyId: funded.key.id, signature: expect.any(String) });
    if (!stamped.ok) return;
    const signed = JSON.parse(Buffer.from(stamped.signature, 'base64url').toString('utf8'));
    expect(signed).toEqual({ publicKey: funded.key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: expect.stringMatching(/^30[0-9a-f]+$/) });
    expect(await cardPayment({ cardId: funded.card.id, accountId: funded.wallet.accountId, payloadToSign: funded.payloadToSign, header: stamped.signature })).toEqual({ ok: true });
    // A session key of the wallet still signs a card payment too.
    const bySession = stampPayload(funded.payloadToSign, funded.sessionKey);
    expect(await cardPayment({ cardId: funded.card.id, accountId: funded.wallet.accountId, payloadToSign: funded.payloadToSign, header: bySession })).toEqual({ ok: true });
  });

  it('out of scope: a plain quote execution and every signed wallet action refuse the stamp (401 WALLET_SIGNATURE_INVALID), and nothing moves', async () => {
    const funded = await delegated();
    const stamped = await stamp(funded, funded.payloadToSign);
    if (!stamped.ok) throw new Error(stamped.reason);
    const executed = await api().post(`/quotes/${funded.quote.id}/execute`).set('Service-Wallet-Signature', stamped.signature).expect(401);
    expect(executed.body).toEqual({ status: 401, code: 'WALLET_SIGNATURE_INVALID', message: DELEGATED_OUT_OF_SCOPE, details: { reason: DELEGATED_OUT_OF_SCOPE } });
    expect((await api().get(`/quotes/${funded.quote.id}`).expect(200)).body.status).toBe('PENDING');
    expect(await balances(api(), funded.wallet.accountId)).toEqual({ available: FUNDED, total: FUNDED });

    // A signed wallet action: its payloadToSign stamped by the key (the service signs raw payloads).
    const challenge = (await api().patch(`/internal-accounts/${funded.wallet.accountId}`).send({ privateEnabled: true }).expect(202)).body;
    const byKey = await stamp(funded, challenge.payloadToSign);
    if (!byKey.ok) throw new Error(byKey.reason);
    const patched = await api()
      .patch(`/internal-accounts/${funded.wallet.accountId}`)
      .set({ 'Service-Wallet-Signature': byKey.signature, 'Request-Id': challenge.requestId })
      .send({ privateEnabled: true })
      .expect(401);
    expect(patched.body).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', details: { reason: DELEGATED_OUT_OF_SCOPE } });
    // Nor does it sign the creation of another delegated key (for another card of the wallet).
    const nextBody = { ...funded.body, cardId: (await issueWalletCard(api(), funded.wallet)).id };
    const next = (await api().post('/auth/delegated-keys').send(nextBody).expect(202)).body;
    const byKeyAgain = await stamp(funded, next.payloadToSign);
    if (!byKeyAgain.ok) throw new Error(byKeyAgain.reason);
    const refused = await signedRetryWith(nextBody, next.requestId, byKeyAgain.signature).expect(401);
    expect(refused.body).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', details: { reason: DELEGATED_OUT_OF_SCOPE } });
  });

  it('out of scope: another card of the same wallet, another wallet, a quote that is no card payment', async () => {
    const funded = await delegated();
    const stamped = await stamp(funded, funded.payloadToSign);
    if (!stamped.ok) throw new Error(stamped.reason);
    const otherCard = await issueWalletCard(api(), funded.wallet);
    const refusal = { ok: false, code: 'WALLET_SIGNATURE_INVALID', reason: DELEGATED_OUT_OF_SCOPE };
    expect(await cardPayment({ cardId: otherCard.id, accountId: funded.wallet.accountId, payloadToSign: funded.payloadToSign, header: stamped.signature })).toEqual(refusal);
    expect(await cardPayment({ cardId: null, accountId: funded.wallet.accountId, payloadToSign: funded.payloadToSign, header: stamped.signature })).toEqual(refusal);
    const otherWallet = await walletCard(testApp);
    expect(await cardPayment({ cardId: funded.card.id, accountId: otherWallet.wallet.accountId, payloadToSign: funded.payloadToSign, header: stamped.signature })).toEqual({
      ok: false,
      code: 'WALLET_SIGNATURE_INVALID',
      reason: 'Wallet signature key is not an active session key of this wallet',
    });
    // The other card has no ACTIVE key: the service has nothing to stamp its payments with.
    expect(await signer.stamp({ platformId: testApp.platform.platformId, cardId: otherCard.id, accountId: funded.wallet.accountId, payloadToSign: 'x' })).toEqual({
      ok: false,
      reason: 'The card funding source has no ACTIVE delegated key',
    });
  });

  it('after revocation: a stamp made before is refused at once, and the service has no key left to stamp with', async () => {
    const funded = await delegated();
    const stamped = await stamp(funded, funded.payloadToSign);
    if (!stamped.ok) throw new Error(stamped.reason);
    await api().delete(`/auth/delegated-keys/${funded.key.id}`).expect(204);
    expect(await cardPayment({ cardId: funded.card.id, accountId: funded.wallet.accountId, payloadToSign: funded.payloadToSign, header: stamped.signature })).toEqual({
      ok: false,
      code: 'WALLET_SIGNATURE_INVALID',
      reason: 'Wallet signature key is a revoked delegated key of this wallet: it signs nothing',
    });
    const executed = await api().post(`/quotes/${funded.quote.id}/execute`).set('Service-Wallet-Signature', stamped.signature).expect(401);
    expect(executed.body.details.reason).toBe('Wallet signature key is a revoked delegated key of this wallet: it signs nothing');
    expect(await stamp(funded, funded.payloadToSign)).toEqual({ ok: false, reason: 'The card funding source has no ACTIVE delegated key' });
  });

  it('the binding must stand: the wallet no longer funding the card, or the card CLOSED, stops the key', async () => {
    const funded = await delegated();
    const stamped = await stamp(funded, funded.payloadToSign);
    if (!stamped.ok) throw new Error(stamped.reason);
    const accepted = () => cardPayment({ cardId: funded.card.id, accountId: funded.wallet.accountId, payloadToSign: funded.payloadToSign, header: stamped.signature });
    const fiat = await fiatAccountOf(api(), funded.wallet.customerId);
    await api().patch(`/cards/${funded.card.id}`).send({ fundingSources: [fiat.id] }).expect(200);
    expect(await accepted()).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_INVALID' });
    expect(await stamp(funded, funded.payloadToSign)).toEqual({ ok: false, reason: 'The card is CLOSED or not funded by this wallet: no delegated key signs for it' });
    await api().patch(`/cards/${funded.card.id}`).send({ fundingSources: [funded.wallet.accountId] }).expect(200);
    expect(await accepted()).toEqual({ ok: true });
    await api().patch(`/cards/${funded.card.id}`).send({ state: 'CLOSED' }).expect(200);
    expect(await accepted()).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_INVALID' });
    // The key itself stays ACTIVE (the platform revokes it); it just has no card to sign for.
    expect((await api().get(`/auth/delegated-keys/${funded.key.id}`).expect(200)).body.status).toBe('ACTIVE');
  });
});
