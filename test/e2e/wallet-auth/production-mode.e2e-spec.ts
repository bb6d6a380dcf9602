import { encryptOtpCode, generateWalletKeyPair, SoftwarePasskey } from '../../../src/wallet-auth/client';
import { TestApp, startTestApp } from '../../support/test-app';
import { SoftwareAuthenticator } from '../../support/webauthn-authenticator';
import { SANDBOX_PASSKEY, createWallet } from './wallet-fixtures';

/** Outside the sandbox the legacy literals are refused and the OTP is not 000000. */
describe('embedded wallets in production mode', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { SERVICE_MODE: 'production' } });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('refuses the sandbox OTP code, the literal signature and the literal passkey assertion', async () => {
    const api = testApp.platform.api;
    const wallet = await createWallet(testApp);
    const enclavePublicKey = (await api.get('/config').expect(200)).body.walletEnclavePublicKey;
    const challenge = (await api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`).expect(200)).body;
    const encryptedOtpBundle = await encryptOtpCode({ otpCode: '000000', otpEncryptionTargetBundle: challenge.otpEncryptionTargetBundle, tekPublicKey: generateWalletKeyPair().publicKey, enclavePublicKey });
    const otp = await api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`).send({ type: 'EMAIL_OTP', encryptedOtpBundle });
    expect(otp.status).toBe(401);
    expect(otp.body.details.reason).toBe('Invalid OTP code');

    const privacy = (await api.patch(`/internal-accounts/${wallet.accountId}`).send({ privateEnabled: true }).expect(202)).body;
    const literal = await api
      .patch(`/internal-accounts/${wallet.accountId}`)
      .set({ 'Service-Wallet-Signature': 'sandbox-valid-signature', 'Request-Id': privacy.requestId })
      .send({ privateEnabled: true });
    expect(literal.status).toBe(401);
    expect(literal.body.code).toBe('WALLET_SIGNATURE_MALFORMED');

    // A wallet whose customer has no email starts without credentials: its first one is unsigned.
    const bare = await createWallet(testApp, testApp.platform, { email: undefined });
    expect(bare.emailCredentialId).toBeUndefined();
    const authenticator = new SoftwareAuthenticator(SANDBOX_PASSKEY);
    const registration = SoftwarePasskey.registrationChallenge();
    const passkey = await api
      .post('/auth/credentials')
      .send({ type: 'PASSKEY', accountId: bare.accountId, nickname: 'Only key', challenge: registration, attestation: authenticator.register({ challenge: registration }) })
      .expect(201);
    const login = (await api.post(`/auth/credentials/${passkey.body.id}/challenge`).send({ clientPublicKey: generateWalletKeyPair().publicKey }).expect(200)).body;
    const refused = await api.post(`/auth/credentials/${passkey.body.id}/verify`).set('Request-Id', login.requestId).send({ type: 'PASSKEY', assertion: authenticator.legacySandboxAssertion() });
    expect(refused.status).toBe(400);
    const real = await api
      .post(`/auth/credentials/${passkey.body.id}/verify`)
      .set('Request-Id', login.requestId)
      .send({ type: 'PASSKEY', assertion: authenticator.assert({ challenge: { hex: login.challenge } }) });
    expect(real.status).toBe(200);
  });
});
