import { ChallengeFactor, LoginFactor, PasskeyChallengeData, ScaFactor } from '../sca-factor';
import { SecurityEventType } from './profile.events';

/** A TOTP login proof as checked: a code (its time step; null for the sandbox code) or a recovery code's hash. */
export type TotpLoginProof = { kind: 'CODE'; timeStep: number | null } | { kind: 'RECOVERY_CODE'; recoveryCodeHash: string };

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
  | (Ref & { type: 'RecordProofSuccess'; challengeId: string; factor: ChallengeFactor; passkeyCounter: number | null; endUserIpAddress: string | null; now: string })
  | (Ref & { type: 'RecordSecurityEvent'; eventType: SecurityEventType; now: string })
  | (Ref & {
      type: 'ApplyFactorReset';
      resetId: string;
      factor: ScaFactor;
      /** For SMS_OTP: the new number, sealed in the KeyVault by the caller. */
      mobile: { vaultId: string; last4: string } | null;
      now: string;
    });
