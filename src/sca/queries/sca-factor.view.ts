import { LoginFactor } from '../domain/sca-factor';

/** An SCA factor as `GET /sca/factors` lists it (only passkeys are enrolled; SMS_OTP needs none). */
export interface ScaFactorView {
  id: string;
  customerId: string;
  type: 'PASSKEY';
  /** PENDING_CONFIRMATION until `POST /sca/factors/confirm` verifies the attestation. */
  status: 'PENDING_CONFIRMATION' | 'ACTIVE';
  nickname: string | null;
  /** base64url WebAuthn credential id, once confirmed. */
  credentialId: string | null;
  createdAt: string;
  updatedAt: string;
}

export function pendingFactorView(data: { factorId: string; customerId: string; nickname: string | null; startedAt: string }): ScaFactorView {
  return {
    id: data.factorId,
    customerId: data.customerId,
    type: 'PASSKEY',
    status: 'PENDING_CONFIRMATION',
    nickname: data.nickname,
    credentialId: null,
    createdAt: data.startedAt,
    updatedAt: data.startedAt,
  };
}

export function activeFactorView(pending: ScaFactorView, data: { credentialId: string; enrolledAt: string }): ScaFactorView {
  return { ...pending, status: 'ACTIVE', credentialId: data.credentialId, updatedAt: data.enrolledAt };
}

/**
 * A factor as the contract's ScaFactorView lists it: SMS_OTP is implicit, TOTP has no
 * per-credential id, a passkey is named by its WebAuthn id.
 */
export interface EnrolledFactor {
  factor: LoginFactor;
  credentialId?: string;
  name?: string;
}

export function enrolledPasskey(credentialId: string, nickname: string | null): EnrolledFactor {
  return nickname === null ? { factor: 'PASSKEY', credentialId } : { factor: 'PASSKEY', credentialId, name: nickname };
}
