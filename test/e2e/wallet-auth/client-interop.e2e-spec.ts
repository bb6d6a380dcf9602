import { encryptOtpCode, generateWalletKeyPair, openCredentialBundle, sandboxOidcToken, stampPayload as toolkitStamp } from '../../../src/wallet-auth/client';
import { TestApp, startTestApp } from '../../support/test-app';
import {
  clientKeyPairFromPrivateKey,
  decryptBundle,
  decryptSessionSigningKey,
  encryptOtpBundle,
  generateClientKeyPair,
  stampPayload,
  verifyVerificationToken,
} from '../../support/wallet-client';
import { createWallet } from './wallet-fixtures';

/**
 * Interop with the real client libraries over HTTP (issue 7 part 7): @turnkey/api-key-stamper's
 * stamps are accepted, @turnkey/crypto's OTP encryption is decrypted and its token verifier
 * accepts our token, its decryptCredentialBundle opens our sealed session keys and exports; and
 * this project's client toolkit produces and opens the same formats.
 */
describe('embedded wallet interop with @turnkey client libraries', () => {
  let testApp: TestApp;
  let enclavePublicKey: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    enclavePublicKey = (await testApp.platform.api.get('/config').expect(200)).body.walletEnclavePublicKey;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function otpLogin(credentialId: string, encrypt: 'turnkey' | 'toolkit', stamp: 'turnkey' | 'toolkit') {
    const api = testApp.platform.api;
    const tek = generateClientKeyPair();
    const challenge = (await api.post(`/auth/credentials/${credentialId}/challenge`).expect(200)).body;
    const input = { otpCode: '000000', otpEncryptionTargetBundle: challenge.otpEncryptionTargetBundle, tekPublicKey: tek.publicKey, enclavePublicKey };
    const encryptedOtpBundle = encrypt === 'turnkey' ? await encryptOtpBundle(input) : await encryptOtpCode(input);
    const body = { type: 'EMAIL_OTP', encryptedOtpBundle };
    const leg1 = (await api.post(`/auth/credentials/${credentialId}/verify`).send(body).expect(202)).body;
    const claims = await verifyVerificationToken(leg1.payloadToSign, enclavePublicKey);
    expect(claims.public_key).toBe(tek.publicKey);
    const signature = stamp === 'turnkey' ? await stampPayload(leg1.payloadToSign, tek) : toolkitStamp(leg1.payloadToSign, tek);
    const session = await api.post(`/auth/credentials/${credentialId}/verify`).set({ 'Service-Wallet-Signature': signature, 'Request-Id': leg1.requestId }).send(body).expect(200);
    return { sessionId: session.body.id as string, key: tek };
  }

  it.each([
    ['turnkey', 'turnkey'],
    ['toolkit', 'turnkey'],
    ['turnkey', 'toolkit'],
  ] as const)('OTP login: encryption by %s, TEK stamp by %s', async (encrypt, stamp) => {
    const wallet = await createWallet(testApp);
    const { sessionId } = await otpLogin(wallet.emailCredentialId, encrypt, stamp);
    expect(sessionId).toMatch(/^Session:/);
  });

  it('ApiKeyStamper stamps sign signed actions, with the signature in low-S and high-S form, the key compressed or not', async () => {
    const wallet = await createWallet(testApp);
    const { key } = await otpLogin(wallet.emailCredentialId, 'turnkey', 'turnkey');
    const variants: Array<{ form: 'low' | 'high'; signer: { privateKey: string; publicKey: string } }> = [
      { form: 'low', signer: key },
      { form: 'high', signer: key },
      { form: 'high', signer: { privateKey: key.privateKey, publicKey: key.publicKeyUncompressed } },
    ];
    for (const [index, variant] of variants.entries()) {
      const body = { privateEnabled: index % 2 === 0 };
      const challenge = (await testApp.platform.api.patch(`/internal-accounts/${wallet.accountId}`).send(body).expect(202)).body;
      const header = withSForm(await stampPayload(challenge.payloadToSign, variant.signer), variant.form);
      await testApp.platform.api.patch(`/internal-accounts/${wallet.accountId}`).set({ 'Service-Wallet-Signature': header, 'Request-Id': challenge.requestId }).send(body).expect(200);
    }
  });

  it('decryptCredentialBundle opens the sealed session keys of legacy OAuth logins and refreshes, and the keys sign', async () => {
    const wallet = await createWallet(testApp);
    const { key, sessionId } = await otpLogin(wallet.emailCredentialId, 'turnkey', 'turnkey');
    const oauth = await wallet.client.addCredential({ type: 'OAUTH', accountId: wallet.accountId, oidcToken: sandboxOidcToken({ sub: 'interop-1' }) }, key);
    const clientKey = generateClientKeyPair();
    const login = await testApp.platform.api
      .post(`/auth/credentials/${oauth.id}/verify`)
      .send({ type: 'OAUTH', clientPublicKey: clientKey.publicKeyUncompressed, oidcToken: sandboxOidcToken({ sub: 'interop-1', clientPublicKey: clientKey.publicKeyUncompressed }) })
      .expect(200);
    const sessionKey = decryptSessionSigningKey(login.body.encryptedSessionSigningKey, clientKey.privateKey);
    expect(await openCredentialBundle(login.body.encryptedSessionSigningKey, clientKey.privateKey)).toBe(sessionKey.privateKey);

    const refreshKey = generateClientKeyPair();
    const refreshBody = { clientPublicKey: refreshKey.publicKeyUncompressed };
    const refresh = (await testApp.platform.api.post(`/auth/sessions/${sessionId}/refresh`).send(refreshBody).expect(202)).body;
    const refreshed = await testApp.platform.api
      .post(`/auth/sessions/${sessionId}/refresh`)
      .set({ 'Service-Wallet-Signature': await stampPayload(refresh.payloadToSign, key), 'Request-Id': refresh.requestId })
      .send(refreshBody)
      .expect(201);
    const refreshedKey = clientKeyPairFromPrivateKey(decryptBundle(refreshed.body.encryptedSessionSigningKey, refreshKey.privateKey));

    for (const signer of [sessionKey, refreshedKey]) {
      const challenge = (await testApp.platform.api.patch(`/internal-accounts/${wallet.accountId}`).send({ privateEnabled: true }).expect(202)).body;
      await testApp.platform.api
        .patch(`/internal-accounts/${wallet.accountId}`)
        .set({ 'Service-Wallet-Signature': await stampPayload(challenge.payloadToSign, signer), 'Request-Id': challenge.requestId })
        .send({ privateEnabled: true })
        .expect(200);
    }
  });

  it('decryptCredentialBundle and the toolkit open the same export to the same wallet secret, every time', async () => {
    const wallet = await createWallet(testApp);
    const { key } = await otpLogin(wallet.emailCredentialId, 'toolkit', 'toolkit');
    const secrets: string[] = [];
    for (let round = 0; round < 2; round++) {
      const exportKey = generateWalletKeyPair();
      const body = { clientPublicKey: exportKey.publicKeyUncompressed };
      const challenge = (await testApp.platform.api.post(`/internal-accounts/${wallet.accountId}/export`).send(body).expect(202)).body;
      const exported = await testApp.platform.api
        .post(`/internal-accounts/${wallet.accountId}/export`)
        .set({ 'Service-Wallet-Signature': toolkitStamp(challenge.payloadToSign, key), 'Request-Id': challenge.requestId })
        .send(body)
        .expect(200);
      const opened = decryptBundle(exported.body.encryptedWalletCredentials, exportKey.privateKey);
      expect(await openCredentialBundle(exported.body.encryptedWalletCredentials, exportKey.privateKey)).toBe(opened);
      secrets.push(opened);
    }
    expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(secrets[1]).toBe(secrets[0]);
  });

  it('the target bundle is refused by the client library when pinned to another enclave key', async () => {
    const wallet = await createWallet(testApp);
    const challenge = (await testApp.platform.api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`).expect(200)).body;
    const stranger = generateClientKeyPair().publicKeyUncompressed;
    await expect(
      encryptOtpBundle({ otpCode: '000000', otpEncryptionTargetBundle: challenge.otpEncryptionTargetBundle, tekPublicKey: generateClientKeyPair().publicKey, enclavePublicKey: stranger }),
    ).rejects.toThrow();
    await expect(
      encryptOtpCode({ otpCode: '000000', otpEncryptionTargetBundle: challenge.otpEncryptionTargetBundle, tekPublicKey: generateClientKeyPair().publicKey, enclavePublicKey: stranger }),
    ).rejects.toThrow('pinned enclave key');
  });
});

const ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/**
 * The same stamp with its signature's s rewritten to the low (s <= n/2) or high (n - s) form:
 * both are valid ECDSA signatures; clients produce either (CRYPTO-NOTES.md).
 */
function withSForm(header: string, form: 'low' | 'high'): string {
  const stamp = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  const der = Buffer.from(stamp.signature, 'hex');
  const rLength = der[3];
  const r = BigInt(`0x${der.subarray(4, 4 + rLength).toString('hex')}`);
  const sLength = der[5 + rLength];
  let s = BigInt(`0x${der.subarray(6 + rLength, 6 + rLength + sLength).toString('hex')}`);
  const isHigh = s > ORDER / 2n;
  if ((form === 'high') !== isHigh) s = ORDER - s;
  stamp.signature = encodeDer(r, s).toString('hex');
  return Buffer.from(JSON.stringify(stamp), 'utf8').toString('base64url');
}

function encodeDer(r: bigint, s: bigint): Buffer {
  const integer = (value: bigint) => {
    let bytes = Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
    while (bytes.length > 1 && bytes[0] === 0 && bytes[1] < 0x80) bytes = bytes.subarray(1);
    if (bytes[0] >= 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
    return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
  };
  const body = Buffer.concat([integer(r), integer(s)]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}
