import { CredentialDetails } from '../../src/wallet-auth';
import { GivenEvent, projectionSpec, ProjectionSpec } from '../../test/support/projection-spec';
import { walletAuthProjection } from './wallet-auth.projection';

const PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f1';
const OTHER_PLATFORM = 'Platform:0199a000-0000-7000-8000-0000000000f2';
const ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-0000000000a1';
const OTHER_ACCOUNT = 'InternalAccount:0199a000-0000-7000-8000-0000000000a2';
const walletStream = 'walletAuth-0199a000-0000-7000-8000-0000000000a1';

const EMAIL = 'AuthMethod:0199a000-0000-7000-8000-000000000101';
const PASSKEY = 'AuthMethod:0199a000-0000-7000-8000-000000000102';
const SMS = 'AuthMethod:0199a000-0000-7000-8000-000000000103';

// Times in the events differ from the instants the kit records them at (12:00:01, 12:00:02...),
// so the rows show which one the projection reads.
const T0 = '2025-10-13T09:30:00.000Z';
const T1 = '2025-10-13T09:31:00.000Z';
const T2 = '2025-10-13T09:32:00.000Z';
const T3 = '2025-10-13T09:33:00.000Z';
const EXPIRES = '2025-10-13T09:45:00.000Z';

const ref = { platformId: PLATFORM, accountId: ACCOUNT };

function registered(credential: CredentialDetails, at: string, extra: Partial<{ initial: boolean; credentialSetVersion: number; platformId: string; accountId: string; stream: string }> = {}): GivenEvent {
  const { stream = walletStream, ...rest } = extra;
  return {
    stream,
    type: 'WalletCredentialRegistered',
    data: { ...ref, ...credential, initial: false, requestId: 'Request:r', credentialSetVersion: 1, registeredAt: at, ...rest },
  };
}

/** The EMAIL_OTP credential a wallet opens with, for the customer's email as given. */
const emailCredential: CredentialDetails = {
  credentialId: EMAIL, credentialType: 'EMAIL_OTP', nickname: 'Jane@Example.com', email: 'Jane@Example.com', phoneNumber: null, passkey: null, oauth: null,
};
const passkeyCredential: CredentialDetails = {
  credentialId: PASSKEY,
  credentialType: 'PASSKEY',
  nickname: 'Laptop',
  email: null,
  phoneNumber: null,
  passkey: { webAuthnCredentialId: 'cred-abc_123', publicKey: 'pQECAyYgASFYIA', counter: 0, transports: ['internal'], registrationChallengeHash: 'c0ffee' },
  oauth: null,
};
const smsCredential: CredentialDetails = {
  credentialId: SMS, credentialType: 'SMS_OTP', nickname: '+14155550100', email: null, phoneNumber: '+14155550100', passkey: null, oauth: null,
};
const initial = registered(emailCredential, T0, { initial: true });

function session(n: number, credentialId: string, at: string, extra: { platformId?: string; accountId?: string; fingerprint?: string } = {}): GivenEvent {
  return {
    stream: `session-${n}`,
    type: 'WalletSessionCreated',
    data: {
      sessionId: `Session:${n}`,
      platformId: extra.platformId ?? PLATFORM,
      accountId: extra.accountId ?? ACCOUNT,
      credentialId,
      credentialType: credentialId === PASSKEY ? 'PASSKEY' : 'EMAIL_OTP',
      nickname: credentialId === PASSKEY ? 'Laptop' : 'Jane@Example.com',
      publicKeyFingerprint: extra.fingerprint ?? `fingerprint-${n}`,
      keyCustody: 'CLIENT_HELD',
      requestId: 'Request:login',
      refreshedFromSessionId: null,
      createdAt: at,
      expiresAt: EXPIRES,
    },
  };
}
const revoked = (n: number, at: string): GivenEvent => ({
  stream: `session-${n}`,
  type: 'WalletSessionRevoked',
  data: { sessionId: `Session:${n}`, platformId: PLATFORM, accountId: ACCOUNT, requestId: 'Request:revoke', revokedAt: at },
});
const removed = (credentialId: string, credentialType: string, at: string): GivenEvent => ({
  stream: walletStream,
  type: 'WalletCredentialRemoved',
  data: { ...ref, credentialId, credentialType, requestId: 'Request:remove', credentialSetVersion: 3, removedAt: at },
});

const CREDENTIALS = `SELECT credential_id, platform_id, account_id, credential_type, webauthn_credential_id, email_lower, view::json AS view, created_at, removed_at
  FROM wallet_credentials ORDER BY created_at, credential_id`;
