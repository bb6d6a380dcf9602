import { createECDH, createPrivateKey, createPublicKey, ECDH, generateKeyPairSync, KeyObject, sign, verify } from 'node:crypto';
import { decodeHexStrict } from './encoding';

/**
 * P-256 (prime256v1, secp256r1) helpers on node:crypto. Keys travel as SEC1 hex on the wire and
 * as KeyObjects inside the service; these functions convert between the two and sign or verify
 * ECDSA-SHA256 with the encodings the wallet formats need.
 */

export const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const HALF_ORDER = P256_ORDER >> 1n;
const SCALAR_BYTES = 32;

// SubjectPublicKeyInfo headers for id-ecPublicKey / prime256v1 with a 33- or 65-byte point.
const SPKI_PREFIX_COMPRESSED = Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex');
const SPKI_PREFIX_UNCOMPRESSED = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

export type P256PublicKeyFormat = 'compressed' | 'uncompressed';

export interface P256PublicKey {
  keyObject: KeyObject;
  /** The encoding the key arrived in. */
  format: P256PublicKeyFormat;
  /** 33 bytes, 02/03 prefix, lowercase hex. */
  compressedHex: string;
  /** 65 bytes, 04 prefix, lowercase hex. */
  uncompressedHex: string;
}

export interface P256KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** Parses a SEC1 point (33-byte compressed or 65-byte uncompressed); null if not a point of P-256. */
export function parseP256PublicKey(bytes: Uint8Array): P256PublicKey | null {
  const point = Buffer.from(bytes);
  let prefix: Buffer;
  if (point.length === 33 && (point[0] === 0x02 || point[0] === 0x03)) prefix = SPKI_PREFIX_COMPRESSED;
  else if (point.length === 65 && point[0] === 0x04) prefix = SPKI_PREFIX_UNCOMPRESSED;
  else return null;
  let keyObject: KeyObject;
  try {
    // OpenSSL refuses points that are not on the curve (or cannot be decompressed) at import.
    keyObject = createPublicKey({ key: Buffer.concat([prefix, point]), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
  const uncompressed = uncompressedPoint(keyObject);
  return {
    keyObject,
    format: point.length === 33 ? 'compressed' : 'uncompressed',
    compressedHex: compressPoint(uncompressed).toString('hex'),
    uncompressedHex: uncompressed.toString('hex'),
  };
}

/** Parses SEC1 hex (either case, either encoding); null when it is not a P-256 point. */
export function parseP256PublicKeyHex(hex: unknown): P256PublicKey | null {
  const bytes = decodeHexStrict(hex);
  return bytes ? parseP256PublicKey(bytes) : null;
}

/** The 65-byte uncompressed point of a public (or private) P-256 KeyObject. */
export function uncompressedPoint(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw new Error('not a P-256 key');
  return Buffer.concat([Buffer.from([0x04]), leftPad(Buffer.from(jwk.x, 'base64url')), leftPad(Buffer.from(jwk.y, 'base64url'))]);
}

export function uncompressedPublicKeyHex(key: KeyObject): string {
  return uncompressedPoint(key).toString('hex');
}

export function compressedPublicKeyHex(key: KeyObject): string {
  return compressPoint(uncompressedPoint(key)).toString('hex');
}

export function compressPoint(uncompressed: Buffer): Buffer {
  const prefix = (uncompressed[64] & 1) === 1 ? 0x03 : 0x02;
  return Buffer.concat([Buffer.from([prefix]), uncompressed.subarray(1, 33)]);
}

/** Decompresses a 33-byte point (the uncompressed form passes through); throws when not on the curve. */
export function decompressPoint(point: Uint8Array): Buffer {
  if (point.length === 65) return Buffer.from(point);
  return ECDH.convertKey(Buffer.from(point), 'prime256v1', undefined, undefined, 'uncompressed') as Buffer;
}

export function generateP256KeyPair(): P256KeyPair {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
}

/** The 32-byte private scalar, left-padded (it is shorter for about one key in 256). */
export function privateKeyScalar(privateKey: KeyObject): Buffer {
  const jwk = privateKey.export({ format: 'jwk' });
  if (jwk.crv !== 'P-256' || !jwk.d) throw new Error('not a P-256 private key');
  return leftPad(Buffer.from(jwk.d, 'base64url'));
}

/** Imports a private scalar (32 bytes, or fewer that left-pad to it); throws when out of range. */
export function privateKeyFromScalar(scalar: Uint8Array): KeyObject {
  const d = leftPad(Buffer.from(scalar));
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  return createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: d.toString('base64url'),
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
}

export interface EcdsaSignature {
  r: bigint;
  s: bigint;
}

/**
 * Signs SHA-256(data) and normalises to low S, so that strict verifiers (BIP-62 style, noble 2
 * defaults) accept our signatures too; lenient verifiers accept either form.
 */
export function signP256(data: Uint8Array, privateKey: KeyObject): { der: Buffer; p1363: Buffer } {
  const raw = sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  const r = bytesToBigInt(raw.subarray(0, SCALAR_BYTES));
  let s = bytesToBigInt(raw.subarray(SCALAR_BYTES));
  if (s > HALF_ORDER) s = P256_ORDER - s;
  return { der: encodeDerSignature({ r, s }), p1363: Buffer.concat([bigIntTo32Bytes(r), bigIntTo32Bytes(s)]) };
}

/** Verifies ECDSA-SHA256 over data; high-S signatures are accepted (clients produce them). */
export function verifyP256(data: Uint8Array, signature: EcdsaSignature, publicKey: KeyObject): boolean {
  if (!isScalarInRange(signature.r) || !isScalarInRange(signature.s)) return false;
  const p1363 = Buffer.concat([bigIntTo32Bytes(signature.r), bigIntTo32Bytes(signature.s)]);
  try {
    return verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, p1363);
  } catch {
    return false;
  }
}

/**
 * Parses a strict DER ECDSA signature: SEQUENCE of two minimal, positive INTEGERs in [1, n-1] and
 * nothing after them. Anything else is null, so callers can tell "not a signature" apart from
 * "a signature that does not verify".
 */
export function parseDerSignature(der: Uint8Array): EcdsaSignature | null {
  const bytes = Buffer.from(der);
  if (bytes.length < 8 || bytes[0] !== 0x30 || bytes[1] >= 0x80 || bytes[1] !== bytes.length - 2) return null;
  const first = readDerInteger(bytes, 2);
  if (!first) return null;
  const second = readDerInteger(bytes, first.next);
  if (!second || second.next !== bytes.length) return null;
  if (!isScalarInRange(first.value) || !isScalarInRange(second.value)) return null;
  return { r: first.value, s: second.value };
}

export function encodeDerSignature(signature: EcdsaSignature): Buffer {
  const r = derInteger(signature.r);
  const s = derInteger(signature.s);
  return Buffer.concat([Buffer.from([0x30, r.length + s.length]), r, s]);
}

function readDerInteger(bytes: Buffer, offset: number): { value: bigint; next: number } | null {
  if (offset + 2 > bytes.length || bytes[offset] !== 0x02) return null;
  const length = bytes[offset + 1];
  const start = offset + 2;
  if (length === 0 || length > 33 || start + length > bytes.length) return null;
  const body = bytes.subarray(start, start + length);
  if ((body[0] & 0x80) !== 0) return null;
  if (body[0] === 0x00 && (length === 1 || (body[1] & 0x80) === 0)) return null;
  return { value: bytesToBigInt(body), next: start + length };
}

function derInteger(value: bigint): Buffer {
  const hex = value.toString(16);
  let body = Buffer.from(hex.length % 2 === 0 ? hex : '0' + hex, 'hex');
  if ((body[0] & 0x80) !== 0) body = Buffer.concat([Buffer.from([0x00]), body]);
  return Buffer.concat([Buffer.from([0x02, body.length]), body]);
}

function isScalarInRange(value: bigint): boolean {
  return value > 0n && value < P256_ORDER;
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt('0x' + Buffer.from(bytes).toString('hex'));
}

function bigIntTo32Bytes(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(SCALAR_BYTES * 2, '0'), 'hex');
}

function leftPad(bytes: Buffer): Buffer {
  if (bytes.length > SCALAR_BYTES) throw new Error('P-256 scalar or coordinate longer than 32 bytes');
  return bytes.length === SCALAR_BYTES ? bytes : Buffer.concat([Buffer.alloc(SCALAR_BYTES - bytes.length), bytes]);
}
