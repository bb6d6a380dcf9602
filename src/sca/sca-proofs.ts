import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { DomainError, FieldError, ValidationError } from '../infra/domain/domain-error';
import { AssertionResult, verifyPasskeyAssertion } from '../infra/crypto/webauthn';
import { LoginFactor } from './domain/sca-factor';
import { ActivePasskey } from './domain/profile/profile.decider';

/** Sandbox SMS code of every SCA challenge (DECISIONS.md section 3), and a TOTP code the sandbox also accepts. */
export const SANDBOX_SCA_CODE = '123456';

/** A proof as the client sends it: a code (SMS or TOTP), or a WebAuthn assertion and the origin it ran against. */
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
 * production mode, so issuing an SMS challenge there answers 409 (see assertCanSendCode). Passkeys: real WebAuthn against
 * the enrolled credential, its rp id and the origins allowed at enrollment.
 */
@Injectable()
export class ScaProofs {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * Called before an SMS code would be sent. No operation that issues a code declares 501, and all
   * declare 409: like a factor not enrolled, SMS_OTP is a factor this customer cannot use here.
   */
  assertCanSendCode(): void {
    if (this.config.mode !== 'sandbox') {
      throw new DomainError('CONFLICT', 'SMS delivery of SCA codes is not configured in production mode; use PASSKEY', {
        reason: 'FACTOR_NOT_AVAILABLE',
        factor: 'SMS_OTP',
      });
    }
  }

  /** The proof the fields carry for a challenge issued for `factor`; 400 (not a wrong proof) when they do not fit it. */
  proofFor(factor: LoginFactor, fields: ProofFields): ScaProof {
    if (factor === 'SMS_OTP' || factor === 'TOTP') {
      const errors: FieldError[] = [];
      const article = factor === 'SMS_OTP' ? 'an' : 'a';
      if (fields.code === undefined) errors.push({ field: 'code', constraint: {}, message: `code is required for ${article} ${factor} challenge` });
      for (const name of ['passkeyAssertion', 'origin'] as const) {
        if (fields[name] !== undefined) errors.push({ field: name, constraint: {}, message: `${name} is only for PASSKEY challenges` });
      }
      if (errors.length > 0) throw new ValidationError(errors);
      return { kind: 'CODE', code: fields.code! };
    }
    const errors: FieldError[] = [];
    if (fields.passkeyAssertion === undefined) errors.push({ field: 'passkeyAssertion', constraint: {}, message: 'passkeyAssertion is required for a PASSKEY challenge' });
    if (fields.origin === undefined) errors.push({ field: 'origin', constraint: {}, message: 'origin is required for a PASSKEY challenge' });
    if (fields.code !== undefined) errors.push({ field: 'code', constraint: {}, message: 'code is only for SMS_OTP and TOTP challenges' });
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
