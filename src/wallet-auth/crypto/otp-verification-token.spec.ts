import { generateClientKeyPair, stampPayload, verifyVerificationToken } from '../../../test/support/wallet-client';
import { generateP256KeyPair, uncompressedPublicKeyHex } from '../../infra/crypto/p256';
import { buildOtpVerificationToken, otpVerificationTypeFor, OtpVerificationTokenInput, readOtpVerificationToken } from './otp-verification-token';
import { verifyWalletSignatureHeader } from './wallet-signature';

const enclaveKey = generateP256KeyPair();
const enclavePublicKey = uncompressedPublicKeyHex(enclaveKey.publicKey);

function input(overrides: Partial<OtpVerificationTokenInput> = {}): OtpVerificationTokenInput {
  return {
    id: 'Request:0195f0a8-0000-7000-8000-000000000001',
    verificationType: otpVerificationTypeFor('EMAIL_OTP'),
    contact: 'alice@example.com',
    organizationId: 'InternalAccount:0195f0a8-0000-7000-8000-000000000002',
    publicKey: generateClientKeyPair().publicKey,
    expiresAtMs: Date.now() + 5 * 60_000,
    ...overrides,
  };
}

describe('OTP verification token (leg 1 payloadToSign)', () => {
  it('is accepted by the client library, which returns our claims', async () => {
    for (let index = 0; index < 20; index++) {
      const claims = input({ verificationType: index % 2 ? 'OTP_TYPE_SMS' : 'OTP_TYPE_EMAIL' });
      const token = buildOtpVerificationToken(claims, enclaveKey.privateKey);
      expect(await verifyVerificationToken(token, enclavePublicKey)).toEqual({
        id: claims.id,
        verification_type: claims.verificationType,
        contact: claims.contact,
        organization_id: claims.organizationId,
        public_key: claims.publicKey,
        exp: String(claims.expiresAtMs),
      });
    }
  });

  it('has the exact header and a 64-byte P1363 signature', () => {
    const [header, , signature] = buildOtpVerificationToken(input(), enclaveKey.privateKey).split('.');
    expect(Buffer.from(header, 'base64url').toString('utf8')).toBe('{"alg":"ES256","kid":"turnkey","typ":"JWT"}');
    expect(Buffer.from(signature, 'base64url')).toHaveLength(64);
  });

  it('is refused by the client library when expired, or pinned to another key', async () => {
    const expired = buildOtpVerificationToken(input({ expiresAtMs: Date.now() - 1 }), enclaveKey.privateKey);
    await expect(verifyVerificationToken(expired, enclavePublicKey)).rejects.toThrow(/expired/);
    const token = buildOtpVerificationToken(input(), enclaveKey.privateKey);
    await expect(verifyVerificationToken(token, uncompressedPublicKeyHex(generateP256KeyPair().publicKey))).rejects.toThrow();
  });

  it('refuses to build a token the client would refuse', () => {
    expect(() => buildOtpVerificationToken(input({ contact: '' }), enclaveKey.privateKey)).toThrow();
    expect(() => buildOtpVerificationToken(input({ expiresAtMs: 1.5 }), enclaveKey.privateKey)).toThrow();
  });

  it('reads back our own token, and refuses tampered, expired or foreign ones', () => {
    const now = Date.now();
    const claims = input();
    const token = buildOtpVerificationToken(claims, enclaveKey.privateKey);
    expect(readOtpVerificationToken(token, enclaveKey.publicKey, now)).toMatchObject({ public_key: claims.publicKey, contact: claims.contact });
    expect(readOtpVerificationToken(token, enclaveKey.publicKey, claims.expiresAtMs + 1)).toBeNull();
    expect(readOtpVerificationToken(token, generateP256KeyPair().publicKey, now)).toBeNull();
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, contact: 'mallory@example.com' })).toString('base64url');
    expect(readOtpVerificationToken(`${header}.${forged}.${signature}`, enclaveKey.publicKey, now)).toBeNull();
    expect(readOtpVerificationToken('a.b', enclaveKey.publicKey, now)).toBeNull();
  });

  it('is what the TEK stamps on the signed retry', async () => {
    const tek = generateClientKeyPair();
    const token = buildOtpVerificationToken(input({ publicKey: tek.publicKey }), enclaveKey.privateKey);
    const stamp = await stampPayload(token, tek);
    expect(verifyWalletSignatureHeader(stamp, token, { sandbox: false })).toMatchObject({ ok: true, publicKeyCompressedHex: tek.publicKey });
  });
});
