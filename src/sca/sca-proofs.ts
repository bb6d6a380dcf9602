import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { DomainError, ValidationError } from '../infra/domain/domain-error';
import { AssertionResult, verifyPasskeyAssertion } from '../infra/crypto/webauthn';
import { ChallengeFactor } from './domain/sca-factor';
import { ActivePasskey } from './domain/profile/profile.decider';

/** Sandbox SMS code of every SCA challenge (DECISIONS.md section 3). */
export const SANDBOX_SCA_CODE = '123456';

/** A proof as the client sends it: an SMS code, or a WebAuthn assertion and the origin it ran against. */
export type ScaProof = { kind: 'CODE'; code: string } | { kind: 'PASSKEY'; assertion: unknown; origin: string };

/** What the proof fields of a request body hold (the shape is validated by the DTO). */
export interface ProofFields {
  code?: string;
  passkeyAssertion?: Record<string, unknown>;
  origin?: string;
}

export type ProofVerdict = { ok: true; passkeyCounter: number | null } | { ok: false; reason: string; field: string; message: string };

/**
 * Checks SCA proofs. SMS codes: the sandbox accepts only `123456`; no SMS provider is wired for
 * production mode, so issuing an SMS challenge there answers 501. Passkeys: real WebAuthn against
 * the enrolled credential, its rp id and the origins allowed at enrollment.
 */
@Injectable()
export class ScaProofs {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Called before an SMS code would be sent. */
  assertCanSendCode(): void {
    if (this.config.mode !== 'sandbox') {
      throw new DomainError('NOT_IMPLEMENTED', 'SMS delivery of SCA codes is not configured in production mode; use PASSKEY');
    }
  }

  /** The proof the fields carry for a challenge issued for `factor`; 400 (not a wrong proof) when they do not fit it. */
  proofFor(factor: ChallengeFactor, fields: ProofFields): ScaProof {
    if (factor === 'SMS_OTP') {
      const errors = [];
      if (fields.code === undefined) errors.push({ field: 'code', constraint: 'REQUIRED' as const, message: 'code is required for an SMS_OTP challenge' });
      for (const name of ['passkeyAssertion', 'origin'] as const) {
        if (fields[name] !== undefined) errors.push({ field: name, constraint: 'FORMAT' as const, message: `${name} is only for PASSKEY challenges` });
      }
      if (errors.length > 0) throw new ValidationError(errors);
      return { kind: 'CODE', code: fields.code! };
    }
    const errors = [];
    if (fields.passkeyAssertion === undefined) errors.push({ field: 'passkeyAssertion', constraint: 'REQUIRED' as const, message: 'passkeyAssertion is required for a PASSKEY challenge' });
    if (fields.origin === undefined) errors.push({ field: 'origin', constraint: 'REQUIRED' as const, message: 'origin is required for a PASSKEY challenge' });
    if (fields.code !== undefined) errors.push({ field: 'code', constraint: 'FORMAT' as const, message: 'code is only for SMS_OTP challenges' });
    if (errors.length > 0) throw new ValidationError(errors);
    return { kind: 'PASSKEY', assertion: fields.passkeyAssertion, origin: fields.origin! };
  }

  async verify(proof: ScaProof, expected: { passkey: ActivePasskey | null; challengeHex: string | null }): Promise<ProofVerdict> {
    if (proof.kind === 'CODE') {
      // The fixed code is a sandbox value only; production has no code delivery (see assertCanSendCode).
      return this.config.mode === 'sandbox' && proof.code === SANDBOX_SCA_CODE
        ? { ok: true, passkeyCounter: null }
        : { ok: false, reason: 'WRONG_CODE', field: 'code', message: 'The code is not valid for this challenge' };
    }
    if (!expected.passkey || !expected.challengeHex) {
      return { ok: false, reason: 'CREDENTIAL_MISMATCH', field: 'passkeyAssertion', message: 'The customer has no enrolled passkey' };
    }
    const result: AssertionResult = await verifyPasskeyAssertion({
      assertion: proof.assertion,
      credential: { credentialId: expected.passkey.credentialId, publicKey: expected.passkey.publicKey, counter: expected.passkey.counter },
      expectedChallenge: { hex: expected.challengeHex },
      allowedOrigins: expected.passkey.allowedOrigins,
      declaredOrigin: proof.origin,
      rpId: expected.passkey.rpId,
      sandbox: this.config.mode === 'sandbox',
    });
    if (result.ok) return { ok: true, passkeyCounter: result.newCounter };
    const field = result.reason === 'ORIGIN_NOT_ALLOWED' && !expected.passkey.allowedOrigins.includes(proof.origin) ? 'origin' : 'passkeyAssertion';
    return { ok: false, reason: result.reason, field, message: result.message };
  }
}
