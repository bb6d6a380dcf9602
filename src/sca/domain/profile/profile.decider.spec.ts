import { DomainError } from '../../../infra/domain/domain-error';
import { ProfileCommand, ProfileState, availableFactors, hasLiveSession, isLocked, profileDecider } from './profile.decider';
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
  type: 'CompleteLogin', ...ref, challengeId: 'ScaChallenge:l', factor, passkeyCounter: factor === 'PASSKEY' ? 3 : null,
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
