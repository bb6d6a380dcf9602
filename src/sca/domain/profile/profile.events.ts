import { ChallengeFactor, PasskeyChallengeData } from '../sca-factor';

/**
 * Events of a customer's SCA profile (stream `scaProfile-<customer uuid>`): the enrolled passkey,
 * login challenges and sessions, and the run of wrong proofs that locks SCA. Nothing secret is
 * recorded: passkey public keys, counters and challenges are public by nature, and SMS codes are
 * never stored. Times are ISO strings.
 */
type Ref = { platformId: string; customerId: string };

/** A passkey enrollment began: the registration challenge and the relying party it runs against. */
export type ScaPasskeyEnrollmentStarted = {
  type: 'ScaPasskeyEnrollmentStarted';
  data: Ref & {
    factorId: string;
    challengeId: string;
    /** base64url of random bytes, as navigator.credentials.create() takes it. */
    registrationChallenge: string;
    rpId: string;
    /** Origins the enrollment, and every later ceremony of this passkey, may run against. */
    allowedOrigins: string[];
    nickname: string | null;
    expiresAt: string;
    startedAt: string;
  };
};

/** The attestation verified: the passkey is the customer's SCA passkey from now on. */
export type ScaPasskeyEnrolled = {
  type: 'ScaPasskeyEnrolled';
  data: Ref & { factorId: string; credentialId: string; publicKey: string; counter: number; transports: string[]; enrolledAt: string };
};

export type ScaPasskeyRemoved = { type: 'ScaPasskeyRemoved'; data: Ref & { factorId: string; removedAt: string } };

export type ScaLoginChallengeIssued = {
  type: 'ScaLoginChallengeIssued';
  data: Ref & { challengeId: string; factor: ChallengeFactor; expiresAt: string; passkey: PasskeyChallengeData | null; issuedAt: string };
};

/** A login challenge was satisfied: the customer has an SCA session until `expiresAt`. */
export type ScaSessionStarted = {
  type: 'ScaSessionStarted';
  data: Ref & {
    sessionId: string;
    challengeId: string;
    factor: ChallengeFactor;
    /** The passkey's signature counter after this login (null for SMS_OTP). */
    passkeyCounter: number | null;
    endUserIpAddress: string | null;
    startedAt: string;
    expiresAt: string;
  };
};

/** A wrong proof (any SCA ceremony of the customer); `lockedUntil` is set when it locked SCA. */
export type ScaProofRejected = {
  type: 'ScaProofRejected';
  data: Ref & {
    challengeId: string;
    factor: ChallengeFactor;
    /** Why the proof was refused (`WRONG_CODE` or the failed WebAuthn check). */
    reason: string;
    failedAttempts: number;
    lockedUntil: string | null;
    endUserIpAddress: string | null;
    rejectedAt: string;
  };
};

/** A correct per-transaction proof: the run of wrong proofs ends, the passkey counter moves on. */
export type ScaProofAccepted = {
  type: 'ScaProofAccepted';
  data: Ref & {
    challengeId: string;
    factor: ChallengeFactor;
    passkeyCounter: number | null;
    endUserIpAddress: string | null;
    acceptedAt: string;
  };
};

export type ScaProfileEvent =
  | ScaPasskeyEnrollmentStarted
  | ScaPasskeyEnrolled
  | ScaPasskeyRemoved
  | ScaLoginChallengeIssued
  | ScaSessionStarted
  | ScaProofRejected
  | ScaProofAccepted;

export const SCA_PROFILE_EVENT_TYPES: ScaProfileEvent['type'][] = [
  'ScaPasskeyEnrollmentStarted',
  'ScaPasskeyEnrolled',
  'ScaPasskeyRemoved',
  'ScaLoginChallengeIssued',
  'ScaSessionStarted',
  'ScaProofRejected',
  'ScaProofAccepted',
];
