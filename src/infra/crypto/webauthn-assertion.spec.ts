import { SoftwareAuthenticator, tamperAuthenticatorData, tamperClientData, tamperSignature } from '../../../test/support/webauthn-authenticator';
import { P256_ORDER } from './p256';
import {
  AssertionCheckInput,
  boundChallengeHex,
  isCounterAcceptable,
  PasskeyAssertion,
  scaDynamicLinkingChallengeHex,
  StoredPasskeyCredential,
  verifyPasskeyAssertion,
  webAuthnChallengeFromHex,
} from './webauthn';

const RP_ID = 'wallet.example.com';
const ORIGIN = 'https://wallet.example.com';
const LINKING = { challengeId: 'ScaChallenge:1', quoteId: 'Quote:1', amount: 1000, currency: 'EUR', payee: 'ExternalAccount:1' };

function setup() {
  const authenticator = new SoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN, userHandle: 'user-1' });
  const credential = authenticator.storedCredential();
  const challengeHex = scaDynamicLinkingChallengeHex(LINKING);
  return { authenticator, credential, challengeHex };
}

function check(assertion: unknown, credential: StoredPasskeyCredential, challengeHex: string, overrides: Partial<AssertionCheckInput> = {}) {
  return verifyPasskeyAssertion({
    assertion,
    credential,
    expectedChallenge: { hex: challengeHex },
    allowedOrigins: [ORIGIN],
    rpId: RP_ID,
    sandbox: false,
    ...overrides,
  });
}

function isHighS(assertion: PasskeyAssertion): boolean {
  const der = Buffer.from(assertion.signature, 'base64url');
  const rLength = der[3];
  const sLength = der[5 + rLength];
  const s = BigInt('0x' + der.subarray(6 + rLength, 6 + rLength + sLength).toString('hex'));
  return s > P256_ORDER / 2n;
}

