import { decodeBase64UrlStrict, decodeHexStrict, parseJsonObject } from '../../infra/crypto/encoding';
import { EcdsaSignature, P256PublicKey, parseDerSignature, parseP256PublicKey, verifyP256 } from '../../infra/crypto/p256';

/**
 * The `Service-Wallet-Signature` header (DECISIONS.md section 4): base64url, without padding, of
 * the JSON text {"publicKey": SEC1 hex, "scheme": "SIGNATURE_SCHEME_TK_API_P256", "signature":
 * DER hex}, an ECDSA P-256 SHA-256 signature over the exact UTF-8 bytes of the payloadToSign.
 * This is what @turnkey/api-key-stamper's `stamp()` produces as its X-Stamp value.
 *
 * Nothing here throws for bad input: every outcome is a value the HTTP layer maps to a code and a
 * `details.reason`. Whether the key may sign (pending challenge key, live session key) is the
 * caller's question, answered with the normalised key this returns.
 */

export const WALLET_SIGNATURE_HEADER = 'Service-Wallet-Signature';
export const WALLET_SIGNATURE_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';
/** Accepted in sandbox mode only, in place of a real stamp (SPEC.md sandbox rule 9). */
export const SANDBOX_WALLET_SIGNATURE_LITERAL = 'sandbox-valid-signature';

export type WalletSignatureFailureCode = 'WALLET_SIGNATURE_MISSING' | 'WALLET_SIGNATURE_MALFORMED' | 'WALLET_SIGNATURE_INVALID';

export interface WalletSignatureFailure {
  ok: false;
  code: WalletSignatureFailureCode;
  /** A sentence for `details.reason`; never contains the key material. */
  reason: string;
}

/** A header that decoded into a key and a well-formed signature, not yet checked against a payload. */
export interface ParsedWalletStamp {
  kind: 'stamp';
  publicKey: P256PublicKey;
  /** The publicKey text exactly as the client sent it. */
  publicKeyAsSent: string;
  signature: EcdsaSignature;
}

/** The sandbox literal: no key, no signature; the caller decides which session it stands for. */
export interface SandboxLiteralStamp {
  kind: 'sandbox-literal';
}

export type ParsedWalletSignature = ParsedWalletStamp | SandboxLiteralStamp;

export type ParseWalletSignatureResult = { ok: true; value: ParsedWalletSignature } | WalletSignatureFailure;

export interface VerifiedWalletSignature {
  ok: true;
  /** 'stamp' for a verified ECDSA signature, 'sandbox-literal' for the sandbox value. */
  kind: ParsedWalletSignature['kind'];
  /** Compressed lowercase hex of the signing key (null for the sandbox literal): look sessions up by it. */
  publicKeyCompressedHex: string | null;
  publicKeyUncompressedHex: string | null;
}

export type VerifyWalletSignatureResult = VerifiedWalletSignature | WalletSignatureFailure;

export interface WalletSignatureOptions {
  /** True only when the service runs in sandbox mode: enables the legacy literal. */
  sandbox: boolean;
}

