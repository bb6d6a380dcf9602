import bs58check from 'bs58check';
import { decryptBundle, decryptSessionSigningKey, generateClientKeyPair, stampPayload } from '../../../test/support/wallet-client';
import { privateKeyFromScalar, privateKeyScalar } from '../../infra/crypto/p256';
import { checkClientPublicKey, generateSessionSigningKey, sealSessionSigningKey, sealWalletCredentials } from './credential-bundle';
import { verifyWalletSignatureHeader } from './wallet-signature';

describe('encryptedSessionSigningKey', () => {
  it('opens with decryptCredentialBundle to the session key, which then signs accepted stamps', async () => {
    for (let index = 0; index < 10; index++) {
      const client = generateClientKeyPair();
      const session = generateSessionSigningKey();
      const bundle = await sealSessionSigningKey(session, client.publicKeyUncompressed);
      expect(decryptBundle(bundle, client.privateKey)).toBe(session.privateKeyScalar.toString('hex'));
      const opened = decryptSessionSigningKey(bundle, client.privateKey);
      expect(opened.publicKey).toBe(session.publicKeyCompressedHex);
      const stamp = await stampPayload('payload', opened);
      expect(verifyWalletSignatureHeader(stamp, 'payload', { sandbox: false })).toMatchObject({ ok: true, publicKeyCompressedHex: session.publicKeyCompressedHex });
    }
  });

  it('is base58check of 33-byte compressed enc || 32-byte ciphertext || 16-byte tag', async () => {
    const client = generateClientKeyPair();
    const bytes = Buffer.from(bs58check.decode(await sealSessionSigningKey(generateSessionSigningKey(), client.publicKeyUncompressed)));
    expect(bytes).toHaveLength(81);
    expect([0x02, 0x03]).toContain(bytes[0]);
  });

  it('keeps a scalar with leading zero bytes at 32 bytes', async () => {
    const scalar = Buffer.concat([Buffer.alloc(2), Buffer.alloc(30, 0x5a)]);
    const key = privateKeyFromScalar(scalar);
    expect(privateKeyScalar(key)).toEqual(scalar);
    const client = generateClientKeyPair();
    const bundle = await sealSessionSigningKey({ privateKeyScalar: privateKeyScalar(key) }, client.publicKeyUncompressed);
    expect(decryptBundle(bundle, client.privateKey)).toBe(scalar.toString('hex'));
  });

  it('also seals to a compressed key, and does not open with another key', async () => {
    const client = generateClientKeyPair();
    const session = generateSessionSigningKey();
    const bundle = await sealSessionSigningKey(session, client.publicKey);
    expect(decryptBundle(bundle, client.privateKey)).toBe(session.privateKeyScalar.toString('hex'));
    expect(() => decryptBundle(bundle, generateClientKeyPair().privateKey)).toThrow();
    await expect(sealSessionSigningKey(session, 'abcd')).rejects.toThrow();
  });
});

describe('encryptedWalletCredentials', () => {
  it('carries arbitrary secret bytes to the client', async () => {
    const client = generateClientKeyPair();
    const secret = Buffer.from('abandon ability able about above absent absorb abstract absurd abuse access accident', 'utf8');
    const bundle = await sealWalletCredentials(secret, client.publicKeyUncompressed);
    expect(Buffer.from(decryptBundle(bundle, client.privateKey), 'hex').toString('utf8')).toBe(secret.toString('utf8'));
  });
});

describe('checkClientPublicKey', () => {
  it('tells the compressed (client keeps its key) and uncompressed (legacy sealed key) flows apart', () => {
    const client = generateClientKeyPair();
    expect(checkClientPublicKey(client.publicKey)).toMatchObject({ ok: true, format: 'compressed' });
    expect(checkClientPublicKey(client.publicKeyUncompressed)).toMatchObject({ ok: true, format: 'uncompressed', key: { compressedHex: client.publicKey } });
    for (const bad of [undefined, 42, '', 'zz', '04' + '11'.repeat(64), client.publicKey.slice(0, -2)]) {
      expect(checkClientPublicKey(bad)).toMatchObject({ ok: false });
    }
  });
});
