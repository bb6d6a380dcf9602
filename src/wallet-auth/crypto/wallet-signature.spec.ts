import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateClientKeyPair, stampPayload } from '../../../test/support/wallet-client';
import { P256_ORDER, parseDerSignature } from '../../infra/crypto/p256';
import {
  isSignedByOneOf,
  parseWalletSignatureHeader,
  SANDBOX_WALLET_SIGNATURE_LITERAL,
  VerifiedWalletSignature,
  verifyWalletSignatureHeader,
} from './wallet-signature';

const PAYLOAD = '{"organizationId":"InternalAccount:1","parameters":{"quoteId":"Quote:1"},"timestampMs":"1775681700000","type":"ACTIVITY_TYPE_EXECUTE_QUOTE"}';
const PRODUCTION = { sandbox: false };

function header(stamp: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(stamp), 'utf8').toString('base64url');
}

async function realStamp(payload = PAYLOAD) {
  const key = generateClientKeyPair();
  const value = await stampPayload(payload, key);
  const decoded = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  return { key, value, decoded };
}

describe('Service-Wallet-Signature', () => {
  it('verifies ApiKeyStamper stamps, high-S included, over the exact payload bytes', async () => {
    let highS = 0;
    for (let index = 0; index < 64; index++) {
      const payload = `${PAYLOAD} #${index} é`;
      const { key, value, decoded } = await realStamp(payload);
      const signature = parseDerSignature(Buffer.from(decoded.signature, 'hex'))!;
      if (signature.s > P256_ORDER / 2n) highS++;
      expect(verifyWalletSignatureHeader(value, payload, PRODUCTION)).toEqual({
        ok: true,
        kind: 'stamp',
        publicKeyCompressedHex: key.publicKey,
        publicKeyUncompressedHex: key.publicKeyUncompressed,
      });
    }
    expect(highS).toBeGreaterThan(0);
  });

  it('verifies a stamp whose publicKey is uncompressed', async () => {
    const key = generateClientKeyPair();
    const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKeyUncompressed, apiPrivateKey: key.privateKey });
    const { stampHeaderValue } = await stamper.stamp(PAYLOAD);
    expect(verifyWalletSignatureHeader(stampHeaderValue, PAYLOAD, PRODUCTION)).toMatchObject({ ok: true, publicKeyCompressedHex: key.publicKey });
  });

  it.each([undefined, null, '', '   ', []])('answers WALLET_SIGNATURE_MISSING for %p', (value) => {
    expect(verifyWalletSignatureHeader(value as never, PAYLOAD, PRODUCTION)).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_MISSING' });
  });

  it('answers WALLET_SIGNATURE_MALFORMED for every undecodable shape', async () => {
    const { decoded, value } = await realStamp();
    const cases: Array<string | string[]> = [
      'not base64url!',
      value + '=',
      value.slice(0, -1) + '$',
      Buffer.from('not json').toString('base64url'),
      header([decoded] as never),
      header({ ...decoded, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1' }),
      header({ publicKey: decoded.publicKey, scheme: decoded.scheme }),
      header({ ...decoded, publicKey: 12 }),
      header({ ...decoded, publicKey: decoded.publicKey.slice(1) }),
      header({ ...decoded, publicKey: '02' + 'ff'.repeat(32) }),
      header({ ...decoded, publicKey: '06' + decoded.publicKey.slice(2) }),
      header({ ...decoded, signature: decoded.signature + '00' }),
      header({ ...decoded, signature: 'zz' + decoded.signature.slice(2) }),
      header({ ...decoded, signature: '31' + decoded.signature.slice(2) }),
      header({ ...decoded, signature: '3006020100020101' }),
      header({ ...decoded, signature: '300802020001020101' }),
      [value, value],
      SANDBOX_WALLET_SIGNATURE_LITERAL,
    ];
    for (const bad of cases) {
      const result = verifyWalletSignatureHeader(bad, PAYLOAD, PRODUCTION);
      expect({ bad, result }).toMatchObject({ bad, result: { ok: false, code: 'WALLET_SIGNATURE_MALFORMED' } });
    }
  });

  it('answers WALLET_SIGNATURE_INVALID when the signature does not verify', async () => {
    const { value, decoded } = await realStamp();
    expect(verifyWalletSignatureHeader(value, PAYLOAD + ' ', PRODUCTION)).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_INVALID' });
    expect(verifyWalletSignatureHeader(value, JSON.stringify(JSON.parse(PAYLOAD), null, 1), PRODUCTION)).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID' });
    const otherKey = generateClientKeyPair();
    expect(verifyWalletSignatureHeader(header({ ...decoded, publicKey: otherKey.publicKey }), PAYLOAD, PRODUCTION)).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID' });
    const signature = Buffer.from(decoded.signature, 'hex');
    signature[signature.length - 1] ^= 0x01;
    expect(verifyWalletSignatureHeader(header({ ...decoded, signature: signature.toString('hex') }), PAYLOAD, PRODUCTION)).toMatchObject({
      code: 'WALLET_SIGNATURE_INVALID',
    });
  });

  it('answers WALLET_SIGNATURE_INVALID for a stamper whose public key is not its private key', async () => {
    const signer = generateClientKeyPair();
    const claimed = generateClientKeyPair();
    const value = await stampPayload(PAYLOAD, { privateKey: signer.privateKey, publicKey: claimed.publicKey });
    expect(verifyWalletSignatureHeader(value, PAYLOAD, PRODUCTION)).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_INVALID' });
  });

  it('accepts the legacy literal in the sandbox only', () => {
    expect(verifyWalletSignatureHeader(SANDBOX_WALLET_SIGNATURE_LITERAL, PAYLOAD, { sandbox: true })).toEqual({
      ok: true,
      kind: 'sandbox-literal',
      publicKeyCompressedHex: null,
      publicKeyUncompressedHex: null,
    });
    expect(verifyWalletSignatureHeader(SANDBOX_WALLET_SIGNATURE_LITERAL, PAYLOAD, PRODUCTION)).toMatchObject({ ok: false });
  });

  it('parses without verifying, keeping the key as sent', async () => {
    const { value, decoded } = await realStamp();
    const parsed = parseWalletSignatureHeader(value, PRODUCTION);
    expect(parsed).toMatchObject({ ok: true, value: { kind: 'stamp', publicKeyAsSent: decoded.publicKey, publicKey: { format: 'compressed' } } });
  });

  it('matches the signing key against allowed keys in either encoding', async () => {
    const { key, value } = await realStamp();
    const verified = verifyWalletSignatureHeader(value, PAYLOAD, PRODUCTION) as VerifiedWalletSignature;
    expect(isSignedByOneOf(verified, [key.publicKey])).toBe(true);
    expect(isSignedByOneOf(verified, ['zz', key.publicKeyUncompressed.toUpperCase()])).toBe(true);
    expect(isSignedByOneOf(verified, [generateClientKeyPair().publicKey, 'not hex'])).toBe(false);
    const literal = verifyWalletSignatureHeader(SANDBOX_WALLET_SIGNATURE_LITERAL, PAYLOAD, { sandbox: true }) as VerifiedWalletSignature;
    expect(isSignedByOneOf(literal, [key.publicKey])).toBe(false);
  });
});
