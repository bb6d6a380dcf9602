import { Decider } from '../../../infra/domain/decider';
import { DomainError, ValidationError } from '../../../infra/domain/domain-error';
import {
  accountLocked,
  challengeExpired,
  factorNotEnrolled,
  noPendingChallenge,
  passkeyAlreadyEnrolled,
  scaFactorNotFound,
  scaSessionRequired,
} from '../sca.errors';
import { ChallengeFactor, LoginFactor, PasskeyChallengeData } from '../sca-factor';
import { ScaProfileEvent } from './profile.events';

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

/** A TOTP login proof as checked: a code (its time step; null for the sandbox code) or a recovery code's hash. */
export type TotpLoginProof = { kind: 'CODE'; timeStep: number | null } | { kind: 'RECOVERY_CODE'; recoveryCodeHash: string };

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
}

export interface LockoutPolicy {
  maxFailedAttempts: number;
  lockoutMs: number;
}

type Ref = { platformId: string; customerId: string };

export type ProfileCommand =
  | (Ref & {
      type: 'StartPasskeyEnrollment';
      factorId: string;
      challengeId: string;
      registrationChallenge: string;
      rpId: string;
      allowedOrigins: string[];
      nickname: string | null;
      expiresAt: string;
      now: string;
    })
  | (Ref & {
      type: 'ConfirmPasskeyEnrollment';
      factorId: string;
      credential: { credentialId: string; publicKey: string; counter: number; transports: string[] };
      now: string;
    })
  | (Ref & { type: 'RemovePasskey'; factorId: string; now: string })
  | (Ref & { type: 'StartTotpEnrollment'; enrollmentId: string; secretSha256: string; nickname: string | null; expiresAt: string; now: string })
  | (Ref & {
      type: 'ConfirmTotpEnrollment';
      secretSha256: string;
      /** The time step of the confirming code, checked by the caller against the secret (null for the sandbox code). */
      timeStep: number | null;
      recoveryCodeHashes: string[];
      now: string;
    })
  | (Ref & { type: 'IssueLoginChallenge'; challengeId: string; factor: LoginFactor; expiresAt: string; passkey: PasskeyChallengeData | null; now: string })
  | (Ref & {
      type: 'CompleteLogin';
      challengeId: string;
      factor: LoginFactor;
      passkeyCounter: number | null;
      /** For a TOTP login: the proof the caller checked (a code against the secret, or a recovery code's hash). */
      totpProof: TotpLoginProof | null;
      sessionId: string;
      sessionExpiresAt: string;
      endUserIpAddress: string | null;
      now: string;
    })
  | (Ref & {
      type: 'RecordProofFailure';
      challengeId: string;
      factor: LoginFactor;
      reason: string;
      endUserIpAddress: string | null;
      policy: LockoutPolicy;
      now: string;
    })
  | (Ref & { type: 'RecordProofSuccess'; challengeId: string; factor: ChallengeFactor; passkeyCounter: number | null; endUserIpAddress: string | null; now: string });

export function isLocked(state: ProfileState, now: string): boolean {
  return state.lockedUntil !== null && Date.parse(now) < Date.parse(state.lockedUntil);
}

