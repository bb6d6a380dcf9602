import { deciderSpec } from '../../../../test/support/decider-spec';
import { ProfileCommand, isLocked, profileDecider } from './profile.decider';
import { ScaProfileEvent, SecurityEventType } from './profile.events';

const T0 = '2025-10-13T12:00:00.000Z';
const ref = { platformId: 'Platform:p', customerId: 'Customer:c' };
const MINUTE_MS = 60 * 1000;
const spec = deciderSpec(profileDecider);

const at = (offsetMs: number) => new Date(Date.parse(T0) + offsetMs).toISOString();
const record = (eventType: SecurityEventType, now = T0): ProfileCommand => ({ type: 'RecordSecurityEvent', ...ref, eventType, now });
const session: ScaProfileEvent = {
  type: 'ScaSessionStarted',
  data: { ...ref, sessionId: 'Session:s', challengeId: 'ScaChallenge:l', factor: 'SMS_OTP', passkeyCounter: null, endUserIpAddress: null, startedAt: T0, expiresAt: '2026-04-11T12:00:00.000Z' },
};

/** Records failed logins one after the other, each after the lock before it ran out. */
function failedLogins(count: number): ScaProfileEvent[] {
  const events: ScaProfileEvent[] = [];
  let now = T0;
  for (let n = 0; n < count; n++) {
    const [event] = spec.given(events).when(record('FAILED_LOGIN_ATTEMPT', now)).events;
    events.push(event);
    const lockedUntil = (event.data as { lockedUntil: string | null }).lockedUntil;
    now = lockedUntil ?? at((n + 1) * MINUTE_MS);
  }
  return events;
}

describe('SCA profile: security events and 2FA resets', () => {
  it('escalates the failed-login lock: 5 -> 15 min, 6 -> 30 min, 7 -> 1 h, 8 -> 24 h, 9 -> suspended', () => {
    const events = failedLogins(9);
    const lockMinutes = events.map((event) => {
      const data = event.data as { recordedAt: string; lockedUntil: string | null; suspended: boolean };
      return data.suspended ? 'suspended' : data.lockedUntil === null ? null : (Date.parse(data.lockedUntil) - Date.parse(data.recordedAt)) / MINUTE_MS;
    });
    expect(lockMinutes).toEqual([null, null, null, null, 15, 30, 60, 24 * 60, 'suspended']);
    const state = spec.state(events);
    expect(state.login).toEqual({ failedAttempts: 9, lockedUntil: null, suspended: true });
    // A suspension has no end: SCA stays locked, and another failed login is 423.
    expect(isLocked(state, '2030-01-01T00:00:00.000Z')).toBe(true);
    spec.given(events).when(record('FAILED_LOGIN_ATTEMPT', '2030-01-01T00:00:00.000Z')).thenError('ACCOUNT_LOCKED', { suspended: true, lockedUntil: null, failedAttempts: 9 });
  });

  it('refuses a failed login while locked, and locks SCA steps for as long', () => {
    const events = failedLogins(5);
    const lockedUntil = (events[4].data as { lockedUntil: string }).lockedUntil;
    const during = at(-1 + Date.parse(lockedUntil) - Date.parse(T0));
    spec.given(events).when(record('FAILED_LOGIN_ATTEMPT', during)).thenError('ACCOUNT_LOCKED', { suspended: false, lockedUntil, failedAttempts: 5 });
    spec
      .given(events)
      .when({ type: 'IssueLoginChallenge', ...ref, challengeId: 'ScaChallenge:x', factor: 'SMS_OTP', expiresAt: lockedUntil, passkey: null, now: during })
      .thenError('ACCOUNT_LOCKED');
  });

  it('a password reset clears the failed logins (a suspension too) and ends the SCA session', () => {
    const events = [session, ...failedLogins(9)];
    const { events: decided } = spec.given(events).when(record('RESET_PASSWORD_COMPLETED', '2030-01-01T00:00:00.000Z'));
    expect(decided).toEqual([
      {
        type: 'ScaSecurityEventRecorded',
        data: { ...ref, eventType: 'RESET_PASSWORD_COMPLETED', failedAttempts: 0, lockedUntil: null, suspended: false, revokedSessionId: 'Session:s', recordedAt: '2030-01-01T00:00:00.000Z' },
      },
    ]);
    const state = spec.state([...events, ...decided]);
    expect(state.session).toBeNull();
    expect(state.login).toEqual({ failedAttempts: 0, lockedUntil: null, suspended: false });
  });

  it('a completed reset removes the factor, records a new SMS number, and ends the session and the wrong-proof run', () => {
    const passkey: ScaProfileEvent[] = [
      {
        type: 'ScaPasskeyEnrollmentStarted',
        data: { ...ref, factorId: 'ScaFactor:f', challengeId: 'ScaChallenge:e', registrationChallenge: 'cg', rpId: 'bank.example', allowedOrigins: [], nickname: null, expiresAt: at(5 * MINUTE_MS), startedAt: T0 },
      },
      { type: 'ScaPasskeyEnrolled', data: { ...ref, factorId: 'ScaFactor:f', credentialId: 'Y3JlZA', publicKey: 'a2V5', counter: 0, transports: [], enrolledAt: T0 } },
    ];
    const apply = (factor: 'PASSKEY' | 'SMS_OTP', mobile: { vaultId: string; last4: string } | null = null): ProfileCommand => ({
      type: 'ApplyFactorReset', ...ref, resetId: 'ScaFactorReset:r', factor, mobile, now: at(MINUTE_MS),
    });
    const { events: removed } = spec.given([...passkey, session]).when(apply('PASSKEY'));
    expect(removed.map((event) => event.type)).toEqual(['ScaPasskeyRemoved', 'ScaFactorResetApplied']);
    const after = spec.state([...passkey, session, ...removed]);
    expect(after.passkey).toBeNull();
    expect(after.session).toBeNull();

    const mobile = { vaultId: 'sca-sms-mobile:ScaFactorReset:r', last4: '6789' };
    const { events: sms } = spec.given([session]).when(apply('SMS_OTP', mobile));
    expect(sms).toEqual([
      {
        type: 'ScaFactorResetApplied',
        data: { ...ref, resetId: 'ScaFactorReset:r', factor: 'SMS_OTP', removedTotpEnrollmentId: null, mobileVaultId: mobile.vaultId, mobileLast4: '6789', revokedSessionId: 'Session:s', appliedAt: at(MINUTE_MS) },
      },
    ]);
    expect(spec.state([session, ...sms]).smsMobile).toEqual(mobile);
  });
});
