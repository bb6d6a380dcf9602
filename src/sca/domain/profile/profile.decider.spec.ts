import { deciderSpec } from '../../../../test/support/decider-spec';
import { ProfileCommand, TotpLoginProof, availableFactors, hasLiveSession, isLocked, profileDecider, totpProofRefusal } from './profile.decider';
import { ScaProfileEvent } from './profile.events';

const T0 = '2025-10-13T12:00:00.000Z';
const T1 = '2025-10-13T12:01:00.000Z';
const EXPIRY = '2025-10-13T12:05:00.000Z';
const ref = { platformId: 'Platform:p', customerId: 'Customer:c' };
const policy = { maxFailedAttempts: 5, lockoutMs: 15 * 60 * 1000 };

const spec = deciderSpec(profileDecider);

const enrollmentStarted: ScaProfileEvent = {
  type: 'ScaPasskeyEnrollmentStarted',
  data: {
    ...ref, factorId: 'ScaFactor:f', challengeId: 'ScaChallenge:e', registrationChallenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ', rpId: 'bank.example',
    allowedOrigins: ['https://bank.example'], nickname: null, expiresAt: EXPIRY, startedAt: T0,
  },
};
const credential = { credentialId: 'Y3JlZA', publicKey: 'a2V5', counter: 0, transports: ['internal'] };
const enrolled: ScaProfileEvent = { type: 'ScaPasskeyEnrolled', data: { ...ref, factorId: 'ScaFactor:f', ...credential, enrolledAt: T1 } };
const failure = (now: string): ProfileCommand => ({
  type: 'RecordProofFailure', ...ref, challengeId: 'ScaChallenge:1', factor: 'SMS_OTP', reason: 'WRONG_CODE', endUserIpAddress: null, policy, now,
});
const loginIssued = (factor: 'SMS_OTP' | 'PASSKEY'): ScaProfileEvent => ({
  type: 'ScaLoginChallengeIssued',
  data: { ...ref, challengeId: 'ScaChallenge:l', factor, expiresAt: EXPIRY, passkey: null, issuedAt: T0 },
});
const completeLogin = (now = T1, factor: 'SMS_OTP' | 'PASSKEY' = 'SMS_OTP'): ProfileCommand => ({
  type: 'CompleteLogin', ...ref, challengeId: 'ScaChallenge:l', factor, passkeyCounter: factor === 'PASSKEY' ? 3 : null, totpProof: null,
  sessionId: 'Session:s', sessionExpiresAt: '2026-04-11T12:01:00.000Z', endUserIpAddress: '203.0.113.7', now,
});

