import { createPublicKey, sign } from 'node:crypto';
import {
  compressedPublicKeyHex,
  decompressPoint,
  encodeDerSignature,
  generateP256KeyPair,
  P256_ORDER,
  parseDerSignature,
  parseP256PublicKeyHex,
  privateKeyFromScalar,
  privateKeyScalar,
  signP256,
  uncompressedPublicKeyHex,
  verifyP256,
} from './p256';

describe('P-256 public keys', () => {
  it('parse compressed and uncompressed hex (either case) to the same key', () => {
    const { publicKey } = generateP256KeyPair();
    const compressed = compressedPublicKeyHex(publicKey);
    const uncompressed = uncompressedPublicKeyHex(publicKey);
    expect(parseP256PublicKeyHex(compressed)).toMatchObject({ format: 'compressed', compressedHex: compressed, uncompressedHex: uncompressed });
    expect(parseP256PublicKeyHex(uncompressed.toUpperCase())).toMatchObject({ format: 'uncompressed', compressedHex: compressed });
    expect(decompressPoint(Buffer.from(compressed, 'hex')).toString('hex')).toBe(uncompressed);
  });

  it('refuse points off the curve, wrong lengths and prefixes, and non-hex', () => {
    const uncompressed = uncompressedPublicKeyHex(generateP256KeyPair().publicKey);
    for (const bad of ['04' + '11'.repeat(64), '02' + 'ff'.repeat(32), '04' + uncompressed.slice(2, 66), '06' + uncompressed.slice(2), uncompressed + '00', 'xyz', '', 5]) {
      expect(parseP256PublicKeyHex(bad)).toBeNull();
    }
  });
});

describe('P-256 private scalars', () => {
  it('round-trip, left-padded to 32 bytes', () => {
    const { privateKey, publicKey } = generateP256KeyPair();
    const scalar = privateKeyScalar(privateKey);
    expect(scalar).toHaveLength(32);
    expect(uncompressedPublicKeyHex(privateKeyFromScalar(scalar))).toBe(uncompressedPublicKeyHex(publicKey));
    const short = Buffer.alloc(31, 0x11);
    expect(privateKeyScalar(privateKeyFromScalar(short))).toEqual(Buffer.concat([Buffer.alloc(1), short]));
  });

  it('refuse zero and the group order', () => {
    expect(() => privateKeyFromScalar(Buffer.alloc(32))).toThrow();
    expect(() => privateKeyFromScalar(Buffer.from(P256_ORDER.toString(16), 'hex'))).toThrow();
  });
});

describe('ECDSA signatures', () => {
  it('are signed low-S and verify; high-S forms of the same signature verify too', () => {
    const { privateKey, publicKey } = generateP256KeyPair();
    for (let index = 0; index < 50; index++) {
      const data = Buffer.from(`message ${index}`);
      const { der, p1363 } = signP256(data, privateKey);
      const parsed = parseDerSignature(der)!;
      expect(parsed.s <= P256_ORDER / 2n).toBe(true);
      expect(p1363).toHaveLength(64);
      expect(verifyP256(data, parsed, publicKey)).toBe(true);
      expect(verifyP256(data, { r: parsed.r, s: P256_ORDER - parsed.s }, publicKey)).toBe(true);
      expect(verifyP256(Buffer.from('other'), parsed, publicKey)).toBe(false);
    }
  });

  it('parse exactly what Node writes', () => {
    const { privateKey } = generateP256KeyPair();
    for (let index = 0; index < 50; index++) {
      const der = sign('sha256', Buffer.from([index]), { key: privateKey, dsaEncoding: 'der' });
      expect(encodeDerSignature(parseDerSignature(der)!)).toEqual(der);
    }
  });

  it.each([
    ['empty', ''],
    ['a non-sequence tag', '3106020101020101'],
    ['a wrong sequence length', '3007020101020101'],
    ['trailing bytes', '300602010102010100'],
    ['a non-minimal integer', '300702020001020101'],
    ['a negative integer', '3006020180020101'],
    ['a zero r', '3006020100020101'],
    ['an r equal to the order', encodeDerSignature({ r: P256_ORDER, s: 1n }).toString('hex')],
    ['an s above the order', encodeDerSignature({ r: 1n, s: P256_ORDER + 1n }).toString('hex')],
    ['a third integer', '3009020101020101020101'],
  ])('refuse %s', (_name, hex) => {
    expect(parseDerSignature(Buffer.from(hex, 'hex'))).toBeNull();
  });

  it('answer false rather than throw for a key that is not P-256', () => {
    const ed = createPublicKey({ key: Buffer.from('302a300506032b6570032100' + '11'.repeat(32), 'hex'), format: 'der', type: 'spki' });
    expect(verifyP256(Buffer.from('x'), { r: 1n, s: 1n }, ed)).toBe(false);
  });
});
