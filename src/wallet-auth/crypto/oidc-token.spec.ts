import { buildOidcToken, generateClientKeyPair } from '../../../test/support/wallet-client';
import { checkOidcTokenForRegistration, checkOidcTokenForVerify, oidcNonceFor, OidcIdentity } from './oidc-token';

const NOW_MS = 1_775_681_700_000;
const NOW_S = NOW_MS / 1000;
const REGISTERED: OidcIdentity = { iss: 'https://accounts.google.com', aud: 'sandbox-oauth-client-id', sub: 'sandbox-user-123' };

describe('OIDC token on registration', () => {
  it.each(['https://accounts.google.com', 'accounts.google.com', 'https://appleid.apple.com'])('accepts issuer %s', (iss) => {
    expect(checkOidcTokenForRegistration(buildOidcToken({ iss, nowMs: NOW_MS }), NOW_MS)).toMatchObject({ ok: true, identity: { iss } });
  });

  it('normalises a one-element aud array to its string', () => {
    const result = checkOidcTokenForRegistration(buildOidcToken({ aud: ['client-1'], nowMs: NOW_MS }), NOW_MS);
    expect(result).toMatchObject({ ok: true, identity: { aud: 'client-1', sub: 'sandbox-user-123' } });
  });

  it('accepts iat from 65 s before to 5 s after the request', () => {
    for (const iat of [NOW_S - 65, NOW_S - 60, NOW_S, NOW_S + 5]) {
      expect(checkOidcTokenForRegistration(buildOidcToken({ iat, exp: NOW_S + 300 }), NOW_MS)).toMatchObject({ ok: true });
    }
  });

  it.each([
    ['an unsupported issuer', { iss: 'https://evil.example' }, 'ISSUER'],
    ['a missing issuer', { extraClaims: { iss: undefined } }, 'ISSUER'],
    ['an empty aud', { aud: '' }, 'AUDIENCE'],
    ['a two-element aud', { aud: ['a', 'b'] }, 'AUDIENCE'],
    ['an empty aud array', { aud: [] }, 'AUDIENCE'],
    ['a numeric aud element', { extraClaims: { aud: [1] } }, 'AUDIENCE'],
    ['an empty sub', { sub: '' }, 'SUBJECT'],
    ['a numeric sub', { extraClaims: { sub: 7 } }, 'SUBJECT'],
    ['a string iat', { extraClaims: { iat: String(NOW_S) } }, 'ISSUED_AT'],
    ['an iat 66 s old', { iat: NOW_S - 66, exp: NOW_S + 300 }, 'ISSUED_AT'],
    ['an iat 6 s ahead', { iat: NOW_S + 6 }, 'ISSUED_AT'],
    ['a missing exp', { extraClaims: { exp: undefined } }, 'EXPIRY'],
    ['an exp equal to now', { iat: NOW_S - 10, exp: NOW_S }, 'EXPIRY'],
  ])('rejects %s', (_name, options, check) => {
    expect(checkOidcTokenForRegistration(buildOidcToken({ nowMs: NOW_MS, ...options }), NOW_MS)).toMatchObject({ ok: false, kind: 'REJECTED', check });
  });

  it.each([
    ['the old literal', 'sandbox-valid-oidc-token'],
    ['two segments', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0'],
    ['four segments', 'a.b.c.d'],
    ['an empty header', '.eyJzdWIiOiJ4In0.sig'],
    ['a header that is not base64url', 'ey$.eyJzdWIiOiJ4In0.sig'],
    ['a payload that is not JSON', `eyJhbGciOiJub25lIn0.${Buffer.from('hello').toString('base64url')}.sig`],
    ['a payload that is a JSON array', `eyJhbGciOiJub25lIn0.${Buffer.from('[1]').toString('base64url')}.sig`],
    ['not a string', 42],
  ])('answers MALFORMED for %s', (_name, token) => {
    expect(checkOidcTokenForRegistration(token, NOW_MS)).toMatchObject({ ok: false, kind: 'MALFORMED' });
  });
});

describe('OIDC token on verify', () => {
  const clientPublicKey = generateClientKeyPair().publicKey;

  function verify(options: Parameters<typeof buildOidcToken>[0], sentKey = clientPublicKey) {
    return checkOidcTokenForVerify(buildOidcToken({ nowMs: NOW_MS, clientPublicKey, ...options }), { registered: REGISTERED, clientPublicKey: sentKey, nowMs: NOW_MS });
  }

  it('accepts a fresh token for the same identity, with the nonce bound to clientPublicKey', () => {
    expect(verify({})).toMatchObject({ ok: true, identity: REGISTERED });
    expect(verify({ aud: [REGISTERED.aud] })).toMatchObject({ ok: true });
  });

  it('hashes the exact clientPublicKey text', () => {
    expect(oidcNonceFor('02ab')).toBe('d4ddd2ca368faf9d03a88589f29d5afaeef733ca49ef354714ee58a9f6933699');
    expect(oidcNonceFor(clientPublicKey)).not.toBe(oidcNonceFor(clientPublicKey.toUpperCase()));
    expect(verify({}, clientPublicKey.toUpperCase())).toMatchObject({ ok: false, check: 'NONCE' });
  });

  it.each([
    ['another issuer', { iss: 'https://appleid.apple.com' }],
    ['another audience', { aud: 'other-client' }],
    ['another subject', { sub: 'someone-else' }],
  ])('rejects %s (IDENTITY_MISMATCH)', (_name, options) => {
    expect(verify(options)).toMatchObject({ ok: false, kind: 'REJECTED', check: 'IDENTITY_MISMATCH' });
  });

  it('rejects a missing or wrong nonce (NONCE)', () => {
    expect(verify({ extraClaims: { nonce: undefined } })).toMatchObject({ ok: false, check: 'NONCE' });
    expect(verify({ clientPublicKey: generateClientKeyPair().publicKey })).toMatchObject({ ok: false, check: 'NONCE' });
  });

  it('still checks freshness and shape', () => {
    expect(verify({ iat: NOW_S - 120, exp: NOW_S + 300 })).toMatchObject({ ok: false, check: 'ISSUED_AT' });
    expect(checkOidcTokenForVerify('nope', { registered: REGISTERED, clientPublicKey, nowMs: NOW_MS })).toMatchObject({ ok: false, kind: 'MALFORMED' });
  });
});
