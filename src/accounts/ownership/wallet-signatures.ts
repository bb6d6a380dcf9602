import { createHash, createPublicKey, verify } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import bs58 from 'bs58';
import bs58check from 'bs58check';
import type { SignatureScheme } from '../domain/external-account/external-account.events';
import { sparkIdentityKey } from './spark-address';

/**
 * Checks a wallet's signature over an ownership challenge's `messageToSign` (docs/accounts.md
 * "Ownership verification"), in each chain's own message-signing format:
 * - EVM (Ethereum, Base, Polygon, Plasma): EIP-191 `personal_sign`, 65 bytes hex (r, s, v with v
 *   27/28 or 0/1); the signer's address is recovered and compared.
 * - Solana: Ed25519 over the message's UTF-8 bytes, base58; the address is the public key.
 * - Spark: Bitcoin message signing (the reference's Bitcoin format: base64, BIP-137 or Electrum
 *   headers) by the wallet's identity key, which the Spark address carries.
 * - Tron: TIP-191 (`signMessageV2`), EIP-191 with Tron's prefix, 65 bytes hex; the recovered key's
 *   Tron address is compared.
 * ECDSA signatures with a high S are accepted (as the chains' own recovery does). Anything
 * malformed is a signature that does not verify.
 */
export function verifyOwnershipSignature(input: {
  accountType: string;
  address: string;
  message: string;
  signature: string;
  signatureScheme?: SignatureScheme;
}): boolean {
  try {
    switch (input.accountType) {
      case 'ETHEREUM_WALLET':
      case 'BASE_WALLET':
      case 'POLYGON_WALLET':
      case 'PLASMA_WALLET':
        return evmSigner(input.message, input.signature) === input.address.toLowerCase();
      case 'TRON_WALLET':
        return tronSigner(input.message, input.signature) === input.address;
      case 'SOLANA_WALLET':
        return verifySolana(input.address, input.message, input.signature);
      case 'SPARK_WALLET':
        return verifyBitcoinMessage(sparkIdentityKey(input.address), input.message, input.signature, input.signatureScheme ?? 'bip137');
      default:
        return false;
    }
  } catch {
    return false;
  }
}

const EVM_PREFIX = '\x19Ethereum Signed Message:\n';
const TRON_PREFIX = '\x19TRON Signed Message:\n';
const BITCOIN_PREFIX = 'Bitcoin Signed Message:\n';

/** EIP-191 version 0x45: keccak256(prefix, the message's byte length in decimal, the message). */
function prefixedKeccak(prefix: string, message: string): Uint8Array {
  const bytes = Buffer.from(message, 'utf8');
  return keccak_256(Buffer.concat([Buffer.from(`${prefix}${bytes.length}`, 'utf8'), bytes]));
}

/** The uncompressed public key (65 bytes) that made a 65-byte r||s||v signature over `hash`. */
function recoverFromRsv(hash: Uint8Array, signatureHex: string): Uint8Array {
  if (!/^(0x)?[0-9a-f]{130}$/i.test(signatureHex)) throw new Error('signature must be 65 bytes of hex');
  const bytes = Buffer.from(signatureHex.replace(/^0x/i, ''), 'hex');
  const v = bytes[64];
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) throw new Error('bad recovery id');
  const signature = secp256k1.Signature.fromCompact(bytes.subarray(0, 64)).addRecoveryBit(recovery);
  return signature.recoverPublicKey(hash).toRawBytes(false);
}

/** The last 20 bytes of keccak256 of the key's X and Y: the account an EVM or Tron key controls. */
function keyHash20(uncompressedKey: Uint8Array): Uint8Array {
  return keccak_256(uncompressedKey.subarray(1)).subarray(12);
}

/** The lowercase 0x address that signed `message` with personal_sign. */
function evmSigner(message: string, signature: string): string {
  return `0x${Buffer.from(keyHash20(recoverFromRsv(prefixedKeccak(EVM_PREFIX, message), signature))).toString('hex')}`;
}

/** The base58check Tron address (version byte 0x41) that signed `message` with signMessageV2. */
function tronSigner(message: string, signature: string): string {
  const key = recoverFromRsv(prefixedKeccak(TRON_PREFIX, message), signature);
  return bs58check.encode(Uint8Array.from([0x41, ...keyHash20(key)]));
}

/** Ed25519 with node:crypto, the raw 32-byte key wrapped as a JWK. */
function verifySolana(address: string, message: string, signature: string): boolean {
  const publicKey = bs58.decode(address);
  const signatureBytes = bs58.decode(signature);
  if (publicKey.length !== 32 || signatureBytes.length !== 64) return false;
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' });
  return verify(null, Buffer.from(message, 'utf8'), key, signatureBytes);
}

function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** Bitcoin's compact-size length prefix. */
function varint(length: number): Buffer {
  if (length < 0xfd) return Buffer.from([length]);
  if (length <= 0xffff) return Buffer.from([0xfd, length & 0xff, length >> 8]);
  const out = Buffer.alloc(5);
  out[0] = 0xfe;
  out.writeUInt32LE(length, 1);
  return out;
}

/**
 * Bitcoin message signing: double SHA-256 of the magic prefix and the message, each with its
 * length; the base64 signature is a header byte (27 + recovery id, + 4 for a compressed key,
 * BIP-137 adds + 8 and + 12 for segwit addresses, which Electrum writes as compressed) and r, s.
 * The key recovered must be `publicKey` (a Spark identity key names no address type).
 */
function verifyBitcoinMessage(publicKey: Uint8Array, message: string, signature: string, scheme: SignatureScheme): boolean {
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.length !== 65 || bytes.toString('base64') !== signature) return false;
  const header = bytes[0];
  const highest = scheme === 'electrum' ? 34 : 42;
  if (header < 27 || header > highest) return false;
  const text = Buffer.from(message, 'utf8');
  const hash = sha256(sha256(Buffer.concat([varint(BITCOIN_PREFIX.length), Buffer.from(BITCOIN_PREFIX, 'utf8'), varint(text.length), text])));
  const recovered = secp256k1.Signature.fromCompact(bytes.subarray(1)).addRecoveryBit((header - 27) & 3).recoverPublicKey(hash);
  return recovered.equals(secp256k1.ProjectivePoint.fromHex(publicKey));
}
