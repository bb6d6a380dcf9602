import { decodeBase64UrlStrict, parseJsonObject, sha256Hex } from '../../infra/crypto/encoding';

/**
 * OAUTH `oidcToken` checks (SPEC.md sandbox rule 8, DECISIONS.md section 4). The token is
 * JWT-shaped; the sandbox does not check the identity provider's signature, so the third segment
 * may be a dummy. Segments are decoded by hand (jose is ESM-only and fails under Jest).
 *
 * Two failure kinds: MALFORMED (not a JWT with JSON header and claims: 400 INVALID_INPUT) and
 * REJECTED (a JWT whose claims fail a check: 401 UNAUTHORIZED with `details.reason`).
 */

export const SUPPORTED_OIDC_ISSUERS: readonly string[] = ['https://accounts.google.com', 'accounts.google.com', 'https://appleid.apple.com'];
/** `iat` may be at most this far before the request... */
export const OIDC_MAX_TOKEN_AGE_MS = 60_000;
/** ...with this much clock skew allowed (either way). */
export const OIDC_CLOCK_SKEW_MS = 5_000;

/** The identity an OAUTH credential is registered with, compared on every verify. */
export interface OidcIdentity {
  iss: string;
  /** The single audience, as a string even when the token carried a one-element array. */
  aud: string;
  sub: string;
}

export type OidcCheck = 'ISSUER' | 'AUDIENCE' | 'SUBJECT' | 'ISSUED_AT' | 'EXPIRY' | 'IDENTITY_MISMATCH' | 'NONCE';

export type OidcTokenResult =
  | { ok: true; identity: OidcIdentity; claims: Record<string, unknown> }
  | { ok: false; kind: 'MALFORMED'; reason: string }
  | { ok: false; kind: 'REJECTED'; check: OidcCheck; reason: string };

/** POST /auth/credentials with type OAUTH: the token's claims and freshness. */
export function checkOidcTokenForRegistration(token: unknown, nowMs: number): OidcTokenResult {
  const decoded = decodeOidcToken(token);
  if (!decoded.ok) return decoded;
  return checkClaims(decoded.claims, nowMs);
}

export interface OidcVerifyInput {
  /** The identity stored when the credential was registered. */
  registered: OidcIdentity;
  /** The `clientPublicKey` of the verify request, exactly as sent (the nonce hashes this text). */
  clientPublicKey: string;
  nowMs: number;
}

/** POST /auth/credentials/{id}/verify with type OAUTH: claims, same identity, nonce binding. */
export function checkOidcTokenForVerify(token: unknown, input: OidcVerifyInput): OidcTokenResult {
  const decoded = decodeOidcToken(token);
  if (!decoded.ok) return decoded;
  const checked = checkClaims(decoded.claims, input.nowMs);
  if (!checked.ok) return checked;
  const { identity } = checked;
  if (identity.iss !== input.registered.iss || identity.aud !== input.registered.aud || identity.sub !== input.registered.sub) {
    return rejected('IDENTITY_MISMATCH', 'OIDC token iss, aud and sub must match the registered credential');
  }
  if (decoded.claims.nonce !== oidcNonceFor(input.clientPublicKey)) {
    return rejected('NONCE', 'OIDC token nonce must be the sha256 hex of clientPublicKey');
  }
  return checked;
}

/** The nonce a verify token must carry: lowercase hex SHA-256 of the exact clientPublicKey text. */
export function oidcNonceFor(clientPublicKey: string): string {
  return sha256Hex(clientPublicKey);
}

type Decoded = { ok: true; claims: Record<string, unknown> } | { ok: false; kind: 'MALFORMED'; reason: string };

function decodeOidcToken(token: unknown): Decoded {
  if (typeof token !== 'string' || token === '') return malformed('oidcToken must be a non-empty string');
  const segments = token.split('.');
  if (segments.length !== 3) return malformed('oidcToken must be a JWT (three dot-separated segments)');
  const headerBytes = decodeBase64UrlStrict(segments[0]);
  const claimsBytes = decodeBase64UrlStrict(segments[1]);
  if (!headerBytes || !claimsBytes || segments[0] === '' || segments[1] === '') {
    return malformed('oidcToken header and payload must be base64url');
  }
  const header = parseJsonObject(headerBytes.toString('utf8'));
  const claims = parseJsonObject(claimsBytes.toString('utf8'));
  if (!header || !claims) return malformed('oidcToken header and payload must be JSON objects');
  return { ok: true, claims };
}

function checkClaims(claims: Record<string, unknown>, nowMs: number): OidcTokenResult {
  const { iss, aud, sub, iat, exp } = claims;
  if (typeof iss !== 'string' || !SUPPORTED_OIDC_ISSUERS.includes(iss)) return rejected('ISSUER', 'OIDC token issuer is not supported');
  const audience = singleAudience(aud);
  if (audience === null) return rejected('AUDIENCE', 'OIDC token aud must be a non-empty string or a one-element array of one');
  if (typeof sub !== 'string' || sub === '') return rejected('SUBJECT', 'OIDC token sub must be a non-empty string');
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return rejected('ISSUED_AT', 'OIDC token iat must be a number');
  const issuedAtMs = iat * 1000;
  if (issuedAtMs < nowMs - OIDC_MAX_TOKEN_AGE_MS - OIDC_CLOCK_SKEW_MS) return rejected('ISSUED_AT', 'OIDC token was issued more than 60 seconds ago');
  if (issuedAtMs > nowMs + OIDC_CLOCK_SKEW_MS) return rejected('ISSUED_AT', 'OIDC token iat is in the future');
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return rejected('EXPIRY', 'OIDC token exp must be a number');
  if (exp * 1000 <= nowMs) return rejected('EXPIRY', 'OIDC token has expired');
  return { ok: true, identity: { iss, aud: audience, sub }, claims };
}

function singleAudience(aud: unknown): string | null {
  if (typeof aud === 'string') return aud === '' ? null : aud;
  if (Array.isArray(aud) && aud.length === 1 && typeof aud[0] === 'string' && aud[0] !== '') return aud[0];
  return null;
}

function malformed(reason: string): Decoded {
  return { ok: false, kind: 'MALFORMED', reason };
}

function rejected(check: OidcCheck, reason: string): OidcTokenResult {
  return { ok: false, kind: 'REJECTED', check, reason };
}