/** Throws 423 ACCOUNT_LOCKED while a lock runs. */
export function assertNotLocked(state: ProfileState, now: string): void {
  if (isLocked(state, now)) throw accountLocked(state.lockedUntil!, state.failedAttempts);
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

function isPast(instant: string, now: string): boolean {
  return Date.parse(now) >= Date.parse(instant);
}

export const profileDecider: Decider<ProfileCommand, ProfileState, ScaProfileEvent> = {
  initialState: () => ({
    status: 'none',
    platformId: null,
    customerId: null,
    passkey: null,
    totp: null,
    pendingTotp: null,
    loginChallenge: null,
    session: null,
    failedAttempts: 0,
    lockedUntil: null,
  }),

  decide(command, state) {
    const ref = { platformId: command.platformId, customerId: command.customerId };
    switch (command.type) {
      case 'StartPasskeyEnrollment':
        if (activePasskey(state)) throw passkeyAlreadyEnrolled();
        return [
          {
            type: 'ScaPasskeyEnrollmentStarted',
            data: {
              ...ref,
              factorId: command.factorId,
              challengeId: command.challengeId,
              registrationChallenge: command.registrationChallenge,
              rpId: command.rpId,
              allowedOrigins: command.allowedOrigins,
              nickname: command.nickname,
              expiresAt: command.expiresAt,
              startedAt: command.now,
            },
          },
        ];

      case 'ConfirmPasskeyEnrollment': {
        const passkey = state.passkey;
        if (!passkey || passkey.factorId !== command.factorId) throw scaFactorNotFound();
        if (passkey.status === 'ACTIVE') {
          throw new DomainError('CONFLICT', 'The passkey enrollment was already confirmed', { reason: 'FACTOR_ALREADY_CONFIRMED' });
        }
        if (isPast(passkey.expiresAt, command.now)) {
          throw new DomainError('CONFLICT', 'The passkey enrollment expired; start a new one', { reason: 'ENROLLMENT_EXPIRED', expiresAt: passkey.expiresAt });
        }
        return [{ type: 'ScaPasskeyEnrolled', data: { ...ref, factorId: command.factorId, ...command.credential, enrolledAt: command.now } }];
      }

      case 'RemovePasskey':
        if (!state.passkey || state.passkey.factorId !== command.factorId) throw scaFactorNotFound();
        return [{ type: 'ScaPasskeyRemoved', data: { ...ref, factorId: command.factorId, removedAt: command.now } }];

      case 'StartTotpEnrollment':
        if (!hasLiveSession(state, command.now)) throw scaSessionRequired();
        assertNotLocked(state, command.now);
        return [
          {
            type: 'ScaTotpEnrollmentStarted',
            data: {
              ...ref,
              enrollmentId: command.enrollmentId,
              secretSha256: command.secretSha256,
              nickname: command.nickname,
              expiresAt: command.expiresAt,
              startedAt: command.now,
            },
          },
        ];

      case 'ConfirmTotpEnrollment': {
        const pending = pendingTotpFor(state, command.secretSha256, command.now);
        return [
          {
            type: 'ScaTotpEnrolled',
            data: {
              ...ref,
              enrollmentId: pending.enrollmentId,
              recoveryCodeHashes: command.recoveryCodeHashes,
              timeStep: command.timeStep,
              replacedEnrollmentId: state.totp?.enrollmentId ?? null,
              enrolledAt: command.now,
            },
          },
        ];
      }

      case 'IssueLoginChallenge':
        assertNotLocked(state, command.now);
        if (command.factor === 'PASSKEY' && !activePasskey(state)) throw factorNotEnrolled('PASSKEY');
        if (command.factor === 'TOTP' && !state.totp) throw factorNotEnrolled('TOTP');
        return [
          {
            type: 'ScaLoginChallengeIssued',
            data: { ...ref, challengeId: command.challengeId, factor: command.factor, expiresAt: command.expiresAt, passkey: command.passkey, issuedAt: command.now },
          },
        ];

      case 'CompleteLogin': {
        assertNotLocked(state, command.now);
        const challenge = state.loginChallenge;
        if (!challenge || challenge.challengeId !== command.challengeId) throw noPendingChallenge('SCA login');
        if (isPast(challenge.expiresAt, command.now)) throw challengeExpired(challenge.expiresAt);
        if (challenge.factor !== command.factor) throw factorMismatch(challenge.factor);
        return [
          ...totpProofSpent(state, command),
          {
            type: 'ScaSessionStarted',
            data: {
              ...ref,
              sessionId: command.sessionId,
              challengeId: command.challengeId,
              factor: command.factor,
              passkeyCounter: command.passkeyCounter,
              endUserIpAddress: command.endUserIpAddress,
              startedAt: command.now,
              expiresAt: command.sessionExpiresAt,
            },
          },
        ];
      }

      case 'RecordProofFailure': {
        assertNotLocked(state, command.now);
        const lockRanOut = state.lockedUntil !== null && isPast(state.lockedUntil, command.now);
        const failedAttempts = (lockRanOut ? 0 : state.failedAttempts) + 1;
        const lockedUntil =
          failedAttempts >= command.policy.maxFailedAttempts ? new Date(Date.parse(command.now) + command.policy.lockoutMs).toISOString() : null;
        return [
          {
            type: 'ScaProofRejected',
            data: {
              ...ref,
              challengeId: command.challengeId,
              factor: command.factor,
              reason: command.reason,
              failedAttempts,
              lockedUntil,
              endUserIpAddress: command.endUserIpAddress,
              rejectedAt: command.now,
            },
          },
        ];
      }

      case 'RecordProofSuccess':
        assertNotLocked(state, command.now);
        return [
          {
            type: 'ScaProofAccepted',
            data: {
              ...ref,
              challengeId: command.challengeId,
              factor: command.factor,
              passkeyCounter: command.passkeyCounter,
              endUserIpAddress: command.endUserIpAddress,
              acceptedAt: command.now,
            },
          },
        ];
    }
  },

  evolve(state, event) {
    const base: ProfileState = { ...state, status: 'active', platformId: event.data.platformId, customerId: event.data.customerId };
    switch (event.type) {
      case 'ScaPasskeyEnrollmentStarted': {
        const data = event.data;
        return {
          ...base,
          passkey: {
            status: 'PENDING',
            factorId: data.factorId,
            challengeId: data.challengeId,
            registrationChallenge: data.registrationChallenge,
            rpId: data.rpId,
            allowedOrigins: data.allowedOrigins,
            nickname: data.nickname,
            expiresAt: data.expiresAt,
            createdAt: data.startedAt,
          },
        };
      }
      case 'ScaPasskeyEnrolled': {
        const pending = state.passkey;
        if (!pending || pending.status !== 'PENDING' || pending.factorId !== event.data.factorId) return base;
        return {
          ...base,
          passkey: {
            status: 'ACTIVE',
            factorId: pending.factorId,
            credentialId: event.data.credentialId,
            publicKey: event.data.publicKey,
            counter: event.data.counter,
            transports: event.data.transports,
            rpId: pending.rpId,
            allowedOrigins: pending.allowedOrigins,
            nickname: pending.nickname,
            createdAt: pending.createdAt,
            enrolledAt: event.data.enrolledAt,
          },
        };
      }
      case 'ScaPasskeyRemoved':
        return state.passkey?.factorId === event.data.factorId ? { ...base, passkey: null } : base;
      case 'ScaTotpEnrollmentStarted': {
        const { enrollmentId, secretSha256, nickname, expiresAt, startedAt } = event.data;
        return { ...base, pendingTotp: { enrollmentId, secretSha256, nickname, expiresAt, startedAt } };
      }
      case 'ScaTotpEnrolled': {
        const pending = state.pendingTotp;
        if (!pending || pending.enrollmentId !== event.data.enrollmentId) return base;
        return {
          ...base,
          pendingTotp: null,
          totp: {
            enrollmentId: pending.enrollmentId,
            secretSha256: pending.secretSha256,
            nickname: pending.nickname,
            recoveryCodeHashes: event.data.recoveryCodeHashes,
            lastTimeStep: event.data.timeStep,
            enrolledAt: event.data.enrolledAt,
          },
        };
      }
      case 'ScaTotpCodeUsed': {
        const totp = state.totp;
        if (!totp || totp.enrollmentId !== event.data.enrollmentId) return base;
        return { ...base, totp: { ...totp, lastTimeStep: Math.max(totp.lastTimeStep ?? event.data.timeStep, event.data.timeStep) } };
      }
      case 'ScaTotpRecoveryCodeUsed': {
        const totp = state.totp;
        if (!totp || totp.enrollmentId !== event.data.enrollmentId) return base;
        return { ...base, totp: { ...totp, recoveryCodeHashes: totp.recoveryCodeHashes.filter((hash) => hash !== event.data.recoveryCodeHash) } };
      }
      case 'ScaLoginChallengeIssued':
        return {
          ...base,
          loginChallenge: { challengeId: event.data.challengeId, factor: event.data.factor, expiresAt: event.data.expiresAt, passkey: event.data.passkey },
        };
      case 'ScaSessionStarted':
        return {
          ...withCounter(base, event.data.passkeyCounter),
          loginChallenge: null,
          session: { sessionId: event.data.sessionId, factor: event.data.factor, startedAt: event.data.startedAt, expiresAt: event.data.expiresAt },
          failedAttempts: 0,
          lockedUntil: null,
        };
      case 'ScaProofRejected':
        return { ...base, failedAttempts: event.data.failedAttempts, lockedUntil: event.data.lockedUntil };
      case 'ScaProofAccepted':
        return { ...withCounter(base, event.data.passkeyCounter), failedAttempts: 0, lockedUntil: null };
    }
  },
};

function withCounter(state: ProfileState, counter: number | null): ProfileState {
  if (counter === null || state.passkey?.status !== 'ACTIVE') return state;
  return { ...state, passkey: { ...state.passkey, counter: Math.max(state.passkey.counter, counter) } };
}

/** The events that spend a TOTP login's proof (none for SMS_OTP, PASSKEY or the sandbox code); refuses one already spent. */
function totpProofSpent(state: ProfileState, command: Extract<ProfileCommand, { type: 'CompleteLogin' }>): ScaProfileEvent[] {
  if (command.factor !== 'TOTP') return [];
  const totp = state.totp;
  if (!totp) throw factorNotEnrolled('TOTP');
  const proof = command.totpProof;
  if (!proof) throw new DomainError('INTERNAL_ERROR', 'A TOTP login needs its checked proof');
  if (totpProofRefusal(totp, proof) !== null) {
    throw new ValidationError([{ field: 'code', constraint: {}, message: 'The code was already used' }]);
  }
  const ref = { platformId: command.platformId, customerId: command.customerId };
  if (proof.kind === 'RECOVERY_CODE') {
    return [
      {
        type: 'ScaTotpRecoveryCodeUsed',
        data: {
          ...ref,
          enrollmentId: totp.enrollmentId,
          recoveryCodeHash: proof.recoveryCodeHash,
          remaining: totp.recoveryCodeHashes.length - 1,
          usedAt: command.now,
        },
      },
    ];
  }
  if (proof.timeStep === null) return [];
  return [{ type: 'ScaTotpCodeUsed', data: { ...ref, enrollmentId: totp.enrollmentId, timeStep: proof.timeStep, usedAt: command.now } }];
}

function factorMismatch(expected: LoginFactor): DomainError {
  return new ValidationError([{ field: 'factor', constraint: { enum: [expected] }, message: `The pending challenge was issued for ${expected}` }]);
}
