import { encryptOtpBundle, generateClientKeyPair } from '../../../test/support/wallet-client';
import { compressPoint, generateP256KeyPair, privateKeyFromScalar, uncompressedPublicKeyHex } from '../../infra/crypto/p256';
import { hpkeSeal } from './hpke';
import { isOtpCodeCorrect, openEncryptedOtpBundle, SANDBOX_OTP_CODE } from './otp-bundle';
import { buildOtpEncryptionTargetBundle, createOtpTarget } from './otp-target-bundle';

const enclaveKey = generateP256KeyPair();
const enclavePublicKey = uncompressedPublicKeyHex(enclaveKey.publicKey);

function challenge() {
  const target = createOtpTarget();
  const bundle = buildOtpEncryptionTargetBundle({ targetPublicKey: target.publicKey, enclaveKey, organizationId: 'InternalAccount:1' });
  return { target, bundle };
}

async function clientEncrypts(bundle: string, tekPublicKey = generateClientKeyPair().publicKey, otpCode = SANDBOX_OTP_CODE) {
  return encryptOtpBundle({ otpCode, otpEncryptionTargetBundle: bundle, tekPublicKey, enclavePublicKey });
}

describe('otpEncryptionTargetBundle', () => {
  it('has the exact shape, lowercase uncompressed keys, and the target key in the signed data', () => {
    const { target, bundle } = challenge();
    const parsed = JSON.parse(bundle);
    expect(Object.keys(parsed)).toEqual(['version', 'data', 'dataSignature', 'enclaveQuorumPublic']);
    expect(parsed.version).toBe('v1.0.0');
    expect(parsed.enclaveQuorumPublic).toBe(enclavePublicKey);
    expect(parsed.enclaveQuorumPublic).toMatch(/^04[0-9a-f]{128}$/);
    expect(parsed.dataSignature).toMatch(/^30[0-9a-f]+$/);
    expect(JSON.parse(Buffer.from(parsed.data, 'hex').toString('utf8'))).toEqual({ targetPublic: target.publicKeyHex, organizationId: 'InternalAccount:1' });
    expect(target.publicKeyHex).toMatch(/^04[0-9a-f]{128}$/);
  });

  it('is accepted by the client library, bundle after bundle (fresh target key each time)', async () => {
    const seen = new Set<string>();
    for (let index = 0; index < 20; index++) {
      const { target, bundle } = challenge();
      seen.add(target.publicKeyHex);
      const encrypted = await clientEncrypts(bundle);
      expect(await openEncryptedOtpBundle(encrypted, target.privateKey)).toMatchObject({ ok: true, otpCode: SANDBOX_OTP_CODE });
    }
    expect(seen.size).toBe(20);
  });

  it('is refused by the client library when pinned to another enclave key', async () => {
    const { bundle } = challenge();
    const otherEnclave = uncompressedPublicKeyHex(generateP256KeyPair().publicKey);
    const tekPublicKey = generateClientKeyPair().publicKey;
    await expect(encryptOtpBundle({ otpCode: '000000', otpEncryptionTargetBundle: bundle, tekPublicKey, enclavePublicKey: otherEnclave })).rejects.toThrow();
  });

  it('is refused by the client library when the signed data or its signature was tampered with', async () => {
    const { bundle } = challenge();
    const parsed = JSON.parse(bundle);
    const attacker = createOtpTarget();
    const swapped = JSON.stringify({ ...parsed, data: Buffer.from(JSON.stringify({ targetPublic: attacker.publicKeyHex })).toString('hex') });
    await expect(clientEncrypts(swapped)).rejects.toThrow();
    const signature = Buffer.from(parsed.dataSignature, 'hex');
    signature[signature.length - 1] ^= 0x01;
    await expect(clientEncrypts(JSON.stringify({ ...parsed, dataSignature: signature.toString('hex') }))).rejects.toThrow();
  });

  it('survives sealing the target scalar and restoring it', async () => {
    const { target, bundle } = challenge();
    expect(target.privateKeyScalar).toHaveLength(32);
    const restored = privateKeyFromScalar(target.privateKeyScalar);
    expect(await openEncryptedOtpBundle(await clientEncrypts(bundle), restored)).toMatchObject({ ok: true });
  });

  it('refuses a compressed or malformed target key', () => {
    const compressed = compressPoint(Buffer.from(createOtpTarget().publicKeyHex, 'hex')).toString('hex');
    expect(() => buildOtpEncryptionTargetBundle({ targetPublicKey: compressed, enclaveKey })).toThrow();
  });
});

