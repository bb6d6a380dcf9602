import { DomainError, FieldError } from '../../infra/domain/domain-error';

/**
 * The SCA context's refusals (codes from the catalogue). Plain DomainErrors so that deciders can
 * throw them; the 429 is turned into an ApiError with `Retry-After` by the service.
 */

/** Every SCA endpoint answers this for customers outside SCA regions (DECISIONS.md section 3). */
export function scaNotRequired(): DomainError {
  return new DomainError('CONFLICT', 'Strong Customer Authentication does not apply to this customer', { reason: 'SCA_NOT_REQUIRED' });
}

/** SPEC.md Authentication 7: distinct from 401, which means the platform credentials were rejected. */
export function scaSessionRequired(): DomainError {
  return new DomainError('SCA_SESSION_REQUIRED', 'The customer has no live SCA session: complete an SCA login (POST /sca/login/start, /sca/login/complete) first');
}

export function accountLocked(lockedUntil: string, failedAttempts: number): DomainError {
  return new DomainError('ACCOUNT_LOCKED', 'Strong Customer Authentication is locked for this customer after too many wrong proofs', {
    suspended: true,
    lockedUntil,
    failedAttempts,
  });
}

export function passkeyAlreadyEnrolled(): DomainError {
  return new DomainError('PASSKEY_ALREADY_ENROLLED', 'The customer already has a passkey; delete it before enrolling another');
}

export function factorNotEnrolled(factor: string): DomainError {
  return new DomainError('CONFLICT', `The customer has no enrolled ${factor} factor`, { reason: 'FACTOR_NOT_ENROLLED', factor });
}

export function scaFactorNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'SCA factor not found');
}

/**
 * The lock where the operation declares no 423 (`/sca/login/start`, `/sca/factors`): 409
 * CONFLICT, the customer's state forbids it for now, with the lock's details and its code as
 * `details.reason`. `/sca/login/complete` and `/quotes/{id}/authorize` keep the 423.
 */
export function lockedAsConflict(error: unknown): unknown {
  if (!(error instanceof DomainError) || error.code !== 'ACCOUNT_LOCKED') return error;
  return new DomainError('CONFLICT', error.message, { reason: 'ACCOUNT_LOCKED', ...error.details });
}

export function challengeExpired(expiresAt: string): DomainError {
  return new DomainError('CONFLICT', 'The SCA challenge expired and can no longer be authorized', { reason: 'SCA_CHALLENGE_EXPIRED', expiresAt });
}

export function noPendingChallenge(what: string): DomainError {
  return new DomainError('CONFLICT', `No ${what} is in progress; start one first`, { reason: 'NO_PENDING_CHALLENGE' });
}

/** A correct proof arrived for a challenge another request already satisfied (a code is accepted once). */
export function challengeAlreadyAuthorized(challengeId: string): DomainError {
  return new DomainError('CONFLICT', 'The SCA challenge was already authorized; its code is accepted once', {
    reason: 'SCA_CHALLENGE_ALREADY_AUTHORIZED',
    challengeId,
  });
}

/**
 * A wrong proof: 400 INVALID_INPUT naming the field, with the run of wrong proofs so far. `reason`
 * names the failed check (`WRONG_CODE`, or a WebAuthn check such as `ORIGIN_NOT_ALLOWED`).
 */
export function proofRejected(field: string, message: string, reason: string, failedAttempts: number, maxFailedAttempts: number): DomainError {
  const errors: FieldError[] = [{ field, constraint: {}, message }];
  return new DomainError('INVALID_INPUT', message, {
    errors,
    reason,
    failedAttempts,
    remainingAttempts: Math.max(0, maxFailedAttempts - failedAttempts),
  });
}

/** 429 before the caller may resend; `retryAfterSeconds` becomes the Retry-After header. */
export function resendTooSoon(retryAfterSeconds: number, reason: string): DomainError {
  return new DomainError('RATE_LIMITED', 'The SMS code was sent too recently or too often; retry later', { reason, retryAfterSeconds });
}

export function resendNotAvailable(): DomainError {
  return new DomainError('CONFLICT', 'Only SMS_OTP challenges can be resent; a PASSKEY challenge has no code to send', { reason: 'RESEND_NOT_AVAILABLE' });
}

/** A 2FA reset that is unknown, or another customer's or platform's. */
export function resetNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'SCA factor reset not found');
}
