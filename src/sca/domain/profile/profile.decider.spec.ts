import { DomainError } from '../../../infra/domain/domain-error';
import { ProfileCommand, ProfileState, TotpLoginProof, availableFactors, hasLiveSession, isLocked, profileDecider, totpProofRefusal } from './profile.decider';
import { ScaProfileEvent } from './profile.events';

const T0 = '2025-10-13T12:00:00.000Z';
const T1 = '2025-10-13T12:01:00.000Z';
const EXPIRY = '2025-10-13T12:05:00.000Z';
const ref = { platformId: 'Platform:p', customerId: 'Customer:c' };
const policy = { maxFailedAttempts: 5, lockoutMs: 15 * 60 * 1000 };

const given = (events: ScaProfileEvent[]): ProfileState => events.reduce(profileDecider.evolve, profileDecider.initialState());
const when = (state: ProfileState, command: ProfileCommand) => profileDecider.decide(command, state);
function refusal(work: () => unknown): { code: string; details?: Record<string, unknown> } | undefined {
  try {
    work();
  } catch (error) {
    return { code: (error as DomainError).code, details: (error as DomainError).details };
  }
  return undefined;
}

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
    expect(when(given([]), start)).toEqual([enrollmentStarted]);
    const confirm: ProfileCommand = { type: 'ConfirmPasskeyEnrollment', ...ref, factorId: 'ScaFactor:f', credential, now: T1 };
    expect(when(given([enrollmentStarted]), confirm)).toEqual([enrolled]);
    const state = given([enrollmentStarted, enrolled]);
    expect(state.passkey).toMatchObject({ status: 'ACTIVE', credentialId: 'Y3JlZA', rpId: 'bank.example', allowedOrigins: ['https://bank.example'] });
    expect(availableFactors(state)).toEqual(['SMS_OTP', 'PASSKEY']);
    expect(availableFactors(given([enrollmentStarted]))).toEqual(['SMS_OTP']);
    expect(refusal(() => when(state, { ...start, factorId: 'ScaFactor:g' }))?.code).toBe('PASSKEY_ALREADY_ENROLLED');
    expect(refusal(() => when(state, confirm))?.details?.reason).toBe('FACTOR_ALREADY_CONFIRMED');
  });

  it('refuses a late or unknown confirmation, and removes a passkey by its factor id', () => {
    const confirm: ProfileCommand = { type: 'ConfirmPasskeyEnrollment', ...ref, factorId: 'ScaFactor:f', credential, now: EXPIRY };
    expect(refusal(() => when(given([enrollmentStarted]), confirm))?.details?.reason).toBe('ENROLLMENT_EXPIRED');
    expect(refusal(() => when(given([enrollmentStarted]), { ...confirm, factorId: 'ScaFactor:x', now: T1 }))?.code).toBe('REFERENCE_NOT_FOUND');
    const remove: ProfileCommand = { type: 'RemovePasskey', ...ref, factorId: 'ScaFactor:f', now: T1 };
    const removed = when(given([enrollmentStarted, enrolled]), remove);
    expect(removed).toEqual([{ type: 'ScaPasskeyRemoved', data: { ...ref, factorId: 'ScaFactor:f', removedAt: T1 } }]);
    expect(given([enrollmentStarted, enrolled, ...removed]).passkey).toBeNull();
    expect(refusal(() => when(given([]), remove))?.code).toBe('REFERENCE_NOT_FOUND');
  });

  it('a login challenge opens a session once; PASSKEY login needs an enrolled passkey', () => {
    const issue: ProfileCommand = { type: 'IssueLoginChallenge', ...ref, challengeId: 'ScaChallenge:l', factor: 'PASSKEY', expiresAt: EXPIRY, passkey: null, now: T0 };
    expect(refusal(() => when(given([]), issue))?.details?.reason).toBe('FACTOR_NOT_ENROLLED');
    expect(refusal(() => when(given([]), completeLogin()))?.details?.reason).toBe('NO_PENDING_CHALLENGE');
    const started = when(given([loginIssued('SMS_OTP')]), completeLogin());
    expect(started[0]).toMatchObject({ type: 'ScaSessionStarted', data: { sessionId: 'Session:s', factor: 'SMS_OTP', expiresAt: '2026-04-11T12:01:00.000Z' } });
    const state = given([loginIssued('SMS_OTP'), ...started]);
    expect(hasLiveSession(state, T1)).toBe(true);
    expect(hasLiveSession(state, '2026-04-11T12:01:00.000Z')).toBe(false);
    expect(hasLiveSession(given([]), T1)).toBe(false);
    expect(refusal(() => when(state, completeLogin()))?.details?.reason).toBe('NO_PENDING_CHALLENGE');
  });

  it('refuses a login after its challenge expired, or with another factor', () => {
    expect(refusal(() => when(given([loginIssued('SMS_OTP')]), completeLogin(EXPIRY)))?.details?.reason).toBe('SCA_CHALLENGE_EXPIRED');
    expect(refusal(() => when(given([loginIssued('SMS_OTP')]), completeLogin(T1, 'PASSKEY')))?.code).toBe('INVALID_INPUT');
  });

  it('a passkey login moves the passkey counter on', () => {
    const state = given([enrollmentStarted, enrolled, loginIssued('PASSKEY'), ...when(given([enrollmentStarted, enrolled, loginIssued('PASSKEY')]), completeLogin(T1, 'PASSKEY'))]);
    expect(state.passkey).toMatchObject({ status: 'ACTIVE', counter: 3 });
  });

  it('five wrong proofs in a row lock SCA for 15 minutes: 423 ACCOUNT_LOCKED with details', () => {
    let events: ScaProfileEvent[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const rejected = when(given(events), failure(T1));
      expect(rejected[0].data).toMatchObject({ failedAttempts: attempt, lockedUntil: null, reason: 'WRONG_CODE' });
      events = [...events, ...rejected];
    }
    const fifth = when(given(events), failure(T1));
    expect(fifth[0].data).toMatchObject({ failedAttempts: 5, lockedUntil: '2025-10-13T12:16:00.000Z' });
    const locked = given([...events, ...fifth]);
    expect(isLocked(locked, '2025-10-13T12:15:59.999Z')).toBe(true);
    const expected = { code: 'ACCOUNT_LOCKED', details: { suspended: true, lockedUntil: '2025-10-13T12:16:00.000Z', failedAttempts: 5 } };
    expect(refusal(() => when(locked, failure('2025-10-13T12:10:00.000Z')))).toEqual(expected);
    const success: ProfileCommand = { type: 'RecordProofSuccess', ...ref, challengeId: 'ScaChallenge:1', factor: 'SMS_OTP', passkeyCounter: null, endUserIpAddress: null, now: '2025-10-13T12:10:00.000Z' };
    expect(refusal(() => when(locked, success))).toEqual(expected);
    expect(refusal(() => when(given([...events, ...fifth, loginIssued('SMS_OTP')]), completeLogin('2025-10-13T12:10:00.000Z')))).toEqual(expected);
    // Once the lock has run out, the count starts again.
    expect(isLocked(locked, '2025-10-13T12:16:00.000Z')).toBe(false);
    expect(when(locked, failure('2025-10-13T12:16:00.000Z'))[0].data).toMatchObject({ failedAttempts: 1, lockedUntil: null });
  });

  it('a correct proof ends the run of wrong ones', () => {
    const events = [...when(given([]), failure(T0))];
    const state = given(events);
    expect(state.failedAttempts).toBe(1);
    const accepted = when(state, { type: 'RecordProofSuccess', ...ref, challengeId: 'ScaChallenge:1', factor: 'SMS_OTP', passkeyCounter: null, endUserIpAddress: null, now: T1 });
    expect(given([...events, ...accepted]).failedAttempts).toBe(0);
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
    return [...events, ...when(given(events), confirm('sha-a'))];
  };

  it('enrollment: start keeps the secret\'s digest, confirm with that digest enrolls with the recovery code hashes', () => {
    expect(when(given([session]), start('ScaFactor:a', 'sha-a'))).toEqual([started('ScaFactor:a', 'sha-a')]);
    expect(when(given([session, started('ScaFactor:a', 'sha-a')]), confirm('sha-a'))).toEqual([
      { type: 'ScaTotpEnrolled', data: { ...ref, enrollmentId: 'ScaFactor:a', recoveryCodeHashes: ['r1', 'r2'], timeStep: 100, replacedEnrollmentId: null, enrolledAt: T1 } },
    ]);
    const state = given(enrolledEvents());
    expect(state.pendingTotp).toBeNull();
    expect(state.totp).toEqual({ enrollmentId: 'ScaFactor:a', secretSha256: 'sha-a', nickname: null, recoveryCodeHashes: ['r1', 'r2'], lastTimeStep: 100, enrolledAt: T1 });
    // TOTP opens logins only: never a factor a challenge is issued for.
    expect(availableFactors(state)).toEqual(['SMS_OTP']);
  });

  it('enrollment needs a live session and no lock', () => {
    expect(refusal(() => when(given([]), start('ScaFactor:a', 'sha-a')))?.code).toBe('SCA_SESSION_REQUIRED');
    let events: ScaProfileEvent[] = [session];
    for (let attempt = 0; attempt < 5; attempt++) events = [...events, ...when(given(events), failure(T0))];
    expect(refusal(() => when(given(events), start('ScaFactor:a', 'sha-a', T1)))?.code).toBe('ACCOUNT_LOCKED');
  });

  it('confirm: another secret or none pending is 400 on secret, a late one 409 ENROLLMENT_EXPIRED, a repeated one 409 FACTOR_ALREADY_CONFIRMED', () => {
    const secretError = { code: 'INVALID_INPUT', details: { errors: [{ field: 'secret', constraint: {}, message: expect.stringContaining('pending TOTP enrollment') }] } };
    expect(refusal(() => when(given([session]), confirm('sha-a')))).toEqual(secretError);
    expect(refusal(() => when(given([session, started('ScaFactor:a', 'sha-a')]), confirm('sha-b')))).toEqual(secretError);
    expect(refusal(() => when(given([session, started('ScaFactor:a', 'sha-a')]), confirm('sha-a', EXPIRY)))).toEqual({
      code: 'CONFLICT', details: { reason: 'ENROLLMENT_EXPIRED', expiresAt: EXPIRY },
    });
    expect(refusal(() => when(given(enrolledEvents()), confirm('sha-a')))?.details).toEqual({ reason: 'FACTOR_ALREADY_CONFIRMED' });
  });

  it('a second enrollment: a new start replaces the pending one; its confirmation replaces the secret and recovery codes', () => {
    const first = [session, started('ScaFactor:a', 'sha-a'), started('ScaFactor:b', 'sha-b')];
    expect(refusal(() => when(given(first), confirm('sha-a')))?.code).toBe('INVALID_INPUT');
    const events = [...enrolledEvents(), started('ScaFactor:b', 'sha-b')];
    // The active factor stays until the new one is confirmed.
    expect(given(events).totp?.enrollmentId).toBe('ScaFactor:a');
    const replaced = when(given(events), { ...confirm('sha-b'), recoveryCodeHashes: ['r3'] } as ProfileCommand);
    expect(replaced[0].data).toMatchObject({ enrollmentId: 'ScaFactor:b', replacedEnrollmentId: 'ScaFactor:a', recoveryCodeHashes: ['r3'] });
    expect(given([...events, ...replaced]).totp).toMatchObject({ enrollmentId: 'ScaFactor:b', secretSha256: 'sha-b', recoveryCodeHashes: ['r3'] });
  });

  it('a TOTP login needs the factor; a code spends its time step, a recovery code itself', () => {
    const issue: ProfileCommand = { type: 'IssueLoginChallenge', ...ref, challengeId: 'ScaChallenge:t', factor: 'TOTP', expiresAt: EXPIRY, passkey: null, now: T0 };
    expect(refusal(() => when(given([]), issue))?.details).toEqual({ reason: 'FACTOR_NOT_ENROLLED', factor: 'TOTP' });
    const events = [...enrolledEvents(), ...when(given(enrolledEvents()), issue)];
    expect(events[events.length - 1]).toEqual(totpLoginIssued);

    const byCode = when(given(events), totpLogin({ kind: 'CODE', timeStep: 101 }));
    expect(byCode.map((event) => event.type)).toEqual(['ScaTotpCodeUsed', 'ScaSessionStarted']);
    expect(byCode[0].data).toEqual({ ...ref, enrollmentId: 'ScaFactor:a', timeStep: 101, usedAt: T1 });
    expect(given([...events, ...byCode]).totp?.lastTimeStep).toBe(101);
    expect(given([...events, ...byCode]).session).toMatchObject({ sessionId: 'Session:t', factor: 'TOTP' });

    const bySandboxCode = when(given(events), totpLogin({ kind: 'CODE', timeStep: null }));
    expect(bySandboxCode.map((event) => event.type)).toEqual(['ScaSessionStarted']);

    const byRecovery = when(given(events), totpLogin({ kind: 'RECOVERY_CODE', recoveryCodeHash: 'r2' }));
    expect(byRecovery[0]).toEqual({ type: 'ScaTotpRecoveryCodeUsed', data: { ...ref, enrollmentId: 'ScaFactor:a', recoveryCodeHash: 'r2', remaining: 1, usedAt: T1 } });
    expect(given([...events, ...byRecovery]).totp?.recoveryCodeHashes).toEqual(['r1']);
  });

  it('refuses a code of a time step already used and a recovery code not (or no longer) among the unused', () => {
    const events = [...enrolledEvents(), totpLoginIssued];
    const state = given(events);
    expect(totpProofRefusal(state.totp!, { kind: 'CODE', timeStep: 100 })).toBe('CODE_ALREADY_USED');
    expect(totpProofRefusal(state.totp!, { kind: 'CODE', timeStep: 99 })).toBe('CODE_ALREADY_USED');
    expect(totpProofRefusal(state.totp!, { kind: 'CODE', timeStep: 101 })).toBeNull();
    expect(totpProofRefusal(state.totp!, { kind: 'CODE', timeStep: null })).toBeNull();
    expect(totpProofRefusal(state.totp!, { kind: 'RECOVERY_CODE', recoveryCodeHash: 'r9' })).toBe('WRONG_CODE');
    expect(refusal(() => when(state, totpLogin({ kind: 'CODE', timeStep: 100 })))).toEqual({
      code: 'INVALID_INPUT', details: { errors: [{ field: 'code', constraint: {}, message: 'The code was already used' }] },
    });
    const used = [...events, ...when(state, totpLogin({ kind: 'RECOVERY_CODE', recoveryCodeHash: 'r1' }))];
    expect(totpProofRefusal(given(used).totp!, { kind: 'RECOVERY_CODE', recoveryCodeHash: 'r1' })).toBe('WRONG_CODE');
  });

  it('wrong TOTP proofs count towards the same lock', () => {
    let events: ScaProfileEvent[] = [...enrolledEvents(), totpLoginIssued];
    for (let attempt = 1; attempt <= 5; attempt++) {
      events = [...events, ...when(given(events), { ...failure(T1), factor: 'TOTP', challengeId: 'ScaChallenge:t' } as ProfileCommand)];
    }
    expect(given(events)).toMatchObject({ failedAttempts: 5, lockedUntil: '2025-10-13T12:16:00.000Z' });
    expect(refusal(() => when(given(events), totpLogin({ kind: 'CODE', timeStep: 101 })))?.code).toBe('ACCOUNT_LOCKED');
  });
});
