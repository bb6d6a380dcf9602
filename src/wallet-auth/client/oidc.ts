import { sha256Hex } from '../../infra/crypto/encoding';

export interface SandboxOidcTokenOptions {
  iss?: string;
  aud?: string | string[];
  sub?: string;
  email?: string;
  /** Seconds since the epoch; default now. */
  iat?: number;
  /** Seconds since the epoch; default iat + 300. */
  exp?: number;
  /** For verify: the token's nonce becomes sha256 hex of this exact clientPublicKey text. */
  clientPublicKey?: string;
  /** Claims to add or override (for example a wrong nonce). */
  extraClaims?: Record<string, unknown>;
  nowMs?: number;
}

/**
 * A JWT-shaped OIDC token for the sandbox (SPEC.md sandbox rule 8: the signature segment may be a
 * dummy). In production the identity provider issues the token; request it with
 * `nonce = oidcNonce(clientPublicKey)` so it binds the session key.
 */
export function sandboxOidcToken(options: SandboxOidcTokenOptions = {}): string {
  const iat = options.iat ?? Math.floor((options.nowMs ?? Date.now()) / 1000);
  const claims: Record<string, unknown> = {
    iss: options.iss ?? 'https://accounts.google.com',
    aud: options.aud ?? 'sandbox-oauth-client',
    sub: options.sub ?? 'sandbox-subject',
    email: options.email ?? 'sandbox.user@example.com',
    iat,
    exp: options.exp ?? iat + 300,
  };
  if (options.clientPublicKey !== undefined) claims.nonce = oidcNonce(options.clientPublicKey);
  Object.assign(claims, options.extraClaims ?? {});
  const segment = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  return `${segment({ alg: 'RS256', typ: 'JWT' })}.${segment(claims)}.sandbox-signature`;
}

/** The nonce a verify token carries: lowercase hex SHA-256 of the exact clientPublicKey text. */
export function oidcNonce(clientPublicKey: string): string {
  return sha256Hex(clientPublicKey);
}
