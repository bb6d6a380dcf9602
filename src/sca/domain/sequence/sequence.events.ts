import { ChallengeFactor, PasskeyChallengeData, ScaLinking, ScaPurpose } from '../sca-factor';

/**
 * Events of a challenge sequence (stream `scaSequence-<uuid>`): the challenges one operation needs,
 * in order (a same-currency send one `TRANSFER`, a cross-currency send `CURRENCY_CONVERSION` then
 * `PAYOUT`). The sequence is named by its first challenge: its uuid is that challenge's uuid.
 * The subject is the operation waiting for it (`{type: 'Quote', id: 'Quote:...'}`).
 */
export interface ScaSubject {
  type: string;
  id: string;
}

export interface SequenceStep {
  purpose: ScaPurpose | null;
  /** What a PASSKEY challenge of this step binds (null: the step cannot use PASSKEY). */
  linking: ScaLinking | null;
}

type Ref = { sequenceId: string; platformId: string; customerId: string; subject: ScaSubject };

export type ScaSequenceOpened = {
  type: 'ScaSequenceOpened';
  data: Ref & { factor: ChallengeFactor; availableFactors: ChallengeFactor[]; steps: SequenceStep[]; openedAt: string };
};

/** A challenge of the sequence is live until `expiresAt` (its SMS code, if any, was sent). */
export type ScaChallengeIssued = {
  type: 'ScaChallengeIssued';
  data: Ref & {
    challengeId: string;
    step: number;
    purpose: ScaPurpose | null;
    factor: ChallengeFactor;
    availableFactors: ChallengeFactor[];
    expiresAt: string;
    passkey: PasskeyChallengeData | null;
    issuedAt: string;
  };
};

/** The SMS code was sent again; the challenge keeps its id and `expiresAt`. */
export type ScaChallengeResent = {
  type: 'ScaChallengeResent';
  data: Ref & { challengeId: string; resendCount: number; resentAt: string };
};

export type ScaChallengeSatisfied = {
  type: 'ScaChallengeSatisfied';
  data: Ref & { challengeId: string; step: number; factor: ChallengeFactor; endUserIpAddress: string | null; satisfiedAt: string };
};

export type ScaChallengeExpired = {
  type: 'ScaChallengeExpired';
  data: Ref & { challengeId: string; step: number; expiredAt: string };
};

/** Every challenge was satisfied: the subject may proceed. */
export type ScaSequenceCompleted = { type: 'ScaSequenceCompleted'; data: Ref & { completedAt: string } };

/** A challenge expired unsatisfied: the subject fails with `reason` (`SCA_NOT_COMPLETED`). */
export type ScaSequenceFailed = { type: 'ScaSequenceFailed'; data: Ref & { reason: string; failedAt: string } };

export type ScaSequenceEvent =
  | ScaSequenceOpened
  | ScaChallengeIssued
  | ScaChallengeResent
  | ScaChallengeSatisfied
  | ScaChallengeExpired
  | ScaSequenceCompleted
  | ScaSequenceFailed;

export const SCA_SEQUENCE_EVENT_TYPES: ScaSequenceEvent['type'][] = [
  'ScaSequenceOpened',
  'ScaChallengeIssued',
  'ScaChallengeResent',
  'ScaChallengeSatisfied',
  'ScaChallengeExpired',
  'ScaSequenceCompleted',
  'ScaSequenceFailed',
];

/** Why a subject fails when its challenge expired (DECISIONS.md section 3). */
export const SCA_NOT_COMPLETED = 'SCA_NOT_COMPLETED';
