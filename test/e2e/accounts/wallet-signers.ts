import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import bs58 from 'bs58';
import bs58check from 'bs58check';
import { sparkAddress } from '../../../src/quotes/pricing/identifiers/crypto-addresses';

/**
 * Real wallets for ownership tests: fresh keys, each chain's address, and its message signing as
 * a wallet does it (EVM personal_sign, Tron signMessageV2, Solana signMessage, Bitcoin message
 * signing by a Spark identity key), independent of the service's verifier.
 */
export interface TestWallet {
  address: string;
  sign(message: string, options?: { highS?: boolean; header?: 'p2pkh' | 'p2wpkh' }): string;
}

const N = secp256k1.CURVE.n;

function recoverableSignature(hash: Uint8Array, privateKey: Uint8Array, highS: boolean): { r: bigint; s: bigint; recovery: number } {
  const signature = secp256k1.sign(hash, privateKey);
  // The mirror signature (n - s) recovers the same key with the other parity.
  return highS ? { r: signature.r, s: N - signature.s, recovery: signature.recovery ^ 1 } : signature;
}

function rs(r: bigint, s: bigint): Buffer {
  return Buffer.from(r.toString(16).padStart(64, '0') + s.toString(16).padStart(64, '0'), 'hex');
}

function prefixedKeccak(prefix: string, message: string): Uint8Array {
  const bytes = Buffer.from(message, 'utf8');
  return keccak_256(Buffer.concat([Buffer.from(`${prefix}${bytes.length}`), bytes]));
}

function keyHash20(privateKey: Uint8Array): Uint8Array {
  return keccak_256(secp256k1.getPublicKey(privateKey, false).subarray(1)).subarray(12);
}

export function evmWallet(): TestWallet {
  const privateKey = secp256k1.utils.randomPrivateKey();
  const hex = Buffer.from(keyHash20(privateKey)).toString('hex');
  // The EIP-55 mixed-case form wallets show: the service compares case-insensitively.
  const hash = Buffer.from(keccak_256(hex)).toString('hex');
  const address = `0x${[...hex].map((char, index) => (parseInt(hash[index], 16) >= 8 ? char.toUpperCase() : char)).join('')}`;
  return {
    address,
    sign(message, options = {}) {
      const { r, s, recovery } = recoverableSignature(prefixedKeccak('\x19Ethereum Signed Message:\n', message), privateKey, options.highS ?? false);
      return `0x${rs(r, s).toString('hex')}${(27 + recovery).toString(16)}`;
    },
  };
}

export function tronWallet(): TestWallet {
  const privateKey = secp256k1.utils.randomPrivateKey();
  return {
    address: bs58check.encode(Uint8Array.from([0x41, ...keyHash20(privateKey)])),
    sign(message, options = {}) {
      const { r, s, recovery } = recoverableSignature(prefixedKeccak('\x19TRON Signed Message:\n', message), privateKey, options.highS ?? false);
      return `0x${rs(r, s).toString('hex')}${(27 + recovery).toString(16)}`;
    },
  };
}

export function solanaWallet(): TestWallet {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  return {
    address: bs58.encode(raw),
    sign: (message) => bs58.encode(sign(null, Buffer.from(message, 'utf8'), privateKey)),
  };
}

function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** Bitcoin's compact-size length (the messages here are under 64 KiB). */
function compactSize(length: number): Buffer {
  return length < 0xfd ? Buffer.from([length]) : Buffer.from([0xfd, length & 0xff, length >> 8]);
}

export function sparkWallet(): TestWallet {
  const privateKey = secp256k1.utils.randomPrivateKey();
  return {
    address: sparkAddress(secp256k1.getPublicKey(privateKey, true), 'sparkrt'),
    sign(message, options = {}) {
      const text = Buffer.from(message, 'utf8');
      const magic = Buffer.from('Bitcoin Signed Message:\n');
      const hash = sha256(sha256(Buffer.concat([compactSize(magic.length), magic, compactSize(text.length), text])));
      const { r, s, recovery } = recoverableSignature(hash, privateKey, options.highS ?? false);
      // A compressed P2PKH header (31..34), or BIP-137's native segwit one (39..42).
      const header = (options.header === 'p2wpkh' ? 39 : 31) + recovery;
      return Buffer.concat([Buffer.from([header]), rs(r, s)]).toString('base64');
    },
  };
}
