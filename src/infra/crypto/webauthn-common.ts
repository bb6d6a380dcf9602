import { decodeBase64UrlStrict, parseJsonObject, sha256 } from './encoding';

/**
 * Shapes and checks shared by WebAuthn registration and assertion verification. The wire shapes
 * are the production service's flat ones (base64url strings, `clientDataJson` camel-cased), the
 * same for wallet passkeys (issue 7) and SCA passkeys (issue 6).
 */

/** What `navigator.credentials.create()` returned, as the API body carries it. */
export interface PasskeyAttestation {
  /** base64url of PublicKeyCredential.rawId. */
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports?: string[];
}

/** What `navigator.credentials.get()` returned, as the API body carries it. */
export interface PasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

/** What the service keeps about a registered passkey (all public; fine in events). */
export interface StoredPasskeyCredential {
  /** base64url credential id; compared exactly. */
  credentialId: string;
  /** base64url of the COSE public key from the attestation. */
  publicKey: string;
  /** Last seen signature counter. */
  counter: number;
}

export type WebAuthnFailureReason =
  | 'MALFORMED'
  | 'CREDENTIAL_MISMATCH'
  | 'TYPE_MISMATCH'
  | 'CHALLENGE_MISMATCH'
  | 'ORIGIN_NOT_ALLOWED'
  | 'RP_ID_MISMATCH'
  | 'USER_NOT_PRESENT'
  | 'ATTESTATION_INVALID'
  | 'SIGNATURE_INVALID'
  | 'COUNTER_NOT_INCREASING';

export interface WebAuthnFailure {
  ok: false;
  reason: WebAuthnFailureReason;
  /** A sentence for `details.reason`. */
  message: string;
}

export function webAuthnFailure(reason: WebAuthnFailureReason, message: string): WebAuthnFailure {
  return { ok: false, reason, message };
}

export interface ClientData {
  type: string;
  challenge: string;
  origin: string;
  crossOrigin?: unknown;
  topOrigin?: unknown;
}

/** Decodes clientDataJSON (base64url of UTF-8 JSON); null when it is not the expected shape. */
export function decodeClientData(clientDataJson: string): ClientData | null {
  const bytes = decodeBase64UrlStrict(clientDataJson);
  const data = bytes && parseJsonObject(bytes.toString('utf8'));
  if (!data || typeof data.type !== 'string' || typeof data.challenge !== 'string' || typeof data.origin !== 'string') return null;
  return data as unknown as ClientData;
}

/**
 * Checks type, challenge and origin of decoded client data, in that order. The origin must be one
 * of allowedOrigins and, when the caller was told which origin the ceremony ran against (SCA's
 * `origin` field), equal to it too. Cross-origin (iframe) ceremonies are not supported.
 */
export function checkClientData(
  clientData: ClientData,
  expected: { type: 'webauthn.create' | 'webauthn.get'; challenge: string; allowedOrigins: readonly string[]; declaredOrigin?: string },
): WebAuthnFailure | null {
  if (clientData.type !== expected.type) return webAuthnFailure('TYPE_MISMATCH', `clientDataJSON type must be ${expected.type}`);
  if (clientData.challenge !== expected.challenge) return webAuthnFailure('CHALLENGE_MISMATCH', 'WebAuthn challenge does not match the issued challenge');
  if (!expected.allowedOrigins.includes(clientData.origin)) return webAuthnFailure('ORIGIN_NOT_ALLOWED', 'WebAuthn origin is not an allowed origin');
  if (expected.declaredOrigin !== undefined && expected.declaredOrigin !== clientData.origin) {
    return webAuthnFailure('ORIGIN_NOT_ALLOWED', 'WebAuthn origin does not match the origin sent with it');
  }
  if (clientData.crossOrigin === true || clientData.topOrigin !== undefined) {
    return webAuthnFailure('ORIGIN_NOT_ALLOWED', 'Cross-origin WebAuthn ceremonies are not accepted');
  }
  return null;
}

export const AUTHENTICATOR_FLAG_USER_PRESENT = 0x01;
export const AUTHENTICATOR_FLAG_USER_VERIFIED = 0x04;
export const AUTHENTICATOR_FLAG_ATTESTED_DATA = 0x40;
export const AUTHENTICATOR_FLAG_EXTENSIONS = 0x80;

export interface AuthenticatorDataHeader {
  rpIdHash: Buffer;
  flags: number;
  counter: number;
}

/** rpIdHash (32) || flags (1) || big-endian counter (4); null when shorter than that. */
export function readAuthenticatorDataHeader(authenticatorData: Buffer): AuthenticatorDataHeader | null {
  if (authenticatorData.length < 37) return null;
  return { rpIdHash: authenticatorData.subarray(0, 32), flags: authenticatorData[32], counter: authenticatorData.readUInt32BE(33) };
}

/** Checks the rp id hash against the expected rp ids, then the user-presence bit. */
export function checkAuthenticatorDataHeader(header: AuthenticatorDataHeader, rpIds: readonly string[]): WebAuthnFailure | null {
  if (!rpIds.some((rpId) => sha256(rpId).equals(header.rpIdHash))) return webAuthnFailure('RP_ID_MISMATCH', 'WebAuthn rpIdHash does not match the relying party');
  if ((header.flags & AUTHENTICATOR_FLAG_USER_PRESENT) === 0) return webAuthnFailure('USER_NOT_PRESENT', 'WebAuthn user-presence flag is not set');
  return null;
}

export function asList(value: string | readonly string[]): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}

/** A non-empty string field of an untrusted object, or null. */
export function stringField(source: Record<string, unknown>, name: string): string | null {
  const value = source[name];
  return typeof value === 'string' && value !== '' ? value : null;
}
