import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import {
  decryptCredentialBundle,
  encryptOtpCodeToBundle,
  generateP256KeyPair,
  getPublicKey,
  verifyOtpVerificationToken,
  type VerificationTokenClaims,
} from '@turnkey/crypto';
import { createHash } from 'node:crypto';

/**
 * The client side of the embedded-wallet formats, done with the REAL client libraries
 * (@turnkey/crypto, @turnkey/api-key-stamper) so tests prove interoperability rather than agree
 * with themselves. Keys are hex strings, as those libraries and wallet apps hold them.
 */

export interface ClientKeyPair {
  /** 32-byte scalar, hex. */
  privateKey: string;
  /** 33-byte compressed SEC1, hex (what ApiKeyStamper wants as apiPublicKey). */
  publicKey: string;
  /** 65-byte uncompressed SEC1, hex (what the legacy flow sends as clientPublicKey). */
  publicKeyUncompressed: string;
}

/** A fresh P-256 key pair (a TEK, a session API key or a clientPublicKey pair). */
export function generateClientKeyPair(): ClientKeyPair {
  return generateP256KeyPair();
}

/** The key pair of a private key hex (for example a decrypted encryptedSessionSigningKey). */
export function clientKeyPairFromPrivateKey(privateKeyHex: string): ClientKeyPair {
  const privateKey = privateKeyHex.padStart(64, '0');
  const bytes = Uint8Array.from(Buffer.from(privateKey, 'hex'));
  return {
    privateKey,
    publicKey: Buffer.from(getPublicKey(bytes, true)).toString('hex'),
    publicKeyUncompressed: Buffer.from(getPublicKey(bytes, false)).toString('hex'),
  };
}

/** The `Service-Wallet-Signature` value for a payload: ApiKeyStamper's X-Stamp value. */
export async function stampPayload(payloadToSign: string, key: Pick<ClientKeyPair, 'privateKey' | 'publicKey'>): Promise<string> {
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  const { stampHeaderValue } = await stamper.stamp(payloadToSign);
  return stampHeaderValue;
}

/**
 * `encryptedOtpBundle` for an OTP challenge: encryptOtpCodeToBundle verifies the bundle's
 * signature against the pinned enclave key (GET /config walletEnclavePublicKey) and throws when
 * it does not match; `tekPublicKey` is the key that signs leg 2 and becomes the session key.
 */
export function encryptOtpBundle(args: { otpCode: string; otpEncryptionTargetBundle: string; tekPublicKey: string; enclavePublicKey: string }): Promise<string> {
  return encryptOtpCodeToBundle(args.otpCode, args.otpEncryptionTargetBundle, args.tekPublicKey, args.enclavePublicKey);
}

/** Opens `encryptedSessionSigningKey` / `encryptedWalletCredentials`; returns the plaintext hex. */
export function decryptBundle(bundle: string, clientPrivateKeyHex: string): string {
  return decryptCredentialBundle(bundle, clientPrivateKeyHex);
}

/** Opens `encryptedSessionSigningKey` and returns the session key pair, ready to stamp. */
export function decryptSessionSigningKey(bundle: string, clientPrivateKeyHex: string): ClientKeyPair {
  return clientKeyPairFromPrivateKey(decryptCredentialBundle(bundle, clientPrivateKeyHex));
}

/** The OTP leg-1 payloadToSign as the client library reads it (throws when it would refuse it). */
export function verifyVerificationToken(token: string, enclavePublicKey: string): Promise<VerificationTokenClaims> {
  return verifyOtpVerificationToken(token, enclavePublicKey);
}

export interface OidcTokenOptions {
  iss?: string;
  aud?: string | string[];
  sub?: string;
  /** Seconds since the epoch; default now. */
  iat?: number;
  /** Seconds since the epoch; default iat + 300. */
  exp?: number;
  /** Sets `nonce` to sha256 hex of this exact text (the verify request's clientPublicKey). */
  clientPublicKey?: string;
  /** Any further claims (or overrides, including removing one by setting it undefined). */
  extraClaims?: Record<string, unknown>;
  nowMs?: number;
}

/** A JWT-shaped sandbox OIDC token with a dummy signature segment (SPEC.md sandbox rule 8). */
export function buildOidcToken(options: OidcTokenOptions = {}): string {
  const nowSeconds = Math.floor((options.nowMs ?? Date.now()) / 1000);
  const iat = options.iat ?? nowSeconds;
  const claims: Record<string, unknown> = {
    iss: options.iss ?? 'https://accounts.google.com',
    aud: options.aud ?? 'sandbox-oauth-client-id',
    sub: options.sub ?? 'sandbox-user-123',
    iat,
    exp: options.exp ?? iat + 300,
    email: 'sandbox-user-123@example.com',
    email_verified: true,
  };
  if (options.clientPublicKey !== undefined) claims.nonce = oidcNonce(options.clientPublicKey);
  Object.assign(claims, options.extraClaims ?? {});
  const segment = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  return `${segment({ alg: 'RS256', typ: 'JWT' })}.${segment(claims)}.sandbox-signature`;
}

/** sha256 hex of the exact clientPublicKey text. */
export function oidcNonce(clientPublicKey: string): string {
  return createHash('sha256').update(clientPublicKey, 'utf8').digest('hex');
}