const SESSIONS = `SELECT session_id, ended_at FROM wallet_sessions ORDER BY session_id`;

describe('wallet-auth projection', () => {
  let spec: ProjectionSpec;
  beforeEach(async () => {
    spec = await projectionSpec(walletAuthProjection);
  });
  afterEach(async () => {
    await spec.close();
  });

  it('registered credentials are rows with their lookup columns (lower-cased email, passkey id) and the GET /auth/credentials view', async () => {
    await spec.given([initial, registered(passkeyCredential, T1, { credentialSetVersion: 2 }), registered(smsCredential, T2, { credentialSetVersion: 3 })]);
    expect(await spec.rows(CREDENTIALS)).toEqual([
      {
        credential_id: EMAIL, platform_id: PLATFORM, account_id: ACCOUNT, credential_type: 'EMAIL_OTP', webauthn_credential_id: null, email_lower: 'jane@example.com',
        view: { id: EMAIL, accountId: ACCOUNT, type: 'EMAIL_OTP', nickname: 'Jane@Example.com', createdAt: T0, updatedAt: T0 },
        created_at: new Date(T0), removed_at: null,
      },
      {
        credential_id: PASSKEY, platform_id: PLATFORM, account_id: ACCOUNT, credential_type: 'PASSKEY', webauthn_credential_id: 'cred-abc_123', email_lower: null,
        view: { id: PASSKEY, accountId: ACCOUNT, type: 'PASSKEY', credentialId: 'cred-abc_123', nickname: 'Laptop', createdAt: T1, updatedAt: T1 },
        created_at: new Date(T1), removed_at: null,
      },
      {
        credential_id: SMS, platform_id: PLATFORM, account_id: ACCOUNT, credential_type: 'SMS_OTP', webauthn_credential_id: null, email_lower: null,
        view: { id: SMS, accountId: ACCOUNT, type: 'SMS_OTP', nickname: '+14155550100', createdAt: T2, updatedAt: T2 },
        created_at: new Date(T2), removed_at: null,
      },
    ]);
  });

  it('a created session is a row with its key fingerprint, expiry and the GET /auth/sessions view', async () => {
    await spec.given([initial, session(1, EMAIL, T1)]);
    expect(
      await spec.rows(`SELECT session_id, platform_id, account_id, credential_id, key_fingerprint, view::json AS view, created_at, expires_at, ended_at FROM wallet_sessions`),
    ).toEqual([
      {
        session_id: 'Session:1', platform_id: PLATFORM, account_id: ACCOUNT, credential_id: EMAIL, key_fingerprint: 'fingerprint-1',
        view: { id: 'Session:1', accountId: ACCOUNT, type: 'EMAIL_OTP', nickname: 'Jane@Example.com', createdAt: T1, updatedAt: T1, expiresAt: EXPIRES },
        created_at: new Date(T1), expires_at: new Date(EXPIRES), ended_at: null,
      },
    ]);
  });

  it("a PASSKEY session shows its passkey's credentialId: from the event, or for older events from the credential's row", async () => {
    const recorded = session(2, PASSKEY, T2);
    const named = { ...recorded, data: { ...recorded.data, webAuthnCredentialId: 'cred-from-event' } };
    await spec.given([initial, registered(passkeyCredential, T1, { credentialSetVersion: 2 }), session(1, PASSKEY, T1), named]);
    expect(await spec.rows(`SELECT view::json AS view FROM wallet_sessions ORDER BY session_id`)).toEqual([
      { view: { id: 'Session:1', accountId: ACCOUNT, type: 'PASSKEY', credentialId: 'cred-abc_123', nickname: 'Laptop', createdAt: T1, updatedAt: T1, expiresAt: EXPIRES } },
      { view: { id: 'Session:2', accountId: ACCOUNT, type: 'PASSKEY', credentialId: 'cred-from-event', nickname: 'Laptop', createdAt: T2, updatedAt: T2, expiresAt: EXPIRES } },
    ]);
  });

  it('a revoked session ends at its revocation; a second revocation keeps the first time', async () => {
    await spec.given([session(1, EMAIL, T0), session(2, EMAIL, T0), revoked(1, T1), revoked(1, T2)]);
    expect(await spec.rows(SESSIONS)).toEqual([
      { session_id: 'Session:1', ended_at: new Date(T1) },
      { session_id: 'Session:2', ended_at: null },
    ]);
  });

  it('removing a credential marks it removed and ends its live sessions only', async () => {
    await spec.given([
      initial,
      registered(passkeyCredential, T0, { credentialSetVersion: 2 }),
      session(1, PASSKEY, T0),
      session(2, PASSKEY, T0),
      session(3, EMAIL, T0),
      revoked(2, T1),
      removed(PASSKEY, 'PASSKEY', T2),
    ]);
    expect(await spec.rows(`SELECT credential_id, removed_at FROM wallet_credentials ORDER BY credential_id`)).toEqual([
      { credential_id: EMAIL, removed_at: null },
      { credential_id: PASSKEY, removed_at: new Date(T2) },
    ]);
    expect(await spec.rows(SESSIONS)).toEqual([
      { session_id: 'Session:1', ended_at: new Date(T2) },
      { session_id: 'Session:2', ended_at: new Date(T1) },
      { session_id: 'Session:3', ended_at: null },
    ]);
  });

  it('ignores the wallet events it does not list, replays of a registration or session, and removals of unknown credentials', async () => {
    await spec.given([
      initial,
      { stream: walletStream, type: 'WalletOtpChallengeIssued', data: { ...ref, credentialId: EMAIL, challengeId: 'c1', issuedAt: T1, expiresAt: EXPIRES } },
      { stream: walletStream, type: 'WalletPrivacyUpdated', data: { ...ref, privateEnabled: true, requestId: 'Request:p', updatedAt: T1 } },
      registered({ ...emailCredential, nickname: 'replayed' }, T2, { initial: true }),
      session(1, EMAIL, T1),
      { ...session(1, EMAIL, T2), data: { ...session(1, EMAIL, T2).data, publicKeyFingerprint: 'replayed' } },
      removed('AuthMethod:0199a000-0000-7000-8000-0000000001ff', 'SMS_OTP', T3),
    ]);
    expect(await spec.rows(`SELECT credential_id, view::json->>'nickname' AS nickname, created_at, removed_at FROM wallet_credentials`)).toEqual([
      { credential_id: EMAIL, nickname: 'Jane@Example.com', created_at: new Date(T0), removed_at: null },
    ]);
    expect(await spec.rows(`SELECT session_id, key_fingerprint, created_at, ended_at FROM wallet_sessions`)).toEqual([
      { session_id: 'Session:1', key_fingerprint: 'fingerprint-1', created_at: new Date(T1), ended_at: null },
    ]);
  });

  it('platforms are apart: the same email, passkey and key fingerprint on two platforms are rows of each, found per platform', async () => {
    const other = { platformId: OTHER_PLATFORM, accountId: OTHER_ACCOUNT, stream: 'walletAuth-0199a000-0000-7000-8000-0000000000a2' };
    await spec.given([
      initial,
      registered(passkeyCredential, T1),
      registered({ ...emailCredential, credentialId: 'AuthMethod:0199a000-0000-7000-8000-000000000201', email: 'JANE@example.com' }, T0, { ...other, initial: true }),
      registered({ ...passkeyCredential, credentialId: 'AuthMethod:0199a000-0000-7000-8000-000000000202' }, T1, other),
      session(1, EMAIL, T1, { fingerprint: 'shared' }),
      session(2, 'AuthMethod:0199a000-0000-7000-8000-000000000201', T1, { platformId: OTHER_PLATFORM, accountId: OTHER_ACCOUNT, fingerprint: 'shared' }),
    ]);
    const byEmail = `SELECT credential_id, account_id FROM wallet_credentials WHERE platform_id = $1 AND email_lower = $2 AND removed_at IS NULL`;
    expect(await spec.rows(byEmail, [PLATFORM, 'jane@example.com'])).toEqual([{ credential_id: EMAIL, account_id: ACCOUNT }]);
    expect(await spec.rows(byEmail, [OTHER_PLATFORM, 'jane@example.com'])).toEqual([{ credential_id: 'AuthMethod:0199a000-0000-7000-8000-000000000201', account_id: OTHER_ACCOUNT }]);
    const byPasskey = `SELECT credential_id FROM wallet_credentials WHERE platform_id = $1 AND webauthn_credential_id = $2 AND removed_at IS NULL`;
    expect(await spec.rows(byPasskey, [OTHER_PLATFORM, 'cred-abc_123'])).toEqual([{ credential_id: 'AuthMethod:0199a000-0000-7000-8000-000000000202' }]);
    expect(await spec.rows(`SELECT platform_id, session_id FROM wallet_sessions WHERE key_fingerprint = 'shared' ORDER BY session_id`)).toEqual([
      { platform_id: PLATFORM, session_id: 'Session:1' },
      { platform_id: OTHER_PLATFORM, session_id: 'Session:2' },
    ]);
  });
});