describe('SCA profile decider', () => {
  it('enrolls one passkey: start, confirm; a second enrollment is PASSKEY_ALREADY_ENROLLED', () => {
    const start: ProfileCommand = {
      type: 'StartPasskeyEnrollment', ...ref, factorId: 'ScaFactor:f', challengeId: 'ScaChallenge:e', registrationChallenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ',
      rpId: 'bank.example', allowedOrigins: ['https://bank.example'], nickname: null, expiresAt: EXPIRY, now: T0,
    };
    spec.given([]).when(start).then([enrollmentStarted]);
    const confirm: ProfileCommand = { type: 'ConfirmPasskeyEnrollment', ...ref, factorId: 'ScaFactor:f', credential, now: T1 };
    spec.given([enrollmentStarted]).when(confirm).then([enrolled]);
    const withPasskey = spec.given([enrollmentStarted, enrolled]);
    expect(withPasskey.state.passkey).toMatchObject({ status: 'ACTIVE', credentialId: 'Y3JlZA', rpId: 'bank.example', allowedOrigins: ['https://bank.example'] });
    expect(availableFactors(withPasskey.state)).toEqual(['SMS_OTP', 'PASSKEY']);
    expect(availableFactors(spec.state([enrollmentStarted]))).toEqual(['SMS_OTP']);
    withPasskey.when({ ...start, factorId: 'ScaFactor:g' }).thenError('PASSKEY_ALREADY_ENROLLED');
    withPasskey.when(confirm).thenError('CONFLICT', { reason: 'FACTOR_ALREADY_CONFIRMED' });
  });

  it('refuses a late or unknown confirmation, and removes a passkey by its factor id', () => {
    const confirm: ProfileCommand = { type: 'ConfirmPasskeyEnrollment', ...ref, factorId: 'ScaFactor:f', credential, now: EXPIRY };
    spec.given([enrollmentStarted]).when(confirm).thenError('CONFLICT', { reason: 'ENROLLMENT_EXPIRED' });
    spec.given([enrollmentStarted]).when({ ...confirm, factorId: 'ScaFactor:x', now: T1 }).thenError('REFERENCE_NOT_FOUND');
    const remove: ProfileCommand = { type: 'RemovePasskey', ...ref, factorId: 'ScaFactor:f', now: T1 };
    const removed: ScaProfileEvent = { type: 'ScaPasskeyRemoved', data: { ...ref, factorId: 'ScaFactor:f', removedAt: T1 } };
    spec.given([enrollmentStarted, enrolled]).when(remove).then([removed]);
    expect(spec.state([enrollmentStarted, enrolled, removed]).passkey).toBeNull();
    spec.given([]).when(remove).thenError('REFERENCE_NOT_FOUND');
  });

  it('a login challenge opens a session once; PASSKEY login needs an enrolled passkey', () => {
    const issue: ProfileCommand = { type: 'IssueLoginChallenge', ...ref, challengeId: 'ScaChallenge:l', factor: 'PASSKEY', expiresAt: EXPIRY, passkey: null, now: T0 };
    spec.given([]).when(issue).thenError('CONFLICT', { reason: 'FACTOR_NOT_ENROLLED' });
    spec.given([]).when(completeLogin()).thenError('CONFLICT', { reason: 'NO_PENDING_CHALLENGE' });
    const { events: started } = spec.given([loginIssued('SMS_OTP')]).when(completeLogin());
    expect(started[0]).toMatchObject({ type: 'ScaSessionStarted', data: { sessionId: 'Session:s', factor: 'SMS_OTP', expiresAt: '2026-04-11T12:01:00.000Z' } });
    const loggedIn = spec.given([loginIssued('SMS_OTP'), ...started]);
    expect(hasLiveSession(loggedIn.state, T1)).toBe(true);
    expect(hasLiveSession(loggedIn.state, '2026-04-11T12:01:00.000Z')).toBe(false);
    expect(hasLiveSession(spec.state([]), T1)).toBe(false);
    loggedIn.when(completeLogin()).thenError('CONFLICT', { reason: 'NO_PENDING_CHALLENGE' });
  });

  it('refuses a login after its challenge expired, or with another factor', () => {
    spec.given([loginIssued('SMS_OTP')]).when(completeLogin(EXPIRY)).thenError('CONFLICT', { reason: 'SCA_CHALLENGE_EXPIRED' });
    spec.given([loginIssued('SMS_OTP')]).when(completeLogin(T1, 'PASSKEY')).thenError('INVALID_INPUT');
  });

  it('a passkey login moves the passkey counter on', () => {
    const history = [enrollmentStarted, enrolled, loginIssued('PASSKEY')];
    const { events } = spec.given(history).when(completeLogin(T1, 'PASSKEY'));
    expect(spec.state([...history, ...events]).passkey).toMatchObject({ status: 'ACTIVE', counter: 3 });
  });

  it('five wrong proofs in a row lock SCA for 15 minutes: 423 ACCOUNT_LOCKED with details', () => {
    let events: ScaProfileEvent[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const { events: rejected } = spec.given(events).when(failure(T1));
      expect(rejected[0].data).toMatchObject({ failedAttempts: attempt, lockedUntil: null, reason: 'WRONG_CODE' });
      events = [...events, ...rejected];
    }
    const { events: fifth } = spec.given(events).when(failure(T1));
    expect(fifth[0].data).toMatchObject({ failedAttempts: 5, lockedUntil: '2025-10-13T12:16:00.000Z' });
    const locked = spec.given([...events, ...fifth]);
    expect(isLocked(locked.state, '2025-10-13T12:15:59.999Z')).toBe(true);
    const expected = { code: 'ACCOUNT_LOCKED', message: expect.any(String), details: { suspended: true, lockedUntil: '2025-10-13T12:16:00.000Z', failedAttempts: 5 } };
    expect(locked.when(failure('2025-10-13T12:10:00.000Z')).error).toEqual(expected);
    const success: ProfileCommand = { type: 'RecordProofSuccess', ...ref, challengeId: 'ScaChallenge:1', factor: 'SMS_OTP', passkeyCounter: null, endUserIpAddress: null, now: '2025-10-13T12:10:00.000Z' };
    expect(locked.when(success).error).toEqual(expected);
    expect(spec.given([...events, ...fifth, loginIssued('SMS_OTP')]).when(completeLogin('2025-10-13T12:10:00.000Z')).error).toEqual(expected);
    // Once the lock has run out, the count starts again.
    expect(isLocked(locked.state, '2025-10-13T12:16:00.000Z')).toBe(false);
    expect(locked.when(failure('2025-10-13T12:16:00.000Z')).events[0].data).toMatchObject({ failedAttempts: 1, lockedUntil: null });
  });

  it('a correct proof ends the run of wrong ones', () => {
    const { events } = spec.given([]).when(failure(T0));
    const failedOnce = spec.given(events);
    expect(failedOnce.state.failedAttempts).toBe(1);
    const { events: accepted } = failedOnce.when({ type: 'RecordProofSuccess', ...ref, challengeId: 'ScaChallenge:1', factor: 'SMS_OTP', passkeyCounter: null, endUserIpAddress: null, now: T1 });
    expect(spec.state([...events, ...accepted]).failedAttempts).toBe(0);
  });
});

