import { KeyObject } from 'node:crypto';
import { generateP256KeyPair, P256KeyPair, privateKeyScalar, signP256, uncompressedPublicKeyHex } from '../../infra/crypto/p256';

/**
 * `otpEncryptionTargetBundle` (DECISIONS.md section 4): the JSON text
 * {"version":"v1.0.0","data": hex(UTF-8 JSON {"targetPublic": ..., ...}), "dataSignature": DER hex,
 * "enclaveQuorumPublic": hex}. The client library verifies `dataSignature` with the enclave key it
 * pinned, comparing `enclaveQuorumPublic` to that pin as an exact string, so both keys are written
 * as lowercase uncompressed hex, and then encrypts to `targetPublic` exactly as written.
 */

export const OTP_TARGET_BUNDLE_VERSION = 'v1.0.0';

export interface OtpTarget {
  /** Fresh per challenge and single use; seal `privateKeyScalar` in the KeyVault, never in events. */
  privateKey: KeyObject;
  /** 32-byte private scalar (the form to seal and later restore with privateKeyFromScalar). */
  privateKeyScalar: Buffer;
  publicKey: KeyObject;
  /** Lowercase uncompressed hex, as written into the bundle. */
  publicKeyHex: string;
}

/** A fresh target encryption key for one OTP challenge. */
export function createOtpTarget(): OtpTarget {
  const pair = generateP256KeyPair();
  return {
    privateKey: pair.privateKey,
    privateKeyScalar: privateKeyScalar(pair.privateKey),
    publicKey: pair.publicKey,
    publicKeyHex: uncompressedPublicKeyHex(pair.publicKey),
  };
}

export interface OtpTargetBundleInput {
  /** The target key's public half (KeyObject) or its uncompressed hex. */
  targetPublicKey: KeyObject | string;
  /** The service enclave key pair: `vault.serviceKey('wallet-enclave')`. */
  enclaveKey: P256KeyPair;
  /** Optional context written into the signed data after targetPublic (for example the wallet id). */
  organizationId?: string;
}

/** Builds the bundle text returned by POST /auth/credentials/{id}/challenge. */
export function buildOtpEncryptionTargetBundle(input: OtpTargetBundleInput): string {
  const targetPublic = typeof input.targetPublicKey === 'string' ? input.targetPublicKey.toLowerCase() : uncompressedPublicKeyHex(input.targetPublicKey);
  if (!/^04[0-9a-f]{128}$/.test(targetPublic)) throw new Error('targetPublic must be an uncompressed P-256 key');
  const signedData: Record<string, string> = { targetPublic };
  if (input.organizationId !== undefined) signedData.organizationId = input.organizationId;
  const dataBytes = Buffer.from(JSON.stringify(signedData), 'utf8');
  return JSON.stringify({
    version: OTP_TARGET_BUNDLE_VERSION,
    data: dataBytes.toString('hex'),
    dataSignature: signP256(dataBytes, input.enclaveKey.privateKey).der.toString('hex'),
    enclaveQuorumPublic: uncompressedPublicKeyHex(input.enclaveKey.publicKey),
  });
}
