import { Decider } from '../../../infra/domain/decider';
import { DomainError } from '../../../infra/domain/domain-error';
import { challengeAlreadyAuthorized, challengeExpired, resendNotAvailable, resendTooSoon } from '../sca.errors';
import { ChallengeFactor, PasskeyChallengeData, ScaPurpose } from '../sca-factor';
import { SCA_NOT_COMPLETED, ScaSequenceEvent, ScaSubject, SequenceStep } from './sequence.events';

/**
 * The challenge engine: the challenges one operation needs, satisfied in order.
 *
 *   OPEN (challenge n live) --proof--> OPEN (challenge n+1, new id) ... --last proof--> COMPLETED
 *   OPEN --expiresAt passes (task, or a late call)--> FAILED (SCA_NOT_COMPLETED)
 *
 * Proofs are checked by the caller (code, WebAuthn) before `AuthorizeChallenge`; the append at
 * the revision read makes each challenge accepted once, so of concurrent correct proofs exactly
 * one completes the step and the others are refused. Wrong proofs are counted on the customer's
 * profile, not here.
 */
export interface CurrentChallenge {
  challengeId: string;
  step: number;
  purpose: ScaPurpose | null;
  factor: ChallengeFactor;
  expiresAt: string;
  issuedAt: string;
  passkey: PasskeyChallengeData | null;
  resendCount: number;
  lastSentAt: string;
}

export interface ExistingSequence {
  status: 'OPEN' | 'COMPLETED' | 'FAILED';
  sequenceId: string;
  platformId: string;
  customerId: string;
  subject: ScaSubject;
  factor: ChallengeFactor;
  availableFactors: ChallengeFactor[];
  steps: SequenceStep[];
  /** The live challenge (OPEN), or the last one issued. */
  current: CurrentChallenge;
  satisfiedChallengeIds: string[];
  failureReason: string | null;
}

export type SequenceState = { status: 'none' } | ExistingSequence;

/** The first challenge and everything a sequence needs, decided before anything is recorded. */
export interface SequencePlan {
  sequenceId: string;
  platformId: string;
  customerId: string;
  subject: ScaSubject;
  factor: ChallengeFactor;
  availableFactors: ChallengeFactor[];
  steps: SequenceStep[];
  firstChallenge: IssuedChallenge;
}

export interface IssuedChallenge {
  challengeId: string;
  /** When it was decided; `expiresAt` is this plus the challenge lifetime. */
  issuedAt: string;
  expiresAt: string;
  passkey: PasskeyChallengeData | null;
}

export interface ResendPolicy {
  resendIntervalMs: number;
  maxResends: number;
}

export type SequenceCommand =
  | { type: 'OpenSequence'; plan: SequencePlan; now: string }
  | { type: 'AuthorizeChallenge'; challengeId: string; endUserIpAddress: string | null; next: IssuedChallenge | null; now: string }
  | { type: 'ResendCode'; policy: ResendPolicy; now: string }
  | { type: 'ExpireChallenge'; challengeId: string; now: string };

export function sequenceNotFound(): DomainError {
  return new DomainError('REFERENCE_NOT_FOUND', 'SCA challenge not found');
}

export function isChallengeExpired(challenge: CurrentChallenge, now: string): boolean {
  return Date.parse(now) >= Date.parse(challenge.expiresAt);
}

/** Whether authorizing the live challenge would complete the sequence (no step after it). */
export function isLastStep(state: ExistingSequence): boolean {
  return state.current.step + 1 >= state.steps.length;
}

function ref(state: ExistingSequence) {
  return { sequenceId: state.sequenceId, platformId: state.platformId, customerId: state.customerId, subject: state.subject };
}

function expire(state: ExistingSequence, now: string): ScaSequenceEvent[] {
  return [
    { type: 'ScaChallengeExpired', data: { ...ref(state), challengeId: state.current.challengeId, step: state.current.step, expiredAt: now } },
    { type: 'ScaSequenceFailed', data: { ...ref(state), reason: SCA_NOT_COMPLETED, failedAt: now } },
  ];
}

/** The refusal for a sequence that is no longer OPEN. */
export function closedSequenceError(state: ExistingSequence, challengeId: string): DomainError {
  if (state.status === 'COMPLETED') return challengeAlreadyAuthorized(challengeId);
  return challengeExpired(state.current.expiresAt);
}

