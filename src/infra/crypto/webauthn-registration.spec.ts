import { SoftwareAuthenticator } from '../../../test/support/webauthn-authenticator';
import { encodeCbor } from './cbor';
import { decodeCbor } from './cbor';
import { generateRegistrationChallenge, PasskeyAttestation, verifyPasskeyRegistration } from './webauthn';

const RP_ID = 'wallet.example.com';
const ORIGIN = 'https://wallet.example.com';

function setup() {
  const authenticator = new SoftwareAuthenticator({ rpId: RP_ID, origin: ORIGIN });
  const challenge = generateRegistrationChallenge();
  return { authenticator, challenge };
}

function check(attestation: unknown, challenge: string, overrides: { allowedOrigins?: string[]; rpId?: string | string[] } = {}) {
  return verifyPasskeyRegistration({
    attestation,
    expectedChallenge: challenge,
    allowedOrigins: overrides.allowedOrigins ?? [ORIGIN, 'https://other.example.com'],
    rpId: overrides.rpId ?? RP_ID,
  });
}

function withAttestationObject(attestation: PasskeyAttestation, change: (map: Map<unknown, unknown>) => void): PasskeyAttestation {
  const map = decodeCbor(Buffer.from(attestation.attestationObject, 'base64url')) as Map<unknown, unknown>;
  change(map);
  return { ...attestation, attestationObject: encodeCbor(map).toString('base64url') };
}

describe('verifyPasskeyRegistration', () => {
  it('accepts a "none" attestation and returns what to store', async () => {
    const { authenticator, challenge } = setup();
    const result = await check(authenticator.register({ challenge }), challenge);
    expect(result).toEqual({
      ok: true,
      credential: {
        credentialId: authenticator.credentialId,
        publicKey: authenticator.storedCredential().publicKey,
        counter: 0,
        transports: ['internal'],
        aaguid: '00000000-0000-0000-0000-000000000000',
        attestationFormat: 'none',
        userVerified: true,
        backedUp: false,
      },
    });
  });

  it('needs user presence but not user verification', async () => {
    const { authenticator, challenge } = setup();
    const result = await check(authenticator.register({ challenge, userVerified: false }), challenge);
    expect(result).toMatchObject({ ok: true, credential: { userVerified: false } });
  });

  it('accepts any of several rp ids', async () => {
    const { authenticator, challenge } = setup();
    expect(await check(authenticator.register({ challenge }), challenge, { rpId: ['other.example', RP_ID] })).toMatchObject({ ok: true });
  });

  it.each([
    ['not an object', 'attestation'],
    ['missing attestationObject', { credentialId: 'AAAA', clientDataJson: 'AAAA' }],
    ['a credentialId that is not base64url', { credentialId: 'a+b/', clientDataJson: 'AAAA', attestationObject: 'AAAA' }],
    ['transports that are not strings', { credentialId: 'AAAA', clientDataJson: 'AAAA', attestationObject: 'AAAA', transports: [1] }],
  ])('refuses %s as MALFORMED', async (_name, attestation) => {
    const { challenge } = setup();
    expect(await check(attestation, challenge)).toMatchObject({ ok: false, reason: 'MALFORMED' });
  });

  it.each([
    ['padded', (challenge: string) => challenge + '='],
    ['non-canonical (impossible length)', (challenge: string) => challenge + 'AA'],
    ['too short', () => Buffer.alloc(8).toString('base64url')],
  ])('refuses a %s challenge as MALFORMED', async (_name, change) => {
    const { authenticator, challenge } = setup();
    const bad = change(challenge);
    expect(await check(authenticator.register({ challenge: bad }), bad)).toMatchObject({ ok: false, reason: 'MALFORMED' });
  });

  it('refuses client data that is not JSON, and an attestation object that is not CBOR', async () => {
    const { authenticator, challenge } = setup();
    const attestation = authenticator.register({ challenge });
    expect(await check({ ...attestation, clientDataJson: Buffer.from('nope').toString('base64url') }, challenge)).toMatchObject({ reason: 'MALFORMED' });
    expect(await check({ ...attestation, attestationObject: Buffer.from('nope').toString('base64url') }, challenge)).toMatchObject({ reason: 'MALFORMED' });
  });

  it('refuses an assertion-type client data (TYPE_MISMATCH)', async () => {
    const { authenticator, challenge } = setup();
    expect(await check(authenticator.register({ challenge, type: 'webauthn.get' }), challenge)).toMatchObject({ ok: false, reason: 'TYPE_MISMATCH' });
  });

  it('refuses an attestation made for another challenge (CHALLENGE_MISMATCH)', async () => {
    const { authenticator, challenge } = setup();
    const attestation = authenticator.register({ challenge: generateRegistrationChallenge() });
    expect(await check(attestation, challenge)).toMatchObject({ ok: false, reason: 'CHALLENGE_MISMATCH' });
  });

  it('refuses an origin outside the allowed list, and cross-origin ceremonies (ORIGIN_NOT_ALLOWED)', async () => {
    const { authenticator, challenge } = setup();
    expect(await check(authenticator.register({ challenge, origin: 'https://evil.example' }), challenge)).toMatchObject({ reason: 'ORIGIN_NOT_ALLOWED' });
    expect(await check(authenticator.register({ challenge, crossOrigin: true }), challenge)).toMatchObject({ reason: 'ORIGIN_NOT_ALLOWED' });
  });

  it('refuses another relying party (RP_ID_MISMATCH)', async () => {
    const { authenticator, challenge } = setup();
    expect(await check(authenticator.register({ challenge, rpId: 'evil.example' }), challenge)).toMatchObject({ ok: false, reason: 'RP_ID_MISMATCH' });
  });

  it('refuses an attestation without user presence (USER_NOT_PRESENT)', async () => {
    const { authenticator, challenge } = setup();
    expect(await check(authenticator.register({ challenge, userPresent: false }), challenge)).toMatchObject({ ok: false, reason: 'USER_NOT_PRESENT' });
  });

  it('refuses a credentialId other than the attested one (CREDENTIAL_MISMATCH)', async () => {
    const { authenticator, challenge } = setup();
    const attestation = authenticator.register({ challenge, credentialIdOverride: Buffer.alloc(32, 7).toString('base64url') });
    expect(await check(attestation, challenge)).toMatchObject({ ok: false, reason: 'CREDENTIAL_MISMATCH' });
  });

  it('refuses a "none" attestation with a statement, and unknown formats (ATTESTATION_INVALID)', async () => {
    const { authenticator, challenge } = setup();
    const attestation = authenticator.register({ challenge });
    const withStatement = withAttestationObject(attestation, (map) => map.set('attStmt', new Map([['sig', Buffer.alloc(8)]])));
    expect(await check(withStatement, challenge)).toMatchObject({ ok: false, reason: 'ATTESTATION_INVALID' });
    const unknownFormat = withAttestationObject(attestation, (map) => map.set('fmt', 'homemade'));
    expect(await check(unknownFormat, challenge)).toMatchObject({ ok: false, reason: 'ATTESTATION_INVALID' });
  });
});
