import { ProfileCommand } from './profile.commands';
import { ScaFactorResetApplied, ScaProfileEvent, ScaSecurityEventRecorded, SecurityEventType } from './profile.events';
import { LOGIN_LOCK_MS_BY_FAILURES, LOGIN_SUSPENSION_FAILURES, isLoginLocked, loginLocked } from './login-security';
import { ProfileState, activePasskey } from './profile.state';

/**
 * The customer's login-security state as the platform reports it (`POST /sca/record-event`) and
 * the profile side of a completed 2FA reset. Kept apart from the run of wrong SCA proofs: the
 * platform's failed logins are cumulative and cleared only by a password reset.
 */

type Ref = { platformId: string; customerId: string };

/**
 * `RESET_PASSWORD_COMPLETED` ends the SCA session and clears the failed logins (also a
 * suspension); `FAILED_LOGIN_ATTEMPT` counts one and escalates the lock, refused with 423 while
 * the login is locked (the platform should not have let the customer try).
 */
export function decideSecurityEvent(state: ProfileState, command: Ref & { eventType: SecurityEventType; now: string }): ScaSecurityEventRecorded[] {
  const ref = { platformId: command.platformId, customerId: command.customerId };
  const revokedSessionId = state.session?.sessionId ?? null;
  if (command.eventType === 'RESET_PASSWORD_COMPLETED') {
    const data = { ...ref, eventType: command.eventType, failedAttempts: 0, lockedUntil: null, suspended: false, revokedSessionId, recordedAt: command.now };
    return [{ type: 'ScaSecurityEventRecorded', data }];
  }
  if (isLoginLocked(state.login, command.now)) throw loginLocked(state.login);
  const failedAttempts = state.login.failedAttempts + 1;
  const suspended = failedAttempts >= LOGIN_SUSPENSION_FAILURES;
  const lockMs = LOGIN_LOCK_MS_BY_FAILURES[failedAttempts];
  const lockedUntil = lockMs === undefined ? null : new Date(Date.parse(command.now) + lockMs).toISOString();
  const data = { ...ref, eventType: command.eventType, failedAttempts, lockedUntil, suspended, revokedSessionId: null, recordedAt: command.now };
  return [{ type: 'ScaSecurityEventRecorded', data }];
}

/**
 * A 2FA reset completed: the lost factor goes (a passkey is removed as `DELETE /sca/factors`
 * removes it; TOTP loses its secret, recovery codes and any pending enrollment), an SMS_OTP reset
 * records the new number, and the SCA session and the run of wrong proofs end.
 */
export function decideFactorReset(
  state: ProfileState,
  command: Extract<ProfileCommand, { type: 'ApplyFactorReset' }>,
): ScaProfileEvent[] {
  const ref = { platformId: command.platformId, customerId: command.customerId };
  const passkey = activePasskey(state);
  const removed: ScaProfileEvent[] =
    command.factor === 'PASSKEY' && passkey ? [{ type: 'ScaPasskeyRemoved', data: { ...ref, factorId: passkey.factorId, removedAt: command.now } }] : [];
  const applied: ScaFactorResetApplied = {
    type: 'ScaFactorResetApplied',
    data: {
      ...ref,
      resetId: command.resetId,
      factor: command.factor,
      removedTotpEnrollmentId: command.factor === 'TOTP' ? (state.totp?.enrollmentId ?? null) : null,
      mobileVaultId: command.mobile?.vaultId ?? null,
      mobileLast4: command.mobile?.last4 ?? null,
      revokedSessionId: state.session?.sessionId ?? null,
      appliedAt: command.now,
    },
  };
  return [...removed, applied];
}

export function evolveRecovery(state: ProfileState, event: ScaSecurityEventRecorded | ScaFactorResetApplied): ProfileState {
  if (event.type === 'ScaSecurityEventRecorded') {
    const { failedAttempts, lockedUntil, suspended, revokedSessionId } = event.data;
    return { ...state, session: revokedSessionId === null ? state.session : null, login: { failedAttempts, lockedUntil, suspended } };
  }
  const data = event.data;
  const totpReset = data.factor === 'TOTP';
  return {
    ...state,
    totp: totpReset ? null : state.totp,
    pendingTotp: totpReset ? null : state.pendingTotp,
    smsMobile: data.mobileVaultId === null ? state.smsMobile : { vaultId: data.mobileVaultId, last4: data.mobileLast4 ?? '' },
    session: null,
    loginChallenge: null,
    failedAttempts: 0,
    lockedUntil: null,
  };
}
