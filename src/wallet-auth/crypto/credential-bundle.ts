import bs58check from 'bs58check';
import { KeyObject } from 'node:crypto';
import {
  compressPoint,
  compressedPublicKeyHex,
  generateP256KeyPair,
  P256PublicKey,
  parseP256PublicKeyHex,
  privateKeyScalar,
  uncompressedPublicKeyHex,
} from '../../infra/crypto/p256';
import { hpkeSeal } from './hpke';

/**
 * `encryptedSessionSigningKey` and `encryptedWalletCredentials` (DECISIONS.md section 4):
 * base58check(compressed encapsulated key (33 bytes) || AES-256-GCM ciphertext || tag), HPKE-sealed
 * to the client's uncompressed `clientPublicKey` with the suite of hpke.ts. @turnkey/crypto's
 * decryptCredentialBundle(bundle, privateKeyHex) opens it and returns the plaintext as hex.
 */

export type ClientPublicKeyCheck =
  | {
      ok: true;
      key: P256PublicKey;
      /**
       * compressed: the client keeps its own key and signs with it (nothing is sealed back);
       * uncompressed: the legacy flow, the service generates a session key and seals it to this key.
       */
      format: P256PublicKey['format'];
    }
  | { ok: false; reason: string };

/** The shape of a `clientPublicKey` (hex SEC1 P-256, compressed or uncompressed), the field error's hint. */
export const CLIENT_PUBLIC_KEY_PATTERN = /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/;
export const UNCOMPRESSED_CLIENT_PUBLIC_KEY_PATTERN = /^04[0-9a-fA-F]{128}$/;

/** Validates a `clientPublicKey` body field (hex SEC1 P-256); a failure is a 400 field error. */
export function checkClientPublicKey(clientPublicKey: unknown): ClientPublicKeyCheck {
  const key = parseP256PublicKeyHex(clientPublicKey);
  if (!key) return { ok: false, reason: 'clientPublicKey must be a compressed or uncompressed P-256 public key in hex' };
  return { ok: true, key, format: key.format };
}

/** Seals arbitrary bytes to a client key (either SEC1 encoding in hex; the AAD uses the uncompressed form). */
export async function sealCredentialBundle(plaintext: Uint8Array, clientPublicKeyHex: string): Promise<string> {
  const key = parseP256PublicKeyHex(clientPublicKeyHex);
  if (!key) throw new Error('clientPublicKey is not a P-256 public key');
  const sealed = await hpkeSeal(plaintext, Buffer.from(key.uncompressedHex, 'hex'));
  return bs58check.encode(Buffer.concat([compressPoint(sealed.encappedPublic), sealed.ciphertext]));
}

export interface SessionSigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** 32-byte scalar: what is sealed to the client, and what to seal in the KeyVault if kept. */
  privateKeyScalar: Buffer;
  publicKeyCompressedHex: string;
  publicKeyUncompressedHex: string;
}

/** A fresh 32-byte P-256 session signing key for the legacy (uncompressed clientPublicKey) flow. */
export function generateSessionSigningKey(): SessionSigningKey {
  const pair = generateP256KeyPair();
  return {
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
    privateKeyScalar: privateKeyScalar(pair.privateKey),
    publicKeyCompressedHex: compressedPublicKeyHex(pair.publicKey),
    publicKeyUncompressedHex: uncompressedPublicKeyHex(pair.publicKey),
  };
}

/** `encryptedSessionSigningKey`: the session key's 32-byte scalar sealed to the client key. */
export function sealSessionSigningKey(sessionKey: Pick<SessionSigningKey, 'privateKeyScalar'>, clientPublicKeyHex: string): Promise<string> {
  return sealCredentialBundle(sessionKey.privateKeyScalar, clientPublicKeyHex);
}

/** `encryptedWalletCredentials`: the wallet secret sealed to the client key (export). */
export function sealWalletCredentials(walletSecret: Uint8Array, clientPublicKeyHex: string): Promise<string> {
  return sealCredentialBundle(walletSecret, clientPublicKeyHex);
}
