import { ScaFactor } from '../sca-factor';

/**
 * Events of one 2FA reset (stream `scaFactorReset-<uuid>`, the audit history of
 * `ScaFactorReset:<uuid>`): started by the platform, released by the waiting-period task, then
 * completed by the platform or expired by the window task. Times are ISO strings.
 */
type Ref = { resetId: string; platformId: string; customerId: string };

/**
 * A reset began. Completion is refused before `livenessAvailableAt` (the waiting period, which
 * stands in for the liveness review in the sandbox) and at or after `expiresAt`.
 */
export type ScaFactorResetStarted = {
  type: 'ScaFactorResetStarted';
  data: Ref & { factor: ScaFactor; livenessAvailableAt: string; expiresAt: string; startedAt: string };
};

/** The waiting period ran out (the scheduled task): the reset may be completed until `expiresAt`. */
export type ScaFactorResetLivenessPassed = {
  type: 'ScaFactorResetLivenessPassed';
  data: Ref & { passedAt: string };
};

/**
 * The platform completed the reset; the customer's profile changed in the same commit
 * (`ScaFactorResetApplied`). For SMS_OTP the new number is sealed in the KeyVault under
 * `mobileVaultId`; only its last digits are recorded.
 */
export type ScaFactorResetCompleted = {
  type: 'ScaFactorResetCompleted';
  data: Ref & { factor: ScaFactor; mobileVaultId: string | null; mobileLast4: string | null; completedAt: string };
};

/** The window closed before completion (the scheduled task): nothing changed on the profile. */
export type ScaFactorResetExpired = { type: 'ScaFactorResetExpired'; data: Ref & { expiredAt: string } };

export type ScaFactorResetEvent = ScaFactorResetStarted | ScaFactorResetLivenessPassed | ScaFactorResetCompleted | ScaFactorResetExpired;