/** Decodes and checks the shape of the header value; does not verify the signature. */
export function parseWalletSignatureHeader(header: string | string[] | undefined | null, options: WalletSignatureOptions): ParseWalletSignatureResult {
  if (Array.isArray(header)) {
    if (header.length > 1) return malformed(`${WALLET_SIGNATURE_HEADER} was sent more than once`);
    header = header[0];
  }
  if (header === undefined || header === null || header.trim() === '') {
    return { ok: false, code: 'WALLET_SIGNATURE_MISSING', reason: `${WALLET_SIGNATURE_HEADER} header is missing` };
  }
  const value = header.trim();
  // Outside the sandbox the literal is just a header that does not decode to a stamp.
  if (options.sandbox && value === SANDBOX_WALLET_SIGNATURE_LITERAL) return { ok: true, value: { kind: 'sandbox-literal' } };
  const decoded = decodeBase64UrlStrict(value);
  if (!decoded) return malformed(`${WALLET_SIGNATURE_HEADER} is not unpadded base64url`);
  const stamp = parseJsonObject(decoded.toString('utf8'));
  if (!stamp) return malformed(`${WALLET_SIGNATURE_HEADER} does not decode to a JSON object`);
  const { publicKey, scheme, signature } = stamp;
  if (typeof publicKey !== 'string' || typeof scheme !== 'string' || typeof signature !== 'string') {
    return malformed(`${WALLET_SIGNATURE_HEADER} must carry string publicKey, scheme and signature`);
  }
  if (scheme !== WALLET_SIGNATURE_SCHEME) return malformed(`Unsupported signature scheme; expected ${WALLET_SIGNATURE_SCHEME}`);
  const keyBytes = decodeHexStrict(publicKey);
  const parsedKey = keyBytes && parseP256PublicKey(keyBytes);
  if (!parsedKey) return malformed('publicKey is not a compressed or uncompressed P-256 public key in hex');
  const signatureBytes = decodeHexStrict(signature);
  const parsedSignature = signatureBytes && parseDerSignature(signatureBytes);
  if (!parsedSignature) return malformed('signature is not a DER-encoded ECDSA signature in hex');
  return { ok: true, value: { kind: 'stamp', publicKey: parsedKey, publicKeyAsSent: publicKey, signature: parsedSignature } };
}

/** Verifies a parsed stamp over the exact UTF-8 bytes of payloadToSign (unparsed, unnormalised). */
export function verifyParsedWalletSignature(parsed: ParsedWalletSignature, payloadToSign: string): VerifyWalletSignatureResult {
  if (parsed.kind === 'sandbox-literal') {
    return { ok: true, kind: 'sandbox-literal', publicKeyCompressedHex: null, publicKeyUncompressedHex: null };
  }
  const verified = verifyP256(Buffer.from(payloadToSign, 'utf8'), parsed.signature, parsed.publicKey.keyObject);
  if (!verified) return invalid('Wallet signature does not verify over payloadToSign');
  return {
    ok: true,
    kind: 'stamp',
    publicKeyCompressedHex: parsed.publicKey.compressedHex,
    publicKeyUncompressedHex: parsed.publicKey.uncompressedHex,
  };
}

/** Parse and verify in one step. */
export function verifyWalletSignatureHeader(
  header: string | string[] | undefined | null,
  payloadToSign: string,
  options: WalletSignatureOptions,
): VerifyWalletSignatureResult {
  const parsed = parseWalletSignatureHeader(header, options);
  return parsed.ok ? verifyParsedWalletSignature(parsed.value, payloadToSign) : parsed;
}

/**
 * True when a verified signature's key is one of the allowed keys (pending challenge key, live
 * session keys), whatever SEC1 encoding either side uses. Invalid entries never match.
 */
export function isSignedByOneOf(verified: VerifiedWalletSignature, allowedPublicKeysHex: readonly string[]): boolean {
  if (verified.publicKeyCompressedHex === null) return false;
  return allowedPublicKeysHex.some((candidate) => {
    const bytes = decodeHexStrict(candidate);
    const key = bytes && parseP256PublicKey(bytes);
    return key !== null && key.compressedHex === verified.publicKeyCompressedHex;
  });
}

/** The failure for a key that verifies but is not the challenge key or a live session key. */
export function walletSignatureKeyNotAuthorised(): WalletSignatureFailure {
  return invalid('Wallet signature key is not an active session key of this wallet');
}

function malformed(reason: string): WalletSignatureFailure {
  return { ok: false, code: 'WALLET_SIGNATURE_MALFORMED', reason };
}

function invalid(reason: string): WalletSignatureFailure {
  return { ok: false, code: 'WALLET_SIGNATURE_INVALID', reason };
}