describe('openEncryptedOtpBundle', () => {
  it('returns the code and the TEK exactly as sent, compressed or uncompressed', async () => {
    const tek = generateClientKeyPair();
    for (const sent of [tek.publicKey, tek.publicKeyUncompressed]) {
      const { target, bundle } = challenge();
      const result = await openEncryptedOtpBundle(await clientEncrypts(bundle, sent, '123456'), target.privateKey);
      expect(result).toMatchObject({
        ok: true,
        otpCode: '123456',
        publicKeyAsSent: sent,
        publicKey: { compressedHex: tek.publicKey, uncompressedHex: tek.publicKeyUncompressed },
      });
    }
  });

  it('accepts a compressed encappedPublic', async () => {
    const { target, bundle } = challenge();
    const encrypted = JSON.parse(await clientEncrypts(bundle));
    const compressed = compressPoint(Buffer.from(encrypted.encappedPublic, 'hex')).toString('hex');
    const result = await openEncryptedOtpBundle(JSON.stringify({ ...encrypted, encappedPublic: compressed }), target.privateKey);
    expect(result).toMatchObject({ ok: true, otpCode: SANDBOX_OTP_CODE });
  });

  it('answers DECRYPTION_FAILED for another challenge, a tampered ciphertext, or another encapsulated key', async () => {
    const { target, bundle } = challenge();
    const encrypted = await clientEncrypts(bundle);
    expect(await openEncryptedOtpBundle(encrypted, createOtpTarget().privateKey)).toMatchObject({ ok: false, kind: 'DECRYPTION_FAILED' });
    const parsed = JSON.parse(encrypted);
    const ciphertext = Buffer.from(parsed.ciphertext, 'hex');
    ciphertext[0] ^= 0x01;
    const tampered = JSON.stringify({ ...parsed, ciphertext: ciphertext.toString('hex') });
    expect(await openEncryptedOtpBundle(tampered, target.privateKey)).toMatchObject({ ok: false, kind: 'DECRYPTION_FAILED' });
    const otherEnc = JSON.stringify({ ...parsed, encappedPublic: createOtpTarget().publicKeyHex });
    expect(await openEncryptedOtpBundle(otherEnc, target.privateKey)).toMatchObject({ ok: false, kind: 'DECRYPTION_FAILED' });
  });

  it.each([
    ['not a string', { encappedPublic: 'aa', ciphertext: 'bb' }],
    ['not JSON', 'encrypted'],
    ['a JSON array', '[]'],
    ['missing ciphertext', JSON.stringify({ encappedPublic: '04' + 'aa'.repeat(64) })],
    ['odd hex', JSON.stringify({ encappedPublic: '04a', ciphertext: 'aa' })],
    ['a point off the curve', JSON.stringify({ encappedPublic: '04' + '11'.repeat(64), ciphertext: 'aa'.repeat(32) })],
  ])('answers MALFORMED_BUNDLE for %s', async (_name, value) => {
    expect(await openEncryptedOtpBundle(value, createOtpTarget().privateKey)).toMatchObject({ ok: false, kind: 'MALFORMED_BUNDLE' });
  });

  it('answers MALFORMED_BUNDLE for a ciphertext shorter than a tag', async () => {
    const value = JSON.stringify({ encappedPublic: createOtpTarget().publicKeyHex, ciphertext: 'aa'.repeat(16) });
    expect(await openEncryptedOtpBundle(value, createOtpTarget().privateKey)).toMatchObject({ ok: false, kind: 'MALFORMED_BUNDLE' });
  });

  it.each([
    ['not JSON', 'otp 000000'],
    ['no otp_code', JSON.stringify({ public_key: generateClientKeyPair().publicKey })],
    ['a numeric otp_code', JSON.stringify({ otp_code: 0, public_key: generateClientKeyPair().publicKey })],
    ['a public_key that is not a key', JSON.stringify({ otp_code: '000000', public_key: 'abcd' })],
  ])('answers MALFORMED_PLAINTEXT for %s', async (_name, plaintext) => {
    const target = createOtpTarget();
    const sealed = await hpkeSeal(Buffer.from(plaintext, 'utf8'), Buffer.from(target.publicKeyHex, 'hex'));
    const value = JSON.stringify({ encappedPublic: sealed.encappedPublic.toString('hex'), ciphertext: sealed.ciphertext.toString('hex') });
    expect(await openEncryptedOtpBundle(value, target.privateKey)).toMatchObject({ ok: false, kind: 'MALFORMED_PLAINTEXT' });
  });

  it('compares codes exactly', () => {
    expect(isOtpCodeCorrect('000000', SANDBOX_OTP_CODE)).toBe(true);
    expect(isOtpCodeCorrect('000001', SANDBOX_OTP_CODE)).toBe(false);
    expect(isOtpCodeCorrect('0000000', SANDBOX_OTP_CODE)).toBe(false);
    expect(isOtpCodeCorrect('', SANDBOX_OTP_CODE)).toBe(false);
  });
});
