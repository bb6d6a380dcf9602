import { encryptOtpCode, generateWalletKeyPair, sandboxOidcToken, SoftwarePasskey, stampPayload } from '../../../src/wallet-auth/client';
import { WalletClock } from '../../../src/wallet-auth/services/wallet-clock';
import { TestApp, startTestApp } from '../../support/test-app';
import { SoftwareAuthenticator, tamperSignature } from '../../support/webauthn-authenticator';
import { SANDBOX_PASSKEY, TestWallet, createWallet } from './wallet-fixtures';

/**
 * Login flows and their refusals: 401 UNAUTHORIZED with `details.reason` naming the failed check
 * (SPEC.md "Authentication" 8), 400 for malformed input, the OTP leg 2 signed by the wrong key
 * (INVALID_SIGNATURE), and the passkey and OAuth checks of SPEC.md sandbox rules 6-8.
 */
describe('embedded wallet login flows', () => {
  let testApp: TestApp;
  let clock: WalletClock;
  let enclavePublicKey: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    clock = testApp.app.get(WalletClock);
    enclavePublicKey = (await testApp.platform.api.get('/config').expect(200)).body.walletEnclavePublicKey;
  });

  afterEach(() => clock.reset());

  afterAll(async () => {
    await testApp?.close();
  });

  function expectError(response: { status: number; body: any }, status: number, code: string, reason?: string | RegExp) {
    expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
    if (reason instanceof RegExp) expect(response.body.details.reason).toMatch(reason);
    else if (reason !== undefined) expect(response.body.details.reason).toBe(reason);
  }

  async function otpBundle(wallet: TestWallet, otpCode: string, tekPublicKey = generateWalletKeyPair().publicKey): Promise<string> {
    const challenge = await testApp.platform.api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`).expect(200);
    return encryptOtpCode({ otpCode, otpEncryptionTargetBundle: challenge.body.otpEncryptionTargetBundle, tekPublicKey, enclavePublicKey });
  }

  function verify(credentialId: string, body: object, headers: Record<string, string> = {}) {
    return testApp.platform.api.post(`/auth/credentials/${credentialId}/verify`).set(headers).send(body);
  }

  describe('OTP', () => {
    it('a wrong code is 401 UNAUTHORIZED with reason "Invalid OTP code", and the challenge stays usable', async () => {
      const wallet = await createWallet(testApp);
      const challenge = await testApp.platform.api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`).expect(200);
      const tek = generateWalletKeyPair();
      const wrong = await encryptOtpCode({ otpCode: '123456', otpEncryptionTargetBundle: challenge.body.otpEncryptionTargetBundle, tekPublicKey: tek.publicKey, enclavePublicKey });
      const refused = await verify(wallet.emailCredentialId, { type: 'EMAIL_OTP', encryptedOtpBundle: wrong });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ status: 401, code: 'UNAUTHORIZED', message: 'Invalid OTP code', details: { reason: 'Invalid OTP code' } });
      const right = await encryptOtpCode({ otpCode: '000000', otpEncryptionTargetBundle: challenge.body.otpEncryptionTargetBundle, tekPublicKey: tek.publicKey, enclavePublicKey });
      expect((await verify(wallet.emailCredentialId, { type: 'EMAIL_OTP', encryptedOtpBundle: right })).status).toBe(202);
    });

    it('verify without a challenge, on a replaced challenge, an answered one or an expired one is 401', async () => {
      const wallet = await createWallet(testApp);
      const tek = generateWalletKeyPair();
      const never = await verify(wallet.emailCredentialId, { type: 'EMAIL_OTP', encryptedOtpBundle: JSON.stringify({ encappedPublic: tek.publicKeyUncompressed, ciphertext: '00'.repeat(40) }) });
      expectError(never, 401, 'UNAUTHORIZED', 'No OTP challenge is pending for this credential; call /challenge first');
      const replaced = await otpBundle(wallet, '000000');
      const current = await otpBundle(wallet, '000000');
      expectError(await verify(wallet.emailCredentialId, { type: 'EMAIL_OTP', encryptedOtpBundle: replaced }), 401, 'UNAUTHORIZED', /could not be decrypted/);
      expect((await verify(wallet.emailCredentialId, { type: 'EMAIL_OTP', encryptedOtpBundle: current })).status).toBe(202);
      expectError(await verify(wallet.emailCredentialId, { type: 'EMAIL_OTP', encryptedOtpBundle: current }), 401, 'UNAUTHORIZED', 'This OTP challenge was already answered; request a new one');
      const late = await otpBundle(wallet, '000000');
      clock.advanceBy(5 * 60 * 1000 + 1);
      expectError(await verify(wallet.emailCredentialId, { type: 'EMAIL_OTP', encryptedOtpBundle: late }), 401, 'UNAUTHORIZED', 'The OTP challenge has expired; request a new one');
    });

    it('a malformed bundle is 400 on encryptedOtpBundle; a body of another type is 400 on type', async () => {
      const wallet = await createWallet(testApp);
      await otpBundle(wallet, '000000');
      const malformed = await verify(wallet.emailCredentialId, { type: 'EMAIL_OTP', encryptedOtpBundle: 'not json' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.details.errors).toEqual([{ field: 'encryptedOtpBundle', constraint: {}, message: expect.any(String) }]);
      const wrongType = await verify(wallet.emailCredentialId, { type: 'SMS_OTP', encryptedOtpBundle: 'x' });
      expect(wrongType.body.details.errors).toEqual([{ field: 'type', constraint: { enum: ['EMAIL_OTP'] }, message: 'type must be EMAIL_OTP, the type of this credential' }]);
      const unknown = await verify(wallet.emailCredentialId, { type: 'EMAIL_OTP', encryptedOtpBundle: 'x', otpCode: '000000' });
      expect(unknown.body.details.errors).toEqual([{ field: 'otpCode', constraint: {}, message: 'Unknown field otpCode' }]);
    });

    it('leg 2 stamped by a key other than the TEK in the bundle is 401 INVALID_SIGNATURE; by the TEK it opens the session', async () => {
      const wallet = await createWallet(testApp);
      const tek = generateWalletKeyPair();
      const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await otpBundle(wallet, '000000', tek.publicKey) };
      const leg1 = (await verify(wallet.emailCredentialId, body).expect(202)).body;
      const wrongKey = await verify(wallet.emailCredentialId, body, { 'Service-Wallet-Signature': stampPayload(leg1.payloadToSign, generateWalletKeyPair()), 'Request-Id': leg1.requestId });
      expect(wrongKey.status).toBe(401);
      expect(wrongKey.body).toEqual({
        status: 401,
        code: 'INVALID_SIGNATURE',
        message: 'The verification token must be signed with the key sent in the encrypted OTP bundle',
        details: { reason: 'The verification token must be signed with the key sent in the encrypted OTP bundle' },
      });
      expectError(await verify(wallet.emailCredentialId, body, { 'Request-Id': leg1.requestId }), 401, 'WALLET_SIGNATURE_MISSING');
      expectError(await verify(wallet.emailCredentialId, body, { 'Service-Wallet-Signature': stampPayload(leg1.payloadToSign, tek) }), 401, 'REQUEST_ID_MISSING');
      const session = await verify(wallet.emailCredentialId, body, { 'Service-Wallet-Signature': stampPayload(leg1.payloadToSign, tek), 'Request-Id': leg1.requestId });
      expect(session.status).toBe(200);
      expectError(
        await verify(wallet.emailCredentialId, body, { 'Service-Wallet-Signature': stampPayload(leg1.payloadToSign, tek), 'Request-Id': leg1.requestId }),
        401,
        'UNAUTHORIZED',
        'Request-Id was already used; request ids are single use',
      );
    });

    it('an SMS_OTP credential logs in the same way, with the phone number in the token', async () => {
      const wallet = await createWallet(testApp);
      const { sessionKey } = await wallet.client.loginWithOtp(wallet.emailCredentialId);
      const sms = await wallet.client.addCredential({ type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+447700900123' }, sessionKey);
      expect(sms).toMatchObject({ type: 'SMS_OTP', nickname: '+447700900123' });
      const login = await wallet.client.loginWithOtp(sms.id);
      expect(login.session).toMatchObject({ type: 'SMS_OTP', nickname: '+447700900123', accountId: wallet.accountId });
    });
  });

  describe('PASSKEY', () => {
    async function walletWithPasskey() {
      const wallet = await createWallet(testApp);
      const { sessionKey } = await wallet.client.loginWithOtp(wallet.emailCredentialId);
      const authenticator = new SoftwareAuthenticator(SANDBOX_PASSKEY);
      const challenge = SoftwarePasskey.registrationChallenge();
      const credential = await wallet.client.addCredential(
        { type: 'PASSKEY', accountId: wallet.accountId, nickname: 'YubiKey 5C', challenge, attestation: authenticator.register({ challenge }) },
        sessionKey,
      );
      return { wallet, authenticator, credential, sessionKey };
    }

    async function passkeyChallenge(credentialId: string) {
      const clientKey = generateWalletKeyPair();
      const response = await testApp.platform.api.post(`/auth/credentials/${credentialId}/challenge`).send({ clientPublicKey: clientKey.publicKey }).expect(200);
      return { clientKey, challenge: response.body };
    }

    it('the challenge needs a clientPublicKey; verify needs the Request-Id of the challenge', async () => {
      const { credential, authenticator } = await walletWithPasskey();
      const missing = await testApp.platform.api.post(`/auth/credentials/${credential.id}/challenge`).send({});
      expect(missing.status).toBe(400);
      expect(missing.body.details.errors[0]).toEqual({ field: 'clientPublicKey', constraint: {}, message: expect.any(String) });
      const { challenge } = await passkeyChallenge(credential.id);
      const assertion = authenticator.assert({ challenge: { hex: challenge.challenge } });
      expectError(await verify(credential.id, { type: 'PASSKEY', assertion }), 401, 'REQUEST_ID_MISSING');
      expect((await verify(credential.id, { type: 'PASSKEY', assertion }, { 'Request-Id': challenge.requestId })).status).toBe(200);
    });

    it.each([
      ['another origin', { origin: 'https://evil.example.com' }, 'ORIGIN_NOT_ALLOWED'],
      ['another relying party', { rpId: 'evil.example.com' }, 'RP_ID_MISMATCH'],
      ['no user presence', { userPresent: false }, 'USER_NOT_PRESENT'],
      ['another credential id', { credentialIdOverride: Buffer.from('other').toString('base64url') }, 'CREDENTIAL_MISMATCH'],
    ])('an assertion with %s is 401 UNAUTHORIZED naming the check', async (_name, knobs, check) => {
      const { credential, authenticator } = await walletWithPasskey();
      const { challenge } = await passkeyChallenge(credential.id);
      const response = await verify(credential.id, { type: 'PASSKEY', assertion: authenticator.assert({ challenge: { hex: challenge.challenge }, ...knobs }) }, { 'Request-Id': challenge.requestId });
      expectError(response, 401, 'UNAUTHORIZED');
      expect(response.body.details.check).toBe(check);
    });

    it('a bad signature, another challenge, and a replayed counter are refused; the challenge is single use', async () => {
      const { credential, authenticator } = await walletWithPasskey();
      const { challenge } = await passkeyChallenge(credential.id);
      const good = authenticator.assert({ challenge: { hex: challenge.challenge } });
      const bad = await verify(credential.id, { type: 'PASSKEY', assertion: tamperSignature(good) }, { 'Request-Id': challenge.requestId });
      expect(bad.body.details.check).toBe('SIGNATURE_INVALID');
      const other = await passkeyChallenge(credential.id);
      const crossed = await verify(credential.id, { type: 'PASSKEY', assertion: authenticator.assert({ challenge: { hex: other.challenge.challenge } }) }, { 'Request-Id': challenge.requestId });
      expect(crossed.body.details.check).toBe('CHALLENGE_MISMATCH');
      expect((await verify(credential.id, { type: 'PASSKEY', assertion: good }, { 'Request-Id': challenge.requestId })).status).toBe(200);
      expectError(await verify(credential.id, { type: 'PASSKEY', assertion: good }, { 'Request-Id': challenge.requestId }), 401, 'UNAUTHORIZED', 'Request-Id was already used; request ids are single use');
      const replay = authenticator.assert({ challenge: { hex: other.challenge.challenge }, counter: authenticator.counter - 1 });
      const replayed = await verify(credential.id, { type: 'PASSKEY', assertion: replay }, { 'Request-Id': other.challenge.requestId });
      expect(replayed.body.details.check).toBe('COUNTER_NOT_INCREASING');
    });

    it('the legacy sandbox literal assertion logs in; the legacy clientPublicKey gets a sealed session key that signs', async () => {
      const { wallet, credential, authenticator } = await walletWithPasskey();
      const clientKey = generateWalletKeyPair();
      const challenge = (await testApp.platform.api.post(`/auth/credentials/${credential.id}/challenge`).send({ clientPublicKey: clientKey.publicKeyUncompressed }).expect(200)).body;
      const session = await verify(credential.id, { type: 'PASSKEY', assertion: authenticator.legacySandboxAssertion() }, { 'Request-Id': challenge.requestId });
      expect(session.status).toBe(200);
      expect(session.body.encryptedSessionSigningKey).toEqual(expect.any(String));
      const login = await wallet.client.loginWithPasskey(credential.id, { assert: (hex) => authenticator.assert({ challenge: { hex } }) }, { legacy: true });
      await wallet.client.updatePrivacy(wallet.accountId, true, login.sessionKey);
    });

    it('registration checks the attestation: a malformed one is 400, another origin 401, a reused challenge 400', async () => {
      const wallet = await createWallet(testApp);
      const { sessionKey } = await wallet.client.loginWithOtp(wallet.emailCredentialId);
      const authenticator = new SoftwareAuthenticator(SANDBOX_PASSKEY);
      const challenge = SoftwarePasskey.registrationChallenge();
      const body = (attestation: unknown, nickname = 'Key') => ({ type: 'PASSKEY', accountId: wallet.accountId, nickname, challenge, attestation });
      const malformed = await testApp.platform.api.post('/auth/credentials').send(body({ credentialId: 'x' }));
      expect(malformed.status).toBe(400);
      expect(malformed.body.details.errors[0].field).toBe('attestation');
      const elsewhere = await testApp.platform.api.post('/auth/credentials').send(body(authenticator.register({ challenge, origin: 'https://evil.example.com' })));
      expectError(elsewhere, 401, 'UNAUTHORIZED');
      expect(elsewhere.body.details.check).toBe('ORIGIN_NOT_ALLOWED');
      const badName = await testApp.platform.api.post('/auth/credentials').send(body(authenticator.register({ challenge }), 'emoji 🔑'));
      expect(badName.body.details.errors[0]).toEqual({ field: 'nickname', constraint: { pattern: "^[\\p{L}\\p{N} ._'()-]{1,100}$" }, message: expect.any(String) });
      await wallet.client.addCredential(body(authenticator.register({ challenge })), sessionKey);
      const secondKey = new SoftwareAuthenticator(SANDBOX_PASSKEY);
      const reused = await testApp.platform.api.post('/auth/credentials').send(body(secondKey.register({ challenge })));
      expect(reused.status).toBe(400);
      expect(reused.body.details.errors[0]).toMatchObject({ field: 'challenge' });
    });
  });

  describe('OAUTH', () => {
    async function walletWithOauth() {
      const wallet = await createWallet(testApp);
      const { sessionKey } = await wallet.client.loginWithOtp(wallet.emailCredentialId);
      const credential = await wallet.client.addCredential({ type: 'OAUTH', accountId: wallet.accountId, oidcToken: sandboxOidcToken({ sub: 'apple-1', iss: 'https://appleid.apple.com', aud: ['app'] }) }, sessionKey);
      return { wallet, credential };
    }

    it('logs in with a fresh token for the same identity whose nonce binds the clientPublicKey', async () => {
      const { credential } = await walletWithOauth();
      const key = generateWalletKeyPair();
      const response = await verify(credential.id, { type: 'OAUTH', clientPublicKey: key.publicKey, oidcToken: sandboxOidcToken({ sub: 'apple-1', iss: 'https://appleid.apple.com', aud: 'app', clientPublicKey: key.publicKey }) });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ type: 'OAUTH', nickname: 'sandbox.user@example.com' });
      expect(response.body.encryptedSessionSigningKey).toBeUndefined();
    });

    it.each([
      ['a nonce for another key', { clientPublicKey: 'OTHER' }, 'NONCE'],
      ['another subject', { sub: 'apple-2' }, 'IDENTITY_MISMATCH'],
      ['another audience', { aud: 'other-app' }, 'IDENTITY_MISMATCH'],
      ['an iat older than 60 seconds', { iat: Math.floor(Date.now() / 1000) - 70 }, 'ISSUED_AT'],
      ['an expired token', { exp: Math.floor(Date.now() / 1000) - 1 }, 'EXPIRY'],
      ['an unsupported issuer', { iss: 'https://login.example.com' }, 'ISSUER'],
    ])('a token with %s is 401 UNAUTHORIZED naming the check', async (_name, change, check) => {
      const { credential } = await walletWithOauth();
      const key = generateWalletKeyPair();
      const options = { sub: 'apple-1', iss: 'https://appleid.apple.com', aud: 'app', clientPublicKey: key.publicKey, ...change } as Record<string, any>;
      if (options.clientPublicKey === 'OTHER') options.clientPublicKey = generateWalletKeyPair().publicKey;
      const response = await verify(credential.id, { type: 'OAUTH', clientPublicKey: key.publicKey, oidcToken: sandboxOidcToken(options) });
      expectError(response, 401, 'UNAUTHORIZED');
      expect(response.body.details.check).toBe(check);
    });

    it('a token that is no JWT is 400; old fixed literals are refused; OAUTH has no challenge step', async () => {
      const { credential } = await walletWithOauth();
      const key = generateWalletKeyPair();
      const malformed = await verify(credential.id, { type: 'OAUTH', clientPublicKey: key.publicKey, oidcToken: 'sandbox-valid-oidc-token' });
      expect(malformed.status).toBe(400);
      expect(malformed.body.details.errors[0].field).toBe('oidcToken');
      const challenge = await testApp.platform.api.post(`/auth/credentials/${credential.id}/challenge`).send({});
      expect(challenge.status).toBe(400);
      expect(challenge.body.details.reason).toBe('NO_CHALLENGE_FOR_OAUTH');
      const badKey = await verify(credential.id, { type: 'OAUTH', clientPublicKey: 'abc', oidcToken: sandboxOidcToken() });
      expect(badKey.body.details.errors[0].field).toBe('clientPublicKey');
    });
  });
});
