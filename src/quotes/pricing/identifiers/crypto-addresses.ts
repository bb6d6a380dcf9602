import { createHash } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1';
import type { CryptoNetwork } from '../rails';
import { base58CheckDecode, base58CheckEncode, base58Decode, base58Encode } from './base58';
import { bech32Decode, bech32Encode, fromWords, toWords } from '../../../shared/bech32';

/**
 * Wallet addresses per network (DECISIONS.md section 1b: "format checked per network"). The
 * sandbox derives its deposit addresses from a 32-byte seed, so the same quote always gets the
 * same address; sandbox formats use each network's test prefix (regtest for Bitcoin and Spark).
 */
export type WalletNetwork = Exclude<CryptoNetwork, 'LIGHTNING'>;

const EVM_NETWORKS: ReadonlySet<string> = new Set(['ETHEREUM', 'BASE', 'POLYGON', 'PLASMA']);
const SPARK_PREFIXES = new Set(['spark', 'sparkrt', 'sparkt', 'sparks', 'sparkl', 'sp', 'sprt', 'spt', 'sps', 'spl']);
const BITCOIN_SEGWIT_PREFIXES = new Set(['bc', 'tb', 'bcrt']);
const BITCOIN_BASE58_VERSIONS = new Set([0x00, 0x05, 0x6f, 0xc4]);
const TRON_VERSION = 0x41;

function sha256(...parts: Array<string | Uint8Array>): Uint8Array {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** A compressed secp256k1 public key for a seed (Spark identity keys, Lightning node keys). */
export function secp256k1PublicKey(seed: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(sha256('secp256k1-key', seed), true);
}

/** Spark address: bech32m of the protobuf `{1: identity public key}`. */
export function sparkAddress(identityPublicKey: Uint8Array, prefix = 'sparkrt'): string {
  const payload = Uint8Array.from([0x0a, identityPublicKey.length, ...identityPublicKey]);
  return bech32Encode(prefix, toWords(payload), 'bech32m');
}

export function depositAddress(network: WalletNetwork, seed: Uint8Array): string {
  switch (network) {
    case 'SOLANA':
      return base58Encode(ed25519.getPublicKey(sha256('ed25519-key', seed)));
    case 'ETHEREUM':
    case 'BASE':
    case 'POLYGON':
    case 'PLASMA':
      return `0x${Buffer.from(sha256('evm-address', seed).subarray(12)).toString('hex')}`;
    case 'TRON':
      return base58CheckEncode(Uint8Array.from([TRON_VERSION, ...sha256('tron-address', seed).subarray(12)]));
    case 'BITCOIN':
      return bech32Encode('bcrt', [0, ...toWords(sha256('p2wpkh', seed).subarray(0, 20))], 'bech32');
    case 'SPARK':
      return sparkAddress(secp256k1PublicKey(seed));
  }
}

/** Whether `address` is well-formed for `network` (checksums verified where the format has one). */
export function isValidAddress(network: WalletNetwork, address: string): boolean {
  if (typeof address !== 'string' || address.length > 200) return false;
  if (EVM_NETWORKS.has(network)) return /^0x[0-9a-fA-F]{40}$/.test(address);
  switch (network) {
    case 'SOLANA': {
      if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) return false;
      return base58Decode(address)?.length === 32;
    }
    case 'TRON': {
      const payload = /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address) ? base58CheckDecode(address) : null;
      return payload !== null && payload.length === 21 && payload[0] === TRON_VERSION;
    }
    case 'BITCOIN':
      return isValidBitcoinAddress(address);
    case 'SPARK': {
      const decoded = bech32Decode(address, 'bech32m');
      if (!decoded || !SPARK_PREFIXES.has(decoded.prefix)) return false;
      const payload = fromWords(decoded.words);
      return payload !== null && payload.length >= 35 && payload[0] === 0x0a && payload[1] === 33;
    }
    default:
      return false;
  }
}

function isValidBitcoinAddress(address: string): boolean {
  for (const variant of ['bech32', 'bech32m'] as const) {
    const decoded = bech32Decode(address, variant);
    if (!decoded || !BITCOIN_SEGWIT_PREFIXES.has(decoded.prefix) || decoded.words.length < 1) continue;
    const version = decoded.words[0];
    const program = fromWords(decoded.words.slice(1));
    if (!program || program.length < 2 || program.length > 40) continue;
    if (version === 0 && variant === 'bech32' && (program.length === 20 || program.length === 32)) return true;
    if (version >= 1 && version <= 16 && variant === 'bech32m') return true;
  }
  const payload = /^[123mn][1-9A-HJ-NP-Za-km-z]{25,34}$/.test(address) ? base58CheckDecode(address) : null;
  return payload !== null && payload.length === 21 && BITCOIN_BASE58_VERSIONS.has(payload[0]);
}

/** `user@domain` as a Lightning address (LUD-16). */
export function isLightningAddress(text: string): boolean {
  return /^[a-z0-9._+-]{1,64}@(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(text);
}
