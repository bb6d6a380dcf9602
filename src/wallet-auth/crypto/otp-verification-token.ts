import { KeyObject } from 'node:crypto';
import { decodeBase64UrlStrict, parseJsonObject } from '../../infra/crypto/encoding';
import { signP256, verifyP256 } from '../../infra/crypto/p256';

/**
 * The payloadToSign of OTP verify leg 1 (DECISIONS.md section 4): a compact ES256 JWT signed by
 * the service enclave key, b64url(header).b64url(claims).b64url(r||s) with a 64-byte IEEE P1363
 * signature. @turnkey/crypto's verifyOtpVerificationToken accepts it: header alg ES256 and typ JWT,
 * non-empty string claims id, verification_type, contact, organization_id, public_key, and exp as
 * a millisecond epoch in a string (not RFC 7519 seconds).
 */

export const OTP_VERIFICATION_TOKEN_HEADER = { alg: 'ES256', kid: 'turnkey', typ: 'JWT' } as const;

export type OtpVerificationType = 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS';

export interface OtpVerificationTokenClaims {
  id: string;
  verification_type: OtpVerificationType;
  contact: string;
  organization_id: string;
  public_key: string;
  exp: string;
}

export interface OtpVerificationTokenInput {
  /** Identifies this verification (for example the pending request id). */
  id: string;
  verificationType: OtpVerificationType;
  /** The email address or phone number the code was sent to. */
  contact: string;
  /** The wallet the session is for (for example its internal account id). */
  organizationId: string;
  /** The client's TEK exactly as it arrived in the OTP bundle. */
  publicKey: string;
  expiresAtMs: number;
}

/** OTP credential type to the token's verification_type. */
export function otpVerificationTypeFor(credentialType: 'EMAIL_OTP' | 'SMS_OTP'): OtpVerificationType {
  return credentialType === 'EMAIL_OTP' ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS';
}

export function buildOtpVerificationToken(input: OtpVerificationTokenInput, enclavePrivateKey: KeyObject): string {
  if (!Number.isSafeInteger(input.expiresAtMs) || input.expiresAtMs <= 0) throw new Error('expiresAtMs must be a positive integer');
  for (const [name, value] of Object.entries({ id: input.id, contact: input.contact, organizationId: input.organizationId, publicKey: input.publicKey })) {
    if (value === '') throw new Error(`${name} must not be empty: the client verifier refuses empty claims`);
  }
  const claims: OtpVerificationTokenClaims = {
    id: input.id,
    verification_type: input.verificationType,
    contact: input.contact,
    organization_id: input.organizationId,
    public_key: input.publicKey,
    exp: String(input.expiresAtMs),
  };
  const signingInput = `${base64UrlJson(OTP_VERIFICATION_TOKEN_HEADER)}.${base64UrlJson(claims)}`;
  const signature = signP256(Buffer.from(signingInput, 'ascii'), enclavePrivateKey).p1363;
  return `${signingInput}.${signature.toString('base64url')}`;
}

/**
 * Checks a token this service issued (signature by the enclave key, header, claims, expiry) and
 * returns its claims, or null. The signed retry is checked against the stored payloadToSign, so
 * this is a defence and a test aid rather than a step of the flow.
 */
export function readOtpVerificationToken(token: string, enclavePublicKey: KeyObject, nowMs: number): OtpVerificationTokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const header = decodeJsonSegment(parts[0]);
  const claims = decodeJsonSegment(parts[1]);
  const signature = decodeBase64UrlStrict(parts[2]);
  if (!header || !claims || !signature || signature.length !== 64) return null;
  if (header.alg !== 'ES256' || header.typ !== 'JWT') return null;
  const r = BigInt('0x' + signature.subarray(0, 32).toString('hex'));
  const s = BigInt('0x' + signature.subarray(32).toString('hex'));
  if (!verifyP256(Buffer.from(`${parts[0]}.${parts[1]}`, 'ascii'), { r, s }, enclavePublicKey)) return null;
  for (const name of ['id', 'verification_type', 'contact', 'organization_id', 'public_key', 'exp']) {
    if (typeof claims[name] !== 'string' || claims[name] === '') return null;
  }
  const expMs = Number(claims.exp);
  if (!Number.isFinite(expMs) || expMs < nowMs) return null;
  return claims as unknown as OtpVerificationTokenClaims;
}

function base64UrlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

function decodeJsonSegment(segment: string): Record<string, unknown> | null {
  const bytes = decodeBase64UrlStrict(segment);
  return bytes ? parseJsonObject(bytes.toString('utf8')) : null;
}