export const sequenceDecider: Decider<SequenceCommand, SequenceState, ScaSequenceEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    if (command.type === 'OpenSequence') {
      if (state.status !== 'none') return [];
      const plan = command.plan;
      const planRef = { sequenceId: plan.sequenceId, platformId: plan.platformId, customerId: plan.customerId, subject: plan.subject };
      const first = plan.steps[0];
      if (!first) throw new DomainError('INTERNAL_ERROR', 'A challenge sequence needs at least one step');
      return [
        {
          type: 'ScaSequenceOpened',
          data: { ...planRef, factor: plan.factor, availableFactors: plan.availableFactors, steps: plan.steps, openedAt: command.now },
        },
        {
          type: 'ScaChallengeIssued',
          data: {
            ...planRef,
            challengeId: plan.firstChallenge.challengeId,
            step: 0,
            purpose: first.purpose,
            factor: plan.factor,
            availableFactors: plan.availableFactors,
            expiresAt: plan.firstChallenge.expiresAt,
            passkey: plan.firstChallenge.passkey,
            issuedAt: plan.firstChallenge.issuedAt,
          },
        },
      ];
    }
    if (state.status === 'none') throw sequenceNotFound();

    switch (command.type) {
      case 'AuthorizeChallenge': {
        if (state.current.challengeId !== command.challengeId) {
          if (state.satisfiedChallengeIds.includes(command.challengeId)) throw challengeAlreadyAuthorized(command.challengeId);
          throw sequenceNotFound();
        }
        if (state.status !== 'OPEN') throw closedSequenceError(state, command.challengeId);
        if (isChallengeExpired(state.current, command.now)) return expire(state, command.now);
        const satisfied: ScaSequenceEvent = {
          type: 'ScaChallengeSatisfied',
          data: {
            ...ref(state),
            challengeId: state.current.challengeId,
            step: state.current.step,
            factor: state.current.factor,
            endUserIpAddress: command.endUserIpAddress,
            satisfiedAt: command.now,
          },
        };
        if (isLastStep(state)) return [satisfied, { type: 'ScaSequenceCompleted', data: { ...ref(state), completedAt: command.now } }];
        if (!command.next) throw new DomainError('INTERNAL_ERROR', 'The next challenge of the sequence was not prepared');
        const step = state.current.step + 1;
        return [
          satisfied,
          {
            type: 'ScaChallengeIssued',
            data: {
              ...ref(state),
              challengeId: command.next.challengeId,
              step,
              purpose: state.steps[step].purpose,
              factor: state.factor,
              availableFactors: state.availableFactors,
              expiresAt: command.next.expiresAt,
              passkey: command.next.passkey,
              issuedAt: command.next.issuedAt,
            },
          },
        ];
      }

      case 'ResendCode': {
        if (state.status !== 'OPEN') throw closedSequenceError(state, state.current.challengeId);
        if (state.current.factor === 'PASSKEY') throw resendNotAvailable();
        if (isChallengeExpired(state.current, command.now)) return expire(state, command.now);
        const nowMs = Date.parse(command.now);
        if (state.current.resendCount >= command.policy.maxResends) {
          throw resendTooSoon(secondsUntil(Date.parse(state.current.expiresAt), nowMs), 'RESEND_LIMIT_REACHED');
        }
        const nextAllowedMs = Date.parse(state.current.lastSentAt) + command.policy.resendIntervalMs;
        if (nowMs < nextAllowedMs) throw resendTooSoon(secondsUntil(nextAllowedMs, nowMs), 'RESEND_TOO_SOON');
        return [
          {
            type: 'ScaChallengeResent',
            data: { ...ref(state), challengeId: state.current.challengeId, resendCount: state.current.resendCount + 1, resentAt: command.now },
          },
        ];
      }

      case 'ExpireChallenge':
        if (state.status !== 'OPEN' || state.current.challengeId !== command.challengeId) return [];
        return isChallengeExpired(state.current, command.now) ? expire(state, command.now) : [];
    }
  },

  evolve(state, event) {
    if (event.type === 'ScaSequenceOpened') {
      const data = event.data;
      return {
        status: 'OPEN',
        sequenceId: data.sequenceId,
        platformId: data.platformId,
        customerId: data.customerId,
        subject: data.subject,
        factor: data.factor,
        availableFactors: data.availableFactors,
        steps: data.steps,
        // Replaced at once by the first ScaChallengeIssued, recorded in the same append.
        current: { challengeId: '', step: -1, purpose: null, factor: data.factor, expiresAt: data.openedAt, issuedAt: data.openedAt, passkey: null, resendCount: 0, lastSentAt: data.openedAt },
        satisfiedChallengeIds: [],
        failureReason: null,
      };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'ScaChallengeIssued':
        return {
          ...state,
          status: 'OPEN',
          current: {
            challengeId: event.data.challengeId,
            step: event.data.step,
            purpose: event.data.purpose,
            factor: event.data.factor,
            expiresAt: event.data.expiresAt,
            issuedAt: event.data.issuedAt,
            passkey: event.data.passkey,
            resendCount: 0,
            lastSentAt: event.data.issuedAt,
          },
        };
      case 'ScaChallengeResent':
        return { ...state, current: { ...state.current, resendCount: event.data.resendCount, lastSentAt: event.data.resentAt } };
      case 'ScaChallengeSatisfied':
        return { ...state, satisfiedChallengeIds: [...state.satisfiedChallengeIds, event.data.challengeId] };
      case 'ScaChallengeExpired':
        return state;
      case 'ScaSequenceCompleted':
        return { ...state, status: 'COMPLETED' };
      case 'ScaSequenceFailed':
        return { ...state, status: 'FAILED', failureReason: event.data.reason };
    }
  },
};

function secondsUntil(targetMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((targetMs - nowMs) / 1000));
}
