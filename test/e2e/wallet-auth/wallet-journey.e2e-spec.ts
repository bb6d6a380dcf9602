import { SoftwarePasskey, embeddedWalletPayload, sandboxOidcToken } from '../../../src/wallet-auth/client';
import { initialCredentialId } from '../../../src/wallet-auth/services/initial-credentials';
import { createUsdExternalAccount, fund } from '../../support/customer-fixtures';
import { accountQuoteBody, quoteWithStatus } from '../../support/quote-fixtures';
import { TestApp, startTestApp } from '../../support/test-app';
import { decryptBundle, encryptOtpBundle, generateClientKeyPair, stampPayload, verifyVerificationToken } from '../../support/wallet-client';
import { SANDBOX_PASSKEY, createWallet } from './wallet-fixtures';

const SESSION_MS = 15 * 60 * 1000;

/**
 * The "Done when", over HTTP: a new embedded wallet logs in by email OTP, adds a passkey
 * and an OAuth credential through signed retries, logs in with each, refreshes and revokes
 * sessions, exports, changes its privacy and executes a quote with a stamp. Client crypto: the
 * real @turnkey libraries.
 */
describe('embedded wallet journey', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('a new wallet starts with one EMAIL_OTP credential for the customer email, and no sessions', async () => {
    const wallet = await createWallet(testApp);
    const credentials = await testApp.platform.api.get('/auth/credentials').query({ accountId: wallet.accountId }).expect(200);
    expect(Object.keys(credentials.body)).toEqual(['data']);
    expect(credentials.body.data).toEqual([
      {
        id: initialCredentialId(wallet.accountId),
        accountId: wallet.accountId,
        type: 'EMAIL_OTP',
        nickname: wallet.email,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const sessions = await testApp.platform.api.get('/auth/sessions').query({ accountId: wallet.accountId }).expect(200);
    expect(sessions.body).toEqual({ data: [] });
  });

  it('every id a wallet flow hands out is <Type>:<uuid v7> (DECISIONS.md section 1): the initial credential, requests, sessions', async () => {
    const v7 = (type: string) => new RegExp(`^${type}:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`);
    const wallet = await createWallet(testApp);
    expect(wallet.emailCredentialId).toMatch(v7('AuthMethod'));
    const { session } = await wallet.client.loginWithOtp(wallet.emailCredentialId);
    expect(session.id).toMatch(v7('Session'));
    const challenge = (await testApp.platform.api.patch(`/internal-accounts/${wallet.accountId}`).send({ privateEnabled: true }).expect(202)).body;
    expect(challenge.requestId).toMatch(v7('Request'));
  });

  it('logs in by email OTP, adds a passkey and an OAuth credential by signed retries, logs in with each, refreshes, revokes, exports, executes a quote', async () => {
    const api = testApp.platform.api;
    const wallet = await createWallet(testApp);
    const config = await api.get('/config').expect(200);
    const enclavePublicKey = config.body.walletEnclavePublicKey as string;

    // Email OTP login: challenge, HPKE-encrypted code (real client library), token, TEK stamp.
    const challenge = await api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`).expect(200);
    expect(challenge.body).toEqual({
      id: wallet.emailCredentialId,
      accountId: wallet.accountId,
      type: 'EMAIL_OTP',
      nickname: wallet.email,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      otpEncryptionTargetBundle: expect.any(String),
    });
    const tek = generateClientKeyPair();
    const encryptedOtpBundle = await encryptOtpBundle({ otpCode: '000000', otpEncryptionTargetBundle: challenge.body.otpEncryptionTargetBundle, tekPublicKey: tek.publicKey, enclavePublicKey });
    const verifyBody = { type: 'EMAIL_OTP', encryptedOtpBundle };
    const leg1 = await api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`).send(verifyBody).expect(202);
    expect(leg1.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:[0-9a-f-]{36}$/), expiresAt: expect.any(String), type: 'EMAIL_OTP' });
    const claims = await verifyVerificationToken(leg1.body.payloadToSign, enclavePublicKey);
    expect(claims).toMatchObject({ contact: wallet.email, verification_type: 'OTP_TYPE_EMAIL', public_key: tek.publicKey, organization_id: wallet.accountId });
    const leg2 = await api
      .post(`/auth/credentials/${wallet.emailCredentialId}/verify`)
      .set('Service-Wallet-Signature', await stampPayload(leg1.body.payloadToSign, tek))
      .set('Request-Id', leg1.body.requestId)
      .send(verifyBody)
      .expect(200);
    expect(leg2.body).toEqual({
      id: expect.stringMatching(/^Session:[0-9a-f-]{36}$/),
      accountId: wallet.accountId,
      type: 'EMAIL_OTP',
      nickname: wallet.email,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(leg2.body.expiresAt) - Date.parse(leg2.body.createdAt)).toBe(SESSION_MS);
    const emailSession = { id: leg2.body.id as string, key: tek };

    // Add a passkey: 202, then the retry stamped by the email session.
    const passkey = new SoftwarePasskey(SANDBOX_PASSKEY);
    const registrationChallenge = SoftwarePasskey.registrationChallenge();
    const passkeyBody = { type: 'PASSKEY', accountId: wallet.accountId, nickname: 'Laptop (Touch ID)', challenge: registrationChallenge, attestation: passkey.register(registrationChallenge) };
    const addPasskey = await api.post('/auth/credentials').send(passkeyBody).expect(202);
    expect(addPasskey.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String), type: 'PASSKEY' });
    expect(JSON.parse(addPasskey.body.payloadToSign)).toMatchObject({ organizationId: wallet.accountId, type: 'ACTIVITY_TYPE_CREATE_AUTH_CREDENTIAL' });
    const passkeyCredential = await api
      .post('/auth/credentials')
      .set('Service-Wallet-Signature', await stampPayload(addPasskey.body.payloadToSign, emailSession.key))
      .set('Request-Id', addPasskey.body.requestId)
      .send(passkeyBody)
      .expect(201);
    expect(passkeyCredential.body).toEqual({
      id: expect.stringMatching(/^AuthMethod:/),
      accountId: wallet.accountId,
      type: 'PASSKEY',
      credentialId: passkey.credentialId,
      nickname: 'Laptop (Touch ID)',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    // Add an OAuth credential the same way.
    const oauthBody = { type: 'OAUTH', accountId: wallet.accountId, oidcToken: sandboxOidcToken({ sub: 'google-user-1', email: 'jane.google@example.com' }) };
    const addOauth = await api.post('/auth/credentials').send(oauthBody).expect(202);
    const oauthCredential = await api
      .post('/auth/credentials')
      .set('Service-Wallet-Signature', await stampPayload(addOauth.body.payloadToSign, emailSession.key))
      .set('Request-Id', addOauth.body.requestId)
      .send(oauthBody)
      .expect(201);
    expect(oauthCredential.body).toMatchObject({ type: 'OAUTH', nickname: 'jane.google@example.com', accountId: wallet.accountId });

    const listed = await api.get('/auth/credentials').query({ accountId: wallet.accountId }).expect(200);
    expect(listed.body.data.map((credential: { type: string }) => credential.type)).toEqual(['EMAIL_OTP', 'PASSKEY', 'OAUTH']);

    // Passkey login with a client-held key (compressed clientPublicKey): no key comes back.
    const passkeyClientKey = generateClientKeyPair();
    const passkeyChallenge = await api.post(`/auth/credentials/${passkeyCredential.body.id}/challenge`).send({ clientPublicKey: passkeyClientKey.publicKey }).expect(200);
    expect(passkeyChallenge.body).toEqual({
      ...passkeyCredential.body,
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
      requestId: expect.stringMatching(/^Request:/),
      expiresAt: expect.any(String),
    });
    const passkeyLogin = await api
      .post(`/auth/credentials/${passkeyCredential.body.id}/verify`)
      .set('Request-Id', passkeyChallenge.body.requestId)
      .send({ type: 'PASSKEY', assertion: passkey.assert(passkeyChallenge.body.challenge) })
      .expect(200);
    expect(passkeyLogin.body).toMatchObject({ accountId: wallet.accountId, type: 'PASSKEY', credentialId: passkeyCredential.body.credentialId, nickname: 'Laptop (Touch ID)' });
    expect(passkeyLogin.body.encryptedSessionSigningKey).toBeUndefined();

    // OAuth login, legacy flow (uncompressed clientPublicKey): the sealed key opens with the real client library.
    const oauthClientKey = generateClientKeyPair();
    const oauthLogin = await api
      .post(`/auth/credentials/${oauthCredential.body.id}/verify`)
      .send({ type: 'OAUTH', oidcToken: sandboxOidcToken({ sub: 'google-user-1', clientPublicKey: oauthClientKey.publicKeyUncompressed }), clientPublicKey: oauthClientKey.publicKeyUncompressed })
      .expect(200);
    expect(oauthLogin.body).toMatchObject({ accountId: wallet.accountId, type: 'OAUTH', encryptedSessionSigningKey: expect.any(String) });
    const oauthSessionKey = decryptBundle(oauthLogin.body.encryptedSessionSigningKey, oauthClientKey.privateKey);
    expect(oauthSessionKey).toMatch(/^[0-9a-f]{64}$/);

    const sessions = await api.get('/auth/sessions').query({ accountId: wallet.accountId }).expect(200);
    expect(sessions.body.data.map((session: { type: string }) => session.type)).toEqual(['EMAIL_OTP', 'PASSKEY', 'OAUTH']);
    // The reference's AuthSession: its credential's fields (a passkey's credentialId too), the session's id, expiresAt.
    for (const session of sessions.body.data) {
      const passkeyOnly = session.type === 'PASSKEY' ? ['credentialId'] : [];
      expect(Object.keys(session).sort()).toEqual(['accountId', 'createdAt', ...passkeyOnly, 'expiresAt', 'id', 'nickname', 'type', 'updatedAt']);
    }
    expect(sessions.body.data[1]).toEqual(passkeyLogin.body);

    // Refresh the passkey session, signed by itself: a new client-held session.
    const nextKey = generateClientKeyPair();
    const refreshBody = { clientPublicKey: nextKey.publicKey };
    const refresh = await api.post(`/auth/sessions/${passkeyLogin.body.id}/refresh`).send(refreshBody).expect(202);
    const refreshed = await api
      .post(`/auth/sessions/${passkeyLogin.body.id}/refresh`)
      .set('Service-Wallet-Signature', await stampPayload(refresh.body.payloadToSign, passkeyClientKey))
      .set('Request-Id', refresh.body.requestId)
      .send(refreshBody)
      .expect(201);
    expect(refreshed.body).toMatchObject({ type: 'PASSKEY', accountId: wallet.accountId });
    expect(refreshed.body.id).not.toBe(passkeyLogin.body.id);

    // Revoke the email session with the refreshed passkey session's key.
    const revoke = await api.delete(`/auth/sessions/${emailSession.id}`).expect(202);
    expect(revoke.body).toMatchObject({ type: 'EMAIL_OTP', requestId: expect.stringMatching(/^Request:/) });
    const revoked = await api
      .delete(`/auth/sessions/${emailSession.id}`)
      .set('Service-Wallet-Signature', await stampPayload(revoke.body.payloadToSign, nextKey))
      .set('Request-Id', revoke.body.requestId)
      .expect(204);
    expect(revoked.text).toBe('');
    const afterRevoke = await api.get('/auth/sessions').query({ accountId: wallet.accountId }).expect(200);
    expect(afterRevoke.body.data.map((session: { id: string }) => session.id)).not.toContain(emailSession.id);
    expect(afterRevoke.body.data).toHaveLength(3);

    // Export: the wallet secret sealed to an uncompressed key, opened by the real client library.
    const exportKey = generateClientKeyPair();
    const exportBody = { clientPublicKey: exportKey.publicKeyUncompressed };
    const exportChallenge = await api.post(`/internal-accounts/${wallet.accountId}/export`).send(exportBody).expect(202);
    const exported = await api
      .post(`/internal-accounts/${wallet.accountId}/export`)
      .set('Service-Wallet-Signature', await stampPayload(exportChallenge.body.payloadToSign, nextKey))
      .set('Request-Id', exportChallenge.body.requestId)
      .send(exportBody)
      .expect(200);
    expect(exported.body).toEqual({ id: wallet.accountId, encryptedWalletCredentials: expect.any(String) });
    expect(decryptBundle(exported.body.encryptedWalletCredentials, exportKey.privateKey)).toMatch(/^[0-9a-f]{64}$/);

    // Privacy: signed PATCH answers the account with privateEnabled.
    const privacyBody = { privateEnabled: true };
    const privacy = await api.patch(`/internal-accounts/${wallet.accountId}`).send(privacyBody).expect(202);
    const patched = await api
      .patch(`/internal-accounts/${wallet.accountId}`)
      .set('Service-Wallet-Signature', await stampPayload(privacy.body.payloadToSign, nextKey))
      .set('Request-Id', privacy.body.requestId)
      .send(privacyBody)
      .expect(200);
    expect(patched.body).toMatchObject({ id: wallet.accountId, type: 'EMBEDDED_WALLET', privateEnabled: true });

    // Execute a quote from the wallet: one call, stamped over the quote's payloadToSign by a live session key.
    await fund(api, wallet.accountId, 10_000_000);
    const external = await createUsdExternalAccount(api, wallet.customerId, '789');
    const quote = (await api.post('/quotes').send(accountQuoteBody(wallet.accountId, external.id, 2_000_000)).expect(201)).body;
    const executed = await api
      .post(`/quotes/${quote.id}/execute`)
      .set('Service-Wallet-Signature', await stampPayload(embeddedWalletPayload(quote), nextKey))
      .expect(200);
    expect(executed.body).toMatchObject({ id: quote.id, status: 'PROCESSING' });
    await quoteWithStatus(api, quote.id, 'COMPLETED');
  });
});
