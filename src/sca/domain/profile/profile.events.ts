import { ChallengeFactor, LoginFactor, PasskeyChallengeData, ScaFactor } from '../sca-factor';

/**
 * Events of a customer's SCA profile (stream `scaProfile-<customer uuid>`): the enrolled passkey
 * and TOTP factor, login challenges and sessions, and the run of wrong proofs that locks SCA.
 * Nothing secret is recorded: passkey public keys, counters and challenges are public by nature,
 * SMS codes are never stored, a TOTP secret is sealed in the KeyVault (events keep its SHA-256)
 * and recovery codes are kept as SHA-256 hashes. Times are ISO strings.
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

/**
 * A TOTP enrollment began: the secret is sealed in the KeyVault under `sca-totp-secret:<enrollmentId>`
 * until `expiresAt`; the confirmation must thread back the secret whose SHA-256 this is.
 */
export type ScaTotpEnrollmentStarted = {
  type: 'ScaTotpEnrollmentStarted';
  data: Ref & { enrollmentId: string; secretSha256: string; nickname: string | null; expiresAt: string; startedAt: string };
};

/**
 * The first code was right: TOTP is the customer's factor from now on, with these recovery codes
 * (SHA-256 of each), replacing the TOTP enrollment `replacedEnrollmentId` and its codes if any.
 */
export type ScaTotpEnrolled = {
  type: 'ScaTotpEnrolled';
  data: Ref & {
    enrollmentId: string;
    recoveryCodeHashes: string[];
    /** The RFC 6238 time step of the confirming code (null for the sandbox code): no later login may reuse it. */
    timeStep: number | null;
    replacedEnrollmentId: string | null;
    enrolledAt: string;
  };
};

/** A TOTP code opened a login: codes of this time step and earlier are spent. */
export type ScaTotpCodeUsed = { type: 'ScaTotpCodeUsed'; data: Ref & { enrollmentId: string; timeStep: number; usedAt: string } };

/** A recovery code opened a login: it is spent. */
export type ScaTotpRecoveryCodeUsed = {
  type: 'ScaTotpRecoveryCodeUsed';
  data: Ref & { enrollmentId: string; recoveryCodeHash: string; remaining: number; usedAt: string };
};

export type ScaLoginChallengeIssued = {
  type: 'ScaLoginChallengeIssued';
  data: Ref & { challengeId: string; factor: LoginFactor; expiresAt: string; passkey: PasskeyChallengeData | null; issuedAt: string };
};

/** A login challenge was satisfied: the customer has an SCA session until `expiresAt`. */
export type ScaSessionStarted = {
  type: 'ScaSessionStarted';
  data: Ref & {
    sessionId: string;
    challengeId: string;
    factor: LoginFactor;
    /** The passkey's signature counter after this login (null for other factors). */
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
    factor: LoginFactor;
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

export const SECURITY_EVENT_TYPES = ['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT'] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

/**
 * The platform reported a login-security event (`POST /sca/record-event`): the customer's
 * failed-login count and lock after it; `revokedSessionId` is the SCA session it ended, if any.
 */
export type ScaSecurityEventRecorded = {
  type: 'ScaSecurityEventRecorded';
  data: Ref & {
    eventType: SecurityEventType;
    failedAttempts: number;
    lockedUntil: string | null;
    suspended: boolean;
    revokedSessionId: string | null;
    recordedAt: string;
  };
};

/**
 * A completed 2FA reset (`ScaFactorReset:<uuid>`, in the same commit as its
 * `ScaFactorResetCompleted`) changed the profile: the TOTP factor removed (a passkey is removed
 * by the `ScaPasskeyRemoved` before it), or the SMS number replaced (sealed in the KeyVault under
 * `mobileVaultId`); the SCA session and the run of wrong proofs ended.
 */
export type ScaFactorResetApplied = {
  type: 'ScaFactorResetApplied';
  data: Ref & {
    resetId: string;
    factor: ScaFactor;
    removedTotpEnrollmentId: string | null;
    mobileVaultId: string | null;
    mobileLast4: string | null;
    revokedSessionId: string | null;
    appliedAt: string;
  };
};

export type ScaProfileEvent =
  | ScaPasskeyEnrollmentStarted
  | ScaPasskeyEnrolled
  | ScaPasskeyRemoved
  | ScaTotpEnrollmentStarted
  | ScaTotpEnrolled
  | ScaTotpCodeUsed
  | ScaTotpRecoveryCodeUsed
  | ScaLoginChallengeIssued
  | ScaSessionStarted
  | ScaProofRejected
  | ScaProofAccepted
  | ScaSecurityEventRecorded
  | ScaFactorResetApplied;

export const SCA_PROFILE_EVENT_TYPES: ScaProfileEvent['type'][] = [
  'ScaPasskeyEnrollmentStarted',
  'ScaPasskeyEnrolled',
  'ScaPasskeyRemoved',
  'ScaTotpEnrollmentStarted',
  'ScaTotpEnrolled',
  'ScaTotpCodeUsed',
  'ScaTotpRecoveryCodeUsed',
  'ScaLoginChallengeIssued',
  'ScaSessionStarted',
  'ScaProofRejected',
  'ScaProofAccepted',
  'ScaSecurityEventRecorded',
  'ScaFactorResetApplied',
];
