import { generateWalletKeyPair, SoftwarePasskey, stampPayload, WalletKeyPair } from '../../../src/wallet-auth/client';
import { WalletClock } from '../../../src/wallet-auth/services/wallet-clock';
import { TestApp, startTestApp } from '../../support/test-app';
import { SANDBOX_PASSKEY, TestWallet, createWallet } from './wallet-fixtures';

/**
 * Two-step signed actions (DECISIONS.md section 4) and every way a signed retry fails:
 * WALLET_SIGNATURE_MISSING, _MALFORMED, _BODY_MISMATCH, _INVALID, REQUEST_ID_MISSING,
 * UNAUTHORIZED (Request-Id reused, unknown, for another operation, expired),
 * EMAIL_OTP_CREDENTIAL_SET_CHANGED, and the sessions that sign nothing (expired, revoked, removed).
 */
describe('embedded wallet signed actions', () => {
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

  async function login(wallet: TestWallet): Promise<{ sessionId: string; key: WalletKeyPair }> {
    const { session, sessionKey } = await wallet.client.loginWithOtp(wallet.emailCredentialId);
    return { sessionId: session.id, key: sessionKey };
  }

  /** Call 1 of PATCH /internal-accounts/{id} (privacy). */
  async function privacyChallenge(wallet: TestWallet, body: unknown = { privateEnabled: true }) {
    return (await testApp.platform.api.patch(`/internal-accounts/${wallet.accountId}`).send(body as object).expect(202)).body;
  }

  function retryPrivacy(wallet: TestWallet, headers: Record<string, string>, body: unknown = { privateEnabled: true }) {
    let call = testApp.platform.api.patch(`/internal-accounts/${wallet.accountId}`);
    for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
    return call.send(body as object);
  }

  function expectError(response: { status: number; body: any }, status: number, code: string, reason?: string | RegExp) {
    expect(response.status).toBe(status);
    expect(response.body.status).toBe(status);
    expect(response.body.code).toBe(code);
    if (reason instanceof RegExp) expect(response.body.details.reason).toMatch(reason);
    else if (reason !== undefined) expect(response.body.details.reason).toBe(reason);
  }

  it('call 1 answers 202 with the payload to sign; the signed retry answers the action and the Request-Id is then used up', async () => {
    const wallet = await createWallet(testApp);
    const { key } = await login(wallet);
    const challenge = await privacyChallenge(wallet);
    expect(Object.keys(challenge).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId']);
    expect(Date.parse(challenge.expiresAt) - Date.now()).toBeGreaterThan(4 * 60 * 1000);
    const payload = JSON.parse(challenge.payloadToSign);
    expect(Object.keys(payload)).toEqual(['organizationId', 'parameters', 'timestampMs', 'type']);
    expect(payload).toMatchObject({ organizationId: wallet.accountId, type: 'ACTIVITY_TYPE_UPDATE_WALLET_PRIVACY', parameters: { privateEnabled: true, requestId: challenge.requestId } });
    const headers = { 'Service-Wallet-Signature': stampPayload(challenge.payloadToSign, key), 'Request-Id': challenge.requestId };
    const done = await retryPrivacy(wallet, headers);
    expect(done.status).toBe(200);
    expect(done.body.privateEnabled).toBe(true);
    expectError(await retryPrivacy(wallet, headers), 401, 'UNAUTHORIZED', 'Request-Id was already used; request ids are single use');
  });

  it('two signed retries racing with one Request-Id: exactly one is performed', async () => {
    const wallet = await createWallet(testApp);
    const { key } = await login(wallet);
    const body = { type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550199' };
    const challenge = (await testApp.platform.api.post('/auth/credentials').send(body).expect(202)).body;
    const headers = { 'Service-Wallet-Signature': stampPayload(challenge.payloadToSign, key), 'Request-Id': challenge.requestId };
    const answers = await Promise.all([0, 1, 2].map(() => testApp.platform.api.post('/auth/credentials').set(headers).send(body)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 401, 401]);
    for (const refused of answers.filter((answer) => answer.status === 401)) {
      expect(refused.body.details.reason).toBe('Request-Id was already used; request ids are single use');
    }
    const credentials = (await testApp.platform.api.get('/auth/credentials').query({ accountId: wallet.accountId }).expect(200)).body.data;
    expect(credentials.map((credential: { type: string }) => credential.type)).toEqual(['EMAIL_OTP', 'SMS_OTP']);
  });

  it('a retry with a signature but no Request-Id is REQUEST_ID_MISSING; a Request-Id without a signature is WALLET_SIGNATURE_MISSING', async () => {
    const wallet = await createWallet(testApp);
    const { key } = await login(wallet);
    const challenge = await privacyChallenge(wallet);
    expectError(await retryPrivacy(wallet, { 'Service-Wallet-Signature': stampPayload(challenge.payloadToSign, key) }), 401, 'REQUEST_ID_MISSING');
    expectError(await retryPrivacy(wallet, { 'Request-Id': challenge.requestId }), 401, 'WALLET_SIGNATURE_MISSING');
    // Neither failure used the request up.
    const done = await retryPrivacy(wallet, { 'Service-Wallet-Signature': stampPayload(challenge.payloadToSign, key), 'Request-Id': challenge.requestId });
    expect(done.status).toBe(200);
  });

  it.each([
    ['not base64url', 'not/base64url+', /base64url/],
    ['base64url of something else than JSON', Buffer.from('hello').toString('base64url'), /JSON object/],
    ['another scheme', 'SCHEME', /scheme/],
    ['a public key off the curve', 'KEY', /publicKey/],
    ['a signature that is not DER', 'DER', /DER/],
  ])('a header that is %s is WALLET_SIGNATURE_MALFORMED', async (_name, kind, reason) => {
    const wallet = await createWallet(testApp);
    const { key } = await login(wallet);
    const challenge = await privacyChallenge(wallet);
    const stamp = JSON.parse(Buffer.from(stampPayload(challenge.payloadToSign, key), 'base64url').toString('utf8'));
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const header =
      kind === 'SCHEME' ? encode({ ...stamp, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519' })
      : kind === 'KEY' ? encode({ ...stamp, publicKey: `02${'ff'.repeat(32)}` })
      : kind === 'DER' ? encode({ ...stamp, signature: 'deadbeef' })
      : kind;
    expectError(await retryPrivacy(wallet, { 'Service-Wallet-Signature': header, 'Request-Id': challenge.requestId }), 401, 'WALLET_SIGNATURE_MALFORMED', reason);
  });

  it('a retry whose body differs from the first call is WALLET_SIGNATURE_BODY_MISMATCH; key order does not matter', async () => {
    const wallet = await createWallet(testApp);
    const { key } = await login(wallet);
    const exportKey = generateWalletKeyPair();
    const body = { clientPublicKey: exportKey.publicKeyUncompressed };
    const challenge = (await testApp.platform.api.post(`/internal-accounts/${wallet.accountId}/export`).send(body).expect(202)).body;
    const headers = { 'Service-Wallet-Signature': stampPayload(challenge.payloadToSign, key), 'Request-Id': challenge.requestId };
    const otherKey = generateWalletKeyPair().publicKeyUncompressed;
    const mismatch = await testApp.platform.api.post(`/internal-accounts/${wallet.accountId}/export`).set(headers).send({ clientPublicKey: otherKey });
    expectError(mismatch, 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
    const privacy = await privacyChallenge(wallet, { privateEnabled: true });
    const privacyHeaders = { 'Service-Wallet-Signature': stampPayload(privacy.payloadToSign, key), 'Request-Id': privacy.requestId };
    expectError(await retryPrivacy(wallet, privacyHeaders, { privateEnabled: false }), 401, 'WALLET_SIGNATURE_BODY_MISMATCH');
    const exported = await testApp.platform.api.post(`/internal-accounts/${wallet.accountId}/export`).set(headers).send(body);
    expect(exported.status).toBe(200);
  });

  it('a stamp over another payload, or by a key that is no session of this wallet, is WALLET_SIGNATURE_INVALID', async () => {
    const wallet = await createWallet(testApp);
    const other = await createWallet(testApp);
    const { key } = await login(wallet);
    const otherSession = await login(other);
    const challenge = await privacyChallenge(wallet);
    const cases: Array<[string, string, RegExp]> = [
      ['over another payload', stampPayload(`${challenge.payloadToSign} `, key), /does not verify/],
      ['by a stranger key', stampPayload(challenge.payloadToSign, generateWalletKeyPair()), /not an active session key/],
      ['by another wallet session', stampPayload(challenge.payloadToSign, otherSession.key), /not an active session key/],
      ['with a public key that is not the signing key', stampPayload(challenge.payloadToSign, { privateKey: key.privateKey, publicKey: generateWalletKeyPair().publicKey }), /does not verify/],
    ];
    for (const [, header, reason] of cases) {
      expectError(await retryPrivacy(wallet, { 'Service-Wallet-Signature': header, 'Request-Id': challenge.requestId }), 401, 'WALLET_SIGNATURE_INVALID', reason);
    }
    expect((await retryPrivacy(wallet, { 'Service-Wallet-Signature': stampPayload(challenge.payloadToSign, key), 'Request-Id': challenge.requestId })).status).toBe(200);
  });

  it('an expired session and a revoked session sign nothing', async () => {
    const wallet = await createWallet(testApp);
    const first = await login(wallet);
    const second = await login(wallet);
    await wallet.client.revokeSession(first.sessionId, second.key);
    const challenge = await privacyChallenge(wallet);
    expectError(
      await retryPrivacy(wallet, { 'Service-Wallet-Signature': stampPayload(challenge.payloadToSign, first.key), 'Request-Id': challenge.requestId }),
      401,
      'WALLET_SIGNATURE_INVALID',
      /not an active session key/,
    );
    clock.advanceBy(15 * 60 * 1000 + 1000);
    const late = await privacyChallenge(wallet);
    expectError(
      await retryPrivacy(wallet, { 'Service-Wallet-Signature': stampPayload(late.payloadToSign, second.key), 'Request-Id': late.requestId }),
      401,
      'WALLET_SIGNATURE_INVALID',
      /not an active session key/,
    );
    const sessions = await testApp.platform.api.get('/auth/sessions').query({ accountId: wallet.accountId }).expect(200);
    expect(sessions.body).toEqual({ data: [] });
  });

  it('a Request-Id that is unknown, for another operation, or expired is 401 UNAUTHORIZED with the reason', async () => {
    const wallet = await createWallet(testApp);
    const { key } = await login(wallet);
    const challenge = await privacyChallenge(wallet);
    const stamp = stampPayload(challenge.payloadToSign, key);
    expectError(await retryPrivacy(wallet, { 'Service-Wallet-Signature': stamp, 'Request-Id': 'Request:0199a000-0000-7000-8000-000000000000' }), 401, 'UNAUTHORIZED', 'Request-Id does not name a pending request');
    expectError(await retryPrivacy(wallet, { 'Service-Wallet-Signature': stamp, 'Request-Id': 'nonsense' }), 401, 'UNAUTHORIZED', 'Request-Id does not name a pending request');
    const exportBody = { clientPublicKey: generateWalletKeyPair().publicKeyUncompressed };
    const exported = await testApp.platform.api
      .post(`/internal-accounts/${wallet.accountId}/export`)
      .set({ 'Service-Wallet-Signature': stamp, 'Request-Id': challenge.requestId })
      .send(exportBody);
    expectError(exported, 401, 'UNAUTHORIZED', 'Request-Id does not name a pending request for this operation');
    // The bare uuid is accepted as the Request-Id too.
    const bare = challenge.requestId.slice('Request:'.length);
    clock.advanceBy(5 * 60 * 1000);
    expectError(await retryPrivacy(wallet, { 'Service-Wallet-Signature': stamp, 'Request-Id': bare }), 401, 'UNAUTHORIZED', 'Request-Id has expired; start the request again');
  });

  it('the sandbox literal signature stands for a live session of the wallet, and is refused without one', async () => {
    const wallet = await createWallet(testApp);
    const challenge = await privacyChallenge(wallet);
    const literal = { 'Service-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': challenge.requestId };
    expectError(await retryPrivacy(wallet, literal), 401, 'WALLET_SIGNATURE_INVALID');
    await login(wallet);
    expect((await retryPrivacy(wallet, literal)).status).toBe(200);
  });

  it('an SMS_OTP credential sent as {type, accountId} takes the customer\'s phone number; a customer without one is 400 MISSING_MANDATORY_USER_INFO', async () => {
    const wallet = await createWallet(testApp, testApp.platform, { phoneNumber: '+14155550177' });
    const { key } = await login(wallet);
    const body = { type: 'SMS_OTP', accountId: wallet.accountId };
    const pending = (await testApp.platform.api.post('/auth/credentials').send(body).expect(202)).body;
    const created = await testApp.platform.api
      .post('/auth/credentials')
      .set({ 'Service-Wallet-Signature': stampPayload(pending.payloadToSign, key), 'Request-Id': pending.requestId })
      .send(body)
      .expect(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^AuthMethod:/),
      accountId: wallet.accountId,
      type: 'SMS_OTP',
      nickname: '+14155550177',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const noPhone = await createWallet(testApp);
    const refused = await testApp.platform.api.post('/auth/credentials').send({ type: 'SMS_OTP', accountId: noPhone.accountId }).expect(400);
    expect(refused.body).toEqual({
      status: 400,
      code: 'MISSING_MANDATORY_USER_INFO',
      message: expect.any(String),
      details: { errors: [{ field: 'phoneNumber', constraint: {}, message: refused.body.message }] },
    });
  });

  it('a credential set changed between the 202 and its signed retry is 400 with reason EMAIL_OTP_CREDENTIAL_SET_CHANGED (no 409 is declared)', async () => {
    const wallet = await createWallet(testApp);
    const { key } = await login(wallet);
    const smsBody = { type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550123' };
    const pending = (await testApp.platform.api.post('/auth/credentials').send(smsBody).expect(202)).body;
    const passkey = new SoftwarePasskey(SANDBOX_PASSKEY);
    const challenge = SoftwarePasskey.registrationChallenge();
    await wallet.client.addCredential({ type: 'PASSKEY', accountId: wallet.accountId, nickname: 'Phone', challenge, attestation: passkey.register(challenge) }, key);
    const retry = await testApp.platform.api
      .post('/auth/credentials')
      .set({ 'Service-Wallet-Signature': stampPayload(pending.payloadToSign, key), 'Request-Id': pending.requestId })
      .send(smsBody);
    expect(retry.status).toBe(400);
    expect(retry.body).toEqual({ status: 400, code: 'INVALID_INPUT', message: expect.any(String), details: { reason: 'EMAIL_OTP_CREDENTIAL_SET_CHANGED' } });
  });

  it('one EMAIL_OTP and one SMS_OTP per wallet, a passkey once, an email for one wallet (the *_ALREADY_EXISTS codes)', async () => {
    const wallet = await createWallet(testApp);
    const other = await createWallet(testApp);
    const { key } = await login(wallet);
    const api = testApp.platform.api;
    const emailAgain = await api.post('/auth/credentials').send({ type: 'EMAIL_OTP', accountId: wallet.accountId, email: 'second@example.com' });
    expectError(emailAgain, 400, 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');
    await wallet.client.addCredential({ type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550124' }, key);
    expectError(await api.post('/auth/credentials').send({ type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550125' }), 400, 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS');
    const passkey = new SoftwarePasskey(SANDBOX_PASSKEY);
    const first = SoftwarePasskey.registrationChallenge();
    await wallet.client.addCredential({ type: 'PASSKEY', accountId: wallet.accountId, nickname: 'Key', challenge: first, attestation: passkey.register(first) }, key);
    const second = SoftwarePasskey.registrationChallenge();
    const again = { type: 'PASSKEY', accountId: wallet.accountId, nickname: 'Key', challenge: second, attestation: passkey.register(second) };
    expectError(await api.post('/auth/credentials').send(again), 400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS');
    expectError(await api.post('/auth/credentials').send({ ...again, accountId: other.accountId }), 400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS');
    // The other wallet's email is its EMAIL_OTP credential: remove ours first to make room for one.
    const otherEmail = await api.post('/auth/credentials').send({ type: 'EMAIL_OTP', accountId: wallet.accountId, email: other.email.toUpperCase() });
    expectError(otherEmail, 400, 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');
    const smsSession = await wallet.client.listCredentials(wallet.accountId);
    const passkeyCredential = smsSession.find((credential) => credential.type === 'PASSKEY');
    const passkeyLogin = await wallet.client.loginWithPasskey(passkeyCredential.id, passkey);
    await wallet.client.removeCredential(wallet.emailCredentialId, passkeyLogin.sessionKey);
    // Another wallet's email: the 409 EMAIL_OTP_EMAIL_ALREADY_EXISTS is not declared here, so it is the reason of a 400.
    const taken = await api.post('/auth/credentials').send({ type: 'EMAIL_OTP', accountId: wallet.accountId, email: other.email.toUpperCase() });
    expectError(taken, 400, 'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');
    expect(taken.body.details).toEqual({ reason: 'EMAIL_OTP_EMAIL_ALREADY_EXISTS' });
  });

  it('removing a credential needs a session of another credential; the last one stays (400 LAST_CREDENTIAL); its sessions end with it', async () => {
    const wallet = await createWallet(testApp);
    const api = testApp.platform.api;
    const emailSession = await login(wallet);
    const lonely = await api.delete(`/auth/credentials/${wallet.emailCredentialId}`);
    expect(lonely.status).toBe(400);
    expect(lonely.body).toEqual({ status: 400, code: 'INVALID_INPUT', message: expect.any(String), details: { reason: 'LAST_CREDENTIAL' } });

    const sms = await wallet.client.addCredential({ type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550126' }, emailSession.key);
    const removal = (await api.delete(`/auth/credentials/${wallet.emailCredentialId}`).expect(202)).body;
    expect(removal).toMatchObject({ type: 'EMAIL_OTP' });
    const ownSession = await api
      .delete(`/auth/credentials/${wallet.emailCredentialId}`)
      .set({ 'Service-Wallet-Signature': stampPayload(removal.payloadToSign, emailSession.key), 'Request-Id': removal.requestId });
    expectError(ownSession, 401, 'WALLET_SIGNATURE_INVALID', 'A credential is removed with a session of another credential of the wallet');

    const smsLogin = await wallet.client.loginWithOtp(sms.id);
    const removed = await api
      .delete(`/auth/credentials/${wallet.emailCredentialId}`)
      .set({ 'Service-Wallet-Signature': stampPayload(removal.payloadToSign, smsLogin.sessionKey), 'Request-Id': removal.requestId });
    expect(removed.status).toBe(204);
    expect((await api.get('/auth/credentials').query({ accountId: wallet.accountId }).expect(200)).body.data.map((c: { id: string }) => c.id)).toEqual([sms.id]);
    const sessions = (await api.get('/auth/sessions').query({ accountId: wallet.accountId }).expect(200)).body.data;
    expect(sessions.map((session: { type: string }) => session.type)).toEqual(['SMS_OTP']);
    const privacy = await privacyChallenge(wallet);
    expectError(
      await retryPrivacy(wallet, { 'Service-Wallet-Signature': stampPayload(privacy.payloadToSign, emailSession.key), 'Request-Id': privacy.requestId }),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expectError(await api.delete(`/auth/credentials/${sms.id}`), 400, 'INVALID_INPUT', 'LAST_CREDENTIAL');
    expectError(await api.delete(`/auth/credentials/${wallet.emailCredentialId}`), 404, 'REFERENCE_NOT_FOUND');
  });

  it('a session is refreshed only by its own key, and only while it is live', async () => {
    const wallet = await createWallet(testApp);
    const first = await login(wallet);
    const second = await login(wallet);
    const body = { clientPublicKey: generateWalletKeyPair().publicKey };
    const refresh = (await testApp.platform.api.post(`/auth/sessions/${first.sessionId}/refresh`).send(body).expect(202)).body;
    const byOther = await testApp.platform.api
      .post(`/auth/sessions/${first.sessionId}/refresh`)
      .set({ 'Service-Wallet-Signature': stampPayload(refresh.payloadToSign, second.key), 'Request-Id': refresh.requestId })
      .send(body);
    expectError(byOther, 401, 'WALLET_SIGNATURE_INVALID', 'A session is refreshed with its own session key');
    await wallet.client.revokeSession(first.sessionId, second.key);
    expectError(await testApp.platform.api.post(`/auth/sessions/${first.sessionId}/refresh`).send(body), 401, 'UNAUTHORIZED', /no longer active/);
    expectError(await testApp.platform.api.delete(`/auth/sessions/${first.sessionId}`), 404, 'REFERENCE_NOT_FOUND');
  });
});
