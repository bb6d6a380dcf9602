import { DomainError, ValidationError } from '../../../infra/domain/domain-error';
import { accountLocked } from '../sca.errors';
import { ChallengeFactor, LoginFactor, PasskeyChallengeData } from '../sca-factor';
import { TotpLoginProof } from './profile.commands';
import { LoginSecurity, isLoginLocked, loginLocked } from './login-security';

/**
 * A customer's SCA profile. One passkey at most (PENDING while its enrollment awaits the
 * attestation, then ACTIVE); one TOTP factor at most, and one TOTP enrollment pending at a time (a
 * new one replaces it; its confirmation replaces the active TOTP secret and recovery codes); one
 * login challenge at a time, consumed by the session it opens; the run of wrong proofs across
 * every SCA ceremony, which locks SCA for `lockoutMs` once it reaches `maxFailedAttempts`. A lock
 * that has run out starts the count again from zero.
 */
export interface PendingPasskey {
  status: 'PENDING';
  factorId: string;
  challengeId: string;
  registrationChallenge: string;
  rpId: string;
  allowedOrigins: string[];
  nickname: string | null;
  expiresAt: string;
  createdAt: string;
}

export interface ActivePasskey {
  status: 'ACTIVE';
  factorId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  rpId: string;
  allowedOrigins: string[];
  nickname: string | null;
  createdAt: string;
  enrolledAt: string;
}

/** A TOTP enrollment waiting for its first code; the secret itself is only with the client. */
export interface PendingTotp {
  enrollmentId: string;
  secretSha256: string;
  nickname: string | null;
  expiresAt: string;
  startedAt: string;
}

/** The enrolled TOTP factor; its secret is sealed in the KeyVault under its enrollment id. */
export interface ActiveTotp {
  enrollmentId: string;
  secretSha256: string;
  nickname: string | null;
  /** SHA-256 of each recovery code not used yet. */
  recoveryCodeHashes: string[];
  /** The last time step a code was accepted for; codes of it and earlier steps are spent. */
  lastTimeStep: number | null;
  enrolledAt: string;
}


export interface LoginChallenge {
  challengeId: string;
  factor: LoginFactor;
  expiresAt: string;
  passkey: PasskeyChallengeData | null;
}

export interface ProfileState {
  status: 'none' | 'active';
  platformId: string | null;
  customerId: string | null;
  passkey: PendingPasskey | ActivePasskey | null;
  totp: ActiveTotp | null;
  pendingTotp: PendingTotp | null;
  loginChallenge: LoginChallenge | null;
  session: { sessionId: string; factor: LoginFactor; startedAt: string; expiresAt: string } | null;
  failedAttempts: number;
  lockedUntil: string | null;
  /** The platform's failed logins (`POST /sca/record-event`); a login lock locks SCA too. */
  login: LoginSecurity;
  /** The SMS number a completed SMS_OTP reset enrolled (sealed; last digits shown). */
  smsMobile: { vaultId: string; last4: string } | null;
}

export function isLocked(state: ProfileState, now: string): boolean {
  return isProofLocked(state, now) || isLoginLocked(state.login, now);
}

function isProofLocked(state: ProfileState, now: string): boolean {
  return state.lockedUntil !== null && Date.parse(now) < Date.parse(state.lockedUntil);
}

/** The 423 ACCOUNT_LOCKED of the lock that runs (wrong SCA proofs, else the platform's failed logins), or null. */
export function lockRefusal(state: ProfileState, now: string): DomainError | null {
  if (isProofLocked(state, now)) return accountLocked(state.lockedUntil!, state.failedAttempts);
  return isLoginLocked(state.login, now) ? loginLocked(state.login) : null;
}

/** Throws 423 ACCOUNT_LOCKED while a lock runs. */
export function assertNotLocked(state: ProfileState, now: string): void {
  const refusal = lockRefusal(state, now);
  if (refusal) throw refusal;
}

export function hasLiveSession(state: ProfileState, now: string): boolean {
  return state.session !== null && Date.parse(now) < Date.parse(state.session.expiresAt);
}

export function activePasskey(state: ProfileState): ActivePasskey | null {
  return state.passkey?.status === 'ACTIVE' ? state.passkey : null;
}

/**
 * Factors a challenge may be issued for: SMS_OTP always (no enrollment), PASSKEY once enrolled.
 * TOTP opens logins only (no dynamic linking), so it is never among them.
 */
export function availableFactors(state: ProfileState): ChallengeFactor[] {
  return activePasskey(state) ? ['SMS_OTP', 'PASSKEY'] : ['SMS_OTP'];
}

/**
 * The pending TOTP enrollment a confirmation's secret names: 400 on `secret` when it names none
 * (no enrollment pending, or another secret), 409 when that enrollment was confirmed already or
 * has expired.
 */
export function pendingTotpFor(state: ProfileState, secretSha256: string, now: string): PendingTotp {
  const pending = state.pendingTotp;
  if (!pending || pending.secretSha256 !== secretSha256) {
    if (state.totp?.secretSha256 === secretSha256) {
      throw new DomainError('CONFLICT', 'The TOTP enrollment was already confirmed', { reason: 'FACTOR_ALREADY_CONFIRMED' });
    }
    throw new ValidationError([
      { field: 'secret', constraint: {}, message: 'secret is not the secret of the pending TOTP enrollment: start one with POST /sca/factors' },
    ]);
  }
  if (isPast(pending.expiresAt, now)) {
    throw new DomainError('CONFLICT', 'The TOTP enrollment expired; start a new one', { reason: 'ENROLLMENT_EXPIRED', expiresAt: pending.expiresAt });
  }
  return pending;
}

/**
 * Why a TOTP proof that matched cannot open a login, or null: a code of a time step already used
 * (RFC 6238 section 5.2, a code is accepted once), a recovery code not among the unused ones.
 */
export function totpProofRefusal(totp: ActiveTotp, proof: TotpLoginProof): 'CODE_ALREADY_USED' | 'WRONG_CODE' | null {
  if (proof.kind === 'RECOVERY_CODE') return totp.recoveryCodeHashes.includes(proof.recoveryCodeHash) ? null : 'WRONG_CODE';
  if (proof.timeStep !== null && totp.lastTimeStep !== null && proof.timeStep <= totp.lastTimeStep) return 'CODE_ALREADY_USED';
  return null;
}

export function isPast(instant: string, now: string): boolean {
  return Date.parse(now) >= Date.parse(instant);
}