describe('verifyPasskeyAssertion', () => {
  it('accepts an assertion over a hex challenge and returns the new counter', async () => {
    const { authenticator, credential, challengeHex } = setup();
    const first = await check(authenticator.assert({ challenge: { hex: challengeHex } }), credential, challengeHex);
    expect(first).toEqual({ ok: true, newCounter: 1, legacySandboxLiteral: false, userVerified: true });
    const second = await check(authenticator.assert({ challenge: { hex: challengeHex } }), { ...credential, counter: 1 }, challengeHex);
    expect(second).toMatchObject({ ok: true, newCounter: 2 });
  });

  it('puts the hex text, as UTF-8 bytes, into clientDataJSON.challenge', () => {
    expect(webAuthnChallengeFromHex('ab01')).toBe(Buffer.from('ab01', 'utf8').toString('base64url'));
  });

  it('accepts a base64url challenge, user presence without verification, and a declared origin that matches', async () => {
    const { authenticator, credential } = setup();
    const base64url = Buffer.alloc(32, 9).toString('base64url');
    const assertion = authenticator.assert({ challenge: { base64url }, userVerified: false });
    const result = await check(assertion, credential, '', { expectedChallenge: { base64url }, declaredOrigin: ORIGIN });
    expect(result).toEqual({ ok: true, newCounter: 1, legacySandboxLiteral: false, userVerified: false });
  });

  it('accepts high-S and low-S signatures alike (Node signs about half of them high-S)', async () => {
    const { authenticator, credential, challengeHex } = setup();
    let highS = 0;
    for (let counter = 1; counter <= 40; counter++) {
      const assertion = authenticator.assert({ challenge: { hex: challengeHex } });
      if (isHighS(assertion)) highS++;
      expect(await check(assertion, { ...credential, counter: counter - 1 }, challengeHex)).toMatchObject({ ok: true, newCounter: counter });
    }
    expect(highS).toBeGreaterThan(0);
  });

  it.each([
    ['not an object', 'assertion'],
    ['missing signature', { credentialId: 'AAAA', clientDataJson: 'AAAA', authenticatorData: 'AAAA' }],
    ['a signature that is not base64url', { credentialId: 'AAAA', clientDataJson: 'AAAA', authenticatorData: 'AAAA', signature: '!!' }],
  ])('refuses %s as MALFORMED', async (_name, assertion) => {
    const { credential, challengeHex } = setup();
    expect(await check(assertion, credential, challengeHex)).toMatchObject({ ok: false, reason: 'MALFORMED' });
  });

  it('refuses short authenticator data and unreadable client data as MALFORMED', async () => {
    const { authenticator, credential, challengeHex } = setup();
    const assertion = authenticator.assert({ challenge: { hex: challengeHex } });
    expect(await check({ ...assertion, authenticatorData: 'AAAA' }, credential, challengeHex)).toMatchObject({ reason: 'MALFORMED' });
    expect(await check({ ...assertion, clientDataJson: 'AAAA' }, credential, challengeHex)).toMatchObject({ reason: 'MALFORMED' });
  });

  it('refuses another credential id (CREDENTIAL_MISMATCH)', async () => {
    const { authenticator, credential, challengeHex } = setup();
    const assertion = authenticator.assert({ challenge: { hex: challengeHex }, credentialIdOverride: Buffer.alloc(32).toString('base64url') });
    expect(await check(assertion, credential, challengeHex)).toMatchObject({ ok: false, reason: 'CREDENTIAL_MISMATCH' });
  });

  it('refuses a registration-type client data (TYPE_MISMATCH)', async () => {
    const { authenticator, credential, challengeHex } = setup();
    const assertion = authenticator.assert({ challenge: { hex: challengeHex }, type: 'webauthn.create' });
    expect(await check(assertion, credential, challengeHex)).toMatchObject({ ok: false, reason: 'TYPE_MISMATCH' });
  });

  it('refuses an assertion made for a different amount (CHALLENGE_MISMATCH: dynamic linking)', async () => {
    const { authenticator, credential, challengeHex } = setup();
    const otherAmount = scaDynamicLinkingChallengeHex({ ...LINKING, amount: 1001 });
    expect(otherAmount).not.toBe(challengeHex);
    const assertion = authenticator.assert({ challenge: { hex: otherAmount } });
    expect(await check(assertion, credential, challengeHex)).toMatchObject({ ok: false, reason: 'CHALLENGE_MISMATCH' });
  });

  it('refuses a wrong origin, a declared origin that differs, and cross-origin ceremonies (ORIGIN_NOT_ALLOWED)', async () => {
    const { authenticator, credential, challengeHex } = setup();
    const wrongOrigin = authenticator.assert({ challenge: { hex: challengeHex }, origin: 'https://evil.example' });
    expect(await check(wrongOrigin, credential, challengeHex)).toMatchObject({ reason: 'ORIGIN_NOT_ALLOWED' });
    const declaredElsewhere = authenticator.assert({ challenge: { hex: challengeHex } });
    const result = await check(declaredElsewhere, credential, challengeHex, { allowedOrigins: [ORIGIN, 'https://b.example'], declaredOrigin: 'https://b.example' });
    expect(result).toMatchObject({ reason: 'ORIGIN_NOT_ALLOWED' });
    const crossOrigin = authenticator.assert({ challenge: { hex: challengeHex }, crossOrigin: true });
    expect(await check(crossOrigin, credential, challengeHex)).toMatchObject({ reason: 'ORIGIN_NOT_ALLOWED' });
  });

  it('refuses another relying party (RP_ID_MISMATCH)', async () => {
    const { authenticator, credential, challengeHex } = setup();
    const assertion = authenticator.assert({ challenge: { hex: challengeHex }, rpId: 'evil.example' });
    expect(await check(assertion, credential, challengeHex)).toMatchObject({ ok: false, reason: 'RP_ID_MISMATCH' });
  });

  it('refuses an assertion without user presence (USER_NOT_PRESENT)', async () => {
    const { authenticator, credential, challengeHex } = setup();
    const assertion = authenticator.assert({ challenge: { hex: challengeHex }, userPresent: false });
    expect(await check(assertion, credential, challengeHex)).toMatchObject({ ok: false, reason: 'USER_NOT_PRESENT' });
  });

  it('refuses tampered signatures, authenticator data, client data, and another key (SIGNATURE_INVALID)', async () => {
    const { authenticator, credential, challengeHex } = setup();
    const assertion = authenticator.assert({ challenge: { hex: challengeHex } });
    expect(await check(tamperSignature(assertion), credential, challengeHex)).toMatchObject({ reason: 'SIGNATURE_INVALID' });
    expect(await check(tamperAuthenticatorData(assertion), credential, challengeHex)).toMatchObject({ reason: 'SIGNATURE_INVALID' });
    expect(await check(tamperClientData(assertion, { extra: 'x' }), credential, challengeHex)).toMatchObject({ reason: 'SIGNATURE_INVALID' });
    const garbage = { ...assertion, signature: Buffer.from('not a signature').toString('base64url') };
    expect(await check(garbage, credential, challengeHex)).toMatchObject({ reason: 'SIGNATURE_INVALID' });
    const impostor = new SoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN, credentialId: Buffer.from(credential.credentialId, 'base64url') });
    expect(await check(impostor.assert({ challenge: { hex: challengeHex } }), credential, challengeHex)).toMatchObject({ reason: 'SIGNATURE_INVALID' });
  });

  it('refuses a replayed assertion and a counter that went back (COUNTER_NOT_INCREASING)', async () => {
    const { authenticator, credential, challengeHex } = setup();
    const assertion = authenticator.assert({ challenge: { hex: challengeHex } });
    const first = await check(assertion, credential, challengeHex);
    expect(first).toMatchObject({ ok: true, newCounter: 1 });
    expect(await check(assertion, { ...credential, counter: 1 }, challengeHex)).toMatchObject({ ok: false, reason: 'COUNTER_NOT_INCREASING' });
    authenticator.assert({ challenge: { hex: challengeHex } });
    const older = authenticator.assert({ challenge: { hex: challengeHex }, counter: 1 });
    expect(await check(older, { ...credential, counter: 2 }, challengeHex)).toMatchObject({ ok: false, reason: 'COUNTER_NOT_INCREASING' });
  });

  it('accepts counter 0 after 0 only (authenticators without a counter), never 0 after a real counter', () => {
    expect(isCounterAcceptable(0, 0)).toBe(true);
    expect(isCounterAcceptable(0, 1)).toBe(true);
    expect(isCounterAcceptable(5, 0)).toBe(false);
    expect(isCounterAcceptable(5, 5)).toBe(false);
    expect(isCounterAcceptable(5, 6)).toBe(true);
  });

  it('accepts the legacy literal in the sandbox only, keeping the counter', async () => {
    const { authenticator, credential, challengeHex } = setup();
    const literal = authenticator.legacySandboxAssertion();
    expect(await check(literal, { ...credential, counter: 4 }, challengeHex, { sandbox: true })).toEqual({
      ok: true,
      newCounter: 4,
      legacySandboxLiteral: true,
      userVerified: false,
    });
    expect(await check(literal, credential, challengeHex, { sandbox: false })).toMatchObject({ ok: false, reason: 'MALFORMED' });
    const realShapeWithLiteral = { ...authenticator.assert({ challenge: { hex: challengeHex } }), signature: literal.signature };
    expect(await check(realShapeWithLiteral, credential, challengeHex, { sandbox: false })).toMatchObject({ ok: false });
  });
});

describe('challenges bound to data', () => {
  it('hash the canonical JSON, whatever the key order', () => {
    const a = boundChallengeHex({ accountId: 'x', body: { b: 1, a: [1, { d: 2, c: 3 }] } });
    const b = boundChallengeHex({ body: { a: [1, { c: 3, d: 2 }], b: 1 }, accountId: 'x' });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('change when any linked field changes', () => {
    const base = scaDynamicLinkingChallengeHex(LINKING);
    for (const change of [{ challengeId: 'ScaChallenge:2' }, { quoteId: 'Quote:2' }, { amount: 999 }, { currency: 'USD' }, { payee: 'ExternalAccount:2' }]) {
      expect(scaDynamicLinkingChallengeHex({ ...LINKING, ...change })).not.toBe(base);
    }
  });
});
