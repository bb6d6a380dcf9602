import { DomainError } from '../../../infra/domain/domain-error';

/**
 * The customer's login-security state as the platform reports it (`POST /sca/record-event`):
 * cumulative failed logins, cleared only by a password reset, with an escalating lock.
 */

/** Failed logins at which the lock escalates (the reference): 5 -> 15 min ... 8 -> 24 h, 9 and more: suspended. */
export const LOGIN_LOCK_MS_BY_FAILURES: Record<number, number> = {
  5: 15 * 60 * 1000,
  6: 30 * 60 * 1000,
  7: 60 * 60 * 1000,
  8: 24 * 60 * 60 * 1000,
};
export const LOGIN_SUSPENSION_FAILURES = 9;

export interface LoginSecurity {
  failedAttempts: number;
  lockedUntil: string | null;
  suspended: boolean;
}

/** True while the platform's failed logins lock the customer (a suspension has no end). */
export function isLoginLocked(security: LoginSecurity, now: string): boolean {
  return security.suspended || (security.lockedUntil !== null && Date.parse(now) < Date.parse(security.lockedUntil));
}

export function loginLocked(security: LoginSecurity): DomainError {
  return new DomainError('ACCOUNT_LOCKED', "The customer's login is locked after too many failed login attempts", {
    suspended: security.suspended,
    lockedUntil: security.suspended ? null : security.lockedUntil,
    failedAttempts: security.failedAttempts,
  });
}
