import { Decider } from '../../../infra/domain/decider';
import { DomainError, ValidationError } from '../../../infra/domain/domain-error';
import {
  accountLocked,
  challengeExpired,
  factorNotEnrolled,
  noPendingChallenge,
  passkeyAlreadyEnrolled,
  scaFactorNotFound,
} from '../../sca.errors';
import { ChallengeFactor, PasskeyChallengeData } from '../sca-factor';
import { ScaProfileEvent } from './profile.events';

/**
 * A customer's SCA profile. One passkey at most (PENDING while its enrollment awaits the
 * attestation, then ACTIVE); one login challenge at a time, consumed by the session it opens; the
 * run of wrong proofs across every SCA ceremony, which locks SCA for `lockoutMs` once it reaches
 * `maxFailedAttempts`. A lock that has run out starts the count again from zero.
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

export interface LoginChallenge {
  challengeId: string;
  factor: ChallengeFactor;
  expiresAt: string;
  passkey: PasskeyChallengeData | null;
}

export interface ProfileState {
  status: 'none' | 'active';
  platformId: string | null;
  customerId: string | null;
  passkey: PendingPasskey | ActivePasskey | null;
  loginChallenge: LoginChallenge | null;
  session: { sessionId: string; factor: ChallengeFactor; startedAt: string; expiresAt: string } | null;
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
  | (Ref & { type: 'IssueLoginChallenge'; challengeId: string; factor: ChallengeFactor; expiresAt: string; passkey: PasskeyChallengeData | null; now: string })
  | (Ref & {
      type: 'CompleteLogin';
      challengeId: string;
      factor: ChallengeFactor;
      passkeyCounter: number | null;
      sessionId: string;
      sessionExpiresAt: string;
      endUserIpAddress: string | null;
      now: string;
    })
  | (Ref & {
      type: 'RecordProofFailure';
      challengeId: string;
      factor: ChallengeFactor;
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

/** Factors a challenge may be issued for: SMS_OTP always (no enrollment), PASSKEY once enrolled. */
export function availableFactors(state: ProfileState): ChallengeFactor[] {
  return activePasskey(state) ? ['SMS_OTP', 'PASSKEY'] : ['SMS_OTP'];
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

      case 'IssueLoginChallenge':
        assertNotLocked(state, command.now);
        if (command.factor === 'PASSKEY' && !activePasskey(state)) throw factorNotEnrolled('PASSKEY');
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

function factorMismatch(expected: ChallengeFactor): DomainError {
  return new ValidationError([{ field: 'factor', constraint: { enum: [expected] }, message: `The pending challenge was issued for ${expected}` }]);
}
