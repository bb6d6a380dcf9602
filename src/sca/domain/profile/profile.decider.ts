import { Decider } from '../../../infra/domain/decider';
import { DomainError, ValidationError } from '../../../infra/domain/domain-error';
import { challengeExpired, factorNotEnrolled, noPendingChallenge, passkeyAlreadyEnrolled, scaFactorNotFound, scaSessionRequired } from '../sca.errors';
import { LoginFactor } from '../sca-factor';
import { ProfileCommand } from './profile.commands';
import { decideFactorReset, decideSecurityEvent, evolveRecovery } from './profile-recovery';
import { ScaProfileEvent } from './profile.events';
import { ProfileState, activePasskey, assertNotLocked, hasLiveSession, isPast, pendingTotpFor, totpProofRefusal } from './profile.state';

export type { LockoutPolicy, ProfileCommand, TotpLoginProof } from './profile.commands';
export type { ActivePasskey, ActiveTotp, LoginChallenge, PendingPasskey, PendingTotp, ProfileState } from './profile.state';
export { activePasskey, assertNotLocked, availableFactors, hasLiveSession, isLocked, lockRefusal, pendingTotpFor, totpProofRefusal } from './profile.state';

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
    login: { failedAttempts: 0, lockedUntil: null, suspended: false },
    smsMobile: null,
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

      case 'RecordSecurityEvent':
        return decideSecurityEvent(state, command);

      case 'ApplyFactorReset':
        return decideFactorReset(state, command);
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
      case 'ScaSecurityEventRecorded':
      case 'ScaFactorResetApplied':
        return evolveRecovery(base, event);
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