describe('SCA profile decider: TOTP', () => {
  const session: ScaProfileEvent = {
    type: 'ScaSessionStarted',
    data: { ...ref, sessionId: 'Session:s', challengeId: 'ScaChallenge:l', factor: 'SMS_OTP', passkeyCounter: null, endUserIpAddress: null, startedAt: T0, expiresAt: '2026-04-11T12:00:00.000Z' },
  };
  const start = (enrollmentId: string, secretSha256: string, now = T0): ProfileCommand => ({
    type: 'StartTotpEnrollment', ...ref, enrollmentId, secretSha256, nickname: null, expiresAt: EXPIRY, now,
  });
  const confirm = (secretSha256: string, now = T1, timeStep: number | null = 100): ProfileCommand => ({
    type: 'ConfirmTotpEnrollment', ...ref, secretSha256, timeStep, recoveryCodeHashes: ['r1', 'r2'], now,
  });
  const totpLoginIssued: ScaProfileEvent = {
    type: 'ScaLoginChallengeIssued', data: { ...ref, challengeId: 'ScaChallenge:t', factor: 'TOTP', expiresAt: EXPIRY, passkey: null, issuedAt: T0 },
  };
  const totpLogin = (totpProof: TotpLoginProof): ProfileCommand => ({
    type: 'CompleteLogin', ...ref, challengeId: 'ScaChallenge:t', factor: 'TOTP', passkeyCounter: null, totpProof,
    sessionId: 'Session:t', sessionExpiresAt: '2026-04-11T12:01:00.000Z', endUserIpAddress: null, now: T1,
  });
  const started = (enrollmentId: string, secretSha256: string): ScaProfileEvent => ({
    type: 'ScaTotpEnrollmentStarted', data: { ...ref, enrollmentId, secretSha256, nickname: null, expiresAt: EXPIRY, startedAt: T0 },
  });
  const enrolledEvents = (): ScaProfileEvent[] => {
    const events = [session, started('ScaFactor:a', 'sha-a')];
    return [...events, ...spec.given(events).when(confirm('sha-a')).events];
  };

  it('enrollment: start keeps the secret\'s digest, confirm with that digest enrolls with the recovery code hashes', () => {
    spec.given([session]).when(start('ScaFactor:a', 'sha-a')).then([started('ScaFactor:a', 'sha-a')]);
    spec.given([session, started('ScaFactor:a', 'sha-a')]).when(confirm('sha-a')).then([
      { type: 'ScaTotpEnrolled', data: { ...ref, enrollmentId: 'ScaFactor:a', recoveryCodeHashes: ['r1', 'r2'], timeStep: 100, replacedEnrollmentId: null, enrolledAt: T1 } },
    ]);
    const state = spec.state(enrolledEvents());
    expect(state.pendingTotp).toBeNull();
    expect(state.totp).toEqual({ enrollmentId: 'ScaFactor:a', secretSha256: 'sha-a', nickname: null, recoveryCodeHashes: ['r1', 'r2'], lastTimeStep: 100, enrolledAt: T1 });
    // TOTP opens logins only: never a factor a challenge is issued for.
    expect(availableFactors(state)).toEqual(['SMS_OTP']);
  });

  it('enrollment needs a live session and no lock', () => {
    spec.given([]).when(start('ScaFactor:a', 'sha-a')).thenError('SCA_SESSION_REQUIRED');
    let events: ScaProfileEvent[] = [session];
    for (let attempt = 0; attempt < 5; attempt++) events = [...events, ...spec.given(events).when(failure(T0)).events];
    spec.given(events).when(start('ScaFactor:a', 'sha-a', T1)).thenError('ACCOUNT_LOCKED');
  });

  it('confirm: another secret or none pending is 400 on secret, a late one 409 ENROLLMENT_EXPIRED, a repeated one 409 FACTOR_ALREADY_CONFIRMED', () => {
    const secretError = {
      code: 'INVALID_INPUT',
      message: expect.any(String),
      details: { errors: [{ field: 'secret', constraint: {}, message: expect.stringContaining('pending TOTP enrollment') }] },
    };
    expect(spec.given([session]).when(confirm('sha-a')).error).toEqual(secretError);
    expect(spec.given([session, started('ScaFactor:a', 'sha-a')]).when(confirm('sha-b')).error).toEqual(secretError);
    expect(spec.given([session, started('ScaFactor:a', 'sha-a')]).when(confirm('sha-a', EXPIRY)).error).toEqual({
      code: 'CONFLICT', message: expect.any(String), details: { reason: 'ENROLLMENT_EXPIRED', expiresAt: EXPIRY },
    });
    expect(spec.given(enrolledEvents()).when(confirm('sha-a')).error).toEqual({
      code: 'CONFLICT', message: expect.any(String), details: { reason: 'FACTOR_ALREADY_CONFIRMED' },
    });
  });

  it('a second enrollment: a new start replaces the pending one; its confirmation replaces the secret and recovery codes', () => {
    const first = [session, started('ScaFactor:a', 'sha-a'), started('ScaFactor:b', 'sha-b')];
    spec.given(first).when(confirm('sha-a')).thenError('INVALID_INPUT');
    const events = [...enrolledEvents(), started('ScaFactor:b', 'sha-b')];
    const pending = spec.given(events);
    // The active factor stays until the new one is confirmed.
    expect(pending.state.totp?.enrollmentId).toBe('ScaFactor:a');
    const { events: replaced } = pending.when({ ...confirm('sha-b'), recoveryCodeHashes: ['r3'] } as ProfileCommand);
    expect(replaced[0].data).toMatchObject({ enrollmentId: 'ScaFactor:b', replacedEnrollmentId: 'ScaFactor:a', recoveryCodeHashes: ['r3'] });
    expect(spec.state([...events, ...replaced]).totp).toMatchObject({ enrollmentId: 'ScaFactor:b', secretSha256: 'sha-b', recoveryCodeHashes: ['r3'] });
  });

  it('a TOTP login needs the factor; a code spends its time step, a recovery code itself', () => {
    const issue: ProfileCommand = { type: 'IssueLoginChallenge', ...ref, challengeId: 'ScaChallenge:t', factor: 'TOTP', expiresAt: EXPIRY, passkey: null, now: T0 };
    expect(spec.given([]).when(issue).error).toEqual({ code: 'CONFLICT', message: expect.any(String), details: { reason: 'FACTOR_NOT_ENROLLED', factor: 'TOTP' } });
    const events = [...enrolledEvents(), ...spec.given(enrolledEvents()).when(issue).events];
    expect(events[events.length - 1]).toEqual(totpLoginIssued);
    const loginPending = spec.given(events);

    const { events: byCode } = loginPending.when(totpLogin({ kind: 'CODE', timeStep: 101 }));
    expect(byCode.map((event) => event.type)).toEqual(['ScaTotpCodeUsed', 'ScaSessionStarted']);
    expect(byCode[0].data).toEqual({ ...ref, enrollmentId: 'ScaFactor:a', timeStep: 101, usedAt: T1 });
    expect(spec.state([...events, ...byCode]).totp?.lastTimeStep).toBe(101);
    expect(spec.state([...events, ...byCode]).session).toMatchObject({ sessionId: 'Session:t', factor: 'TOTP' });

    const { events: bySandboxCode } = loginPending.when(totpLogin({ kind: 'CODE', timeStep: null }));
    expect(bySandboxCode.map((event) => event.type)).toEqual(['ScaSessionStarted']);

    const { events: byRecovery } = loginPending.when(totpLogin({ kind: 'RECOVERY_CODE', recoveryCodeHash: 'r2' }));
    expect(byRecovery[0]).toEqual({ type: 'ScaTotpRecoveryCodeUsed', data: { ...ref, enrollmentId: 'ScaFactor:a', recoveryCodeHash: 'r2', remaining: 1, usedAt: T1 } });
    expect(spec.state([...events, ...byRecovery]).totp?.recoveryCodeHashes).toEqual(['r1']);
  });

  it('refuses a code of a time step already used and a recovery code not (or no longer) among the unused', () => {
    const events = [...enrolledEvents(), totpLoginIssued];
    const loginPending = spec.given(events);
    const state = loginPending.state;
    expect(totpProofRefusal(state.totp!, { kind: 'CODE', timeStep: 100 })).toBe('CODE_ALREADY_USED');
    expect(totpProofRefusal(state.totp!, { kind: 'CODE', timeStep: 99 })).toBe('CODE_ALREADY_USED');
    expect(totpProofRefusal(state.totp!, { kind: 'CODE', timeStep: 101 })).toBeNull();
    expect(totpProofRefusal(state.totp!, { kind: 'CODE', timeStep: null })).toBeNull();
    expect(totpProofRefusal(state.totp!, { kind: 'RECOVERY_CODE', recoveryCodeHash: 'r9' })).toBe('WRONG_CODE');
    expect(loginPending.when(totpLogin({ kind: 'CODE', timeStep: 100 })).error).toEqual({
      code: 'INVALID_INPUT', message: expect.any(String), details: { errors: [{ field: 'code', constraint: {}, message: 'The code was already used' }] },
    });
    const used = [...events, ...loginPending.when(totpLogin({ kind: 'RECOVERY_CODE', recoveryCodeHash: 'r1' })).events];
    expect(totpProofRefusal(spec.state(used).totp!, { kind: 'RECOVERY_CODE', recoveryCodeHash: 'r1' })).toBe('WRONG_CODE');
  });

  it('wrong TOTP proofs count towards the same lock', () => {
    let events: ScaProfileEvent[] = [...enrolledEvents(), totpLoginIssued];
    for (let attempt = 1; attempt <= 5; attempt++) {
      events = [...events, ...spec.given(events).when({ ...failure(T1), factor: 'TOTP', challengeId: 'ScaChallenge:t' } as ProfileCommand).events];
    }
    expect(spec.state(events)).toMatchObject({ failedAttempts: 5, lockedUntil: '2025-10-13T12:16:00.000Z' });
    spec.given(events).when(totpLogin({ kind: 'CODE', timeStep: 101 })).thenError('ACCOUNT_LOCKED');
  });
});
