import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { KEY_VAULT, KeyVault } from '../infra/crypto/key-vault';
import { DomainError, ValidationError } from '../infra/domain/domain-error';
import { newId } from '../infra/ids';
import { ActiveTotp, ProfileState, TotpLoginProof, assertNotLocked, hasLiveSession, pendingTotpFor, totpProofRefusal } from './domain/profile/profile.decider';
import { scaSessionRequired } from './domain/sca.errors';
import { ScaCustomers } from './sca-customers';
import { ScaProfiles } from './sca-profiles';
import { SANDBOX_SCA_CODE } from './sca-proofs';
import {
  RECOVERY_CODE_COUNT, TOTP_SECRET_BYTES, base32Decode, base32Encode, matchTotp, recoveryCodeFrom, recoveryCodeHash, totpSecretDigest, totpUri,
} from './totp';

/**
 * The issuer authenticator apps show for the account: the product's name (the reference's product
 * is called "Service" here, ../shared/reference/README.md).
 */
export const TOTP_ISSUER = 'Service';

/** `POST /sca/factors` with `{type: 'TOTP'}`: the contract's TotpEnrollmentStart. */
export interface TotpEnrollmentStart {
  type: 'TOTP';
  /** The shared secret as authenticator apps take it (base32, no padding); threaded back on confirm. */
  secret: string;
  /** The same secret, under the name manual entry screens use. */
  secretBase32Encoded: string;
  /** `otpauth://totp/<issuer>:<label>?secret=...&issuer=...`, the QR code's payload. */
  totpUri: string;
}

/** `POST /sca/factors/confirm` with `{type: 'TOTP'}`: the contract's TotpEnrollmentConfirmResponse. */
export interface TotpEnrollmentConfirmation {
  type: 'TOTP';
  /** Shown once: only their SHA-256 is kept. Each opens one SCA login in place of a TOTP code. */
  recoveryCodes: string[];
}

export type TotpLoginVerdict = { ok: true; totpProof: TotpLoginProof } | { ok: false; reason: string; field: string; message: string };

/** `sca-totp-secret:<enrollment id>`: where a confirmed TOTP secret is sealed. */
export function totpSecretVaultId(enrollmentId: string): string {
  return `sca-totp-secret:${enrollmentId}`;
}

/**
 * The TOTP factor (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of drift either way).
 * Starting an enrollment keeps only the secret's SHA-256 (the client holds the secret until it
 * confirms); the confirmation, whose secret must be that one, seals the secret in the KeyVault for
 * later logins and answers the recovery codes once. A second enrollment is allowed: its
 * confirmation replaces the secret and the recovery codes. In sandbox mode `123456` is also
 * accepted wherever a TOTP code is (as the contract says), and is not recorded as a used step.
 */
@Injectable()
export class ScaTotp {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Enrolling changes how the customer authenticates: it needs a live SCA session, as a passkey's does. */
  async startEnrollment(platformId: string, customerId: string, nickname: string | null): Promise<TotpEnrollmentStart> {
    const customer = await this.customers.require(platformId, customerId);
    const now = new Date();
    const profile = await this.profiles.load(customerId);
    if (!hasLiveSession(profile, now.toISOString())) throw scaSessionRequired();
    assertNotLocked(profile, now.toISOString());
    const secret = randomBytes(TOTP_SECRET_BYTES);
    await this.profiles.handle(customerId, {
      type: 'StartTotpEnrollment',
      platformId,
      customerId,
      enrollmentId: newId('ScaFactor', now.getTime()),
      secretSha256: totpSecretDigest(secret),
      nickname,
      expiresAt: new Date(now.getTime() + this.config.sca.challengeTtlMs).toISOString(),
      now: now.toISOString(),
    });
    const secretBase32 = base32Encode(secret);
    const label = customer.email ?? customer.platformCustomerId;
    return { type: 'TOTP', secret: secretBase32, secretBase32Encoded: secretBase32, totpUri: totpUri({ issuer: TOTP_ISSUER, label, secretBase32 }) };
  }

  /**
   * The secret names the pending enrollment (400 on `secret` otherwise); a wrong first code is 400
   * on `code` and is not counted towards the lock (whoever holds the secret can make codes).
   */
  async confirmEnrollment(platformId: string, input: { customerId: string; secret: string; code: string }): Promise<TotpEnrollmentConfirmation> {
    const { customerId } = input;
    await this.customers.require(platformId, customerId);
    const secret = base32Decode(input.secret);
    if (!secret || secret.length === 0) {
      throw new ValidationError([{ field: 'secret', constraint: {}, message: 'secret must be the base32 secret POST /sca/factors answered' }]);
    }
    const now = new Date();
    const secretSha256 = totpSecretDigest(secret);
    const profile = await this.profiles.load(customerId);
    const pending = pendingTotpFor(profile, secretSha256, now.toISOString());
    const timeStep = matchTotp(secret, input.code, now.getTime());
    if (timeStep === null && !this.isSandboxCode(input.code)) {
      throw new DomainError('INVALID_INPUT', 'The code is not valid for this TOTP secret', {
        errors: [{ field: 'code', constraint: {}, message: 'The code is not valid for this TOTP secret' }],
        reason: 'WRONG_CODE',
      });
    }
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, () => recoveryCodeFrom(randomBytes(8)));
    // Sealed before the event names it, so an enrolled factor always has its secret.
    await this.vault.seal(totpSecretVaultId(pending.enrollmentId), 'sca-totp-secret', secret);
    await this.profiles.handle(customerId, {
      type: 'ConfirmTotpEnrollment',
      platformId,
      customerId,
      secretSha256,
      timeStep,
      recoveryCodeHashes: recoveryCodes.map((code) => recoveryCodeHash(code)!),
      now: now.toISOString(),
    });
    if (profile.totp && profile.totp.enrollmentId !== pending.enrollmentId) await this.vault.destroy(totpSecretVaultId(profile.totp.enrollmentId));
    return { type: 'TOTP', recoveryCodes };
  }

  /**
   * A TOTP login proof: a code of the enrolled secret (this step or one either side, after the last
   * step used), the sandbox code in sandbox mode, or an unused recovery code. Wrong ones are
   * refused with the reason the lock records (`WRONG_CODE`, `CODE_ALREADY_USED`).
   */
  async verifyLogin(profile: ProfileState, code: string, now: Date): Promise<TotpLoginVerdict> {
    const totp = profile.totp;
    if (!totp) return refused('WRONG_CODE', 'The customer has no enrolled TOTP factor');
    const proof = await this.proofOf(totp, code, now);
    if (!proof) return refused('WRONG_CODE', 'The code is not valid for this challenge');
    const refusal = totpProofRefusal(totp, proof);
    if (refusal === 'CODE_ALREADY_USED') return refused(refusal, 'The code was already used; wait for the next one');
    if (refusal) return refused(refusal, 'The code is not valid for this challenge');
    return { ok: true, totpProof: proof };
  }

  private async proofOf(totp: ActiveTotp, code: string, now: Date): Promise<TotpLoginProof | null> {
    const hash = recoveryCodeHash(code);
    if (hash !== null) return { kind: 'RECOVERY_CODE', recoveryCodeHash: hash };
    const secret = await this.vault.open(totpSecretVaultId(totp.enrollmentId));
    if (!secret) throw new DomainError('INTERNAL_ERROR', 'The TOTP secret of the enrolled factor is missing');
    const timeStep = matchTotp(secret, code, now.getTime());
    if (timeStep !== null) return { kind: 'CODE', timeStep };
    return this.isSandboxCode(code) ? { kind: 'CODE', timeStep: null } : null;
  }

  private isSandboxCode(code: string): boolean {
    return this.config.mode === 'sandbox' && code === SANDBOX_SCA_CODE;
  }
}

function refused(reason: string, message: string): TotpLoginVerdict {
  return { ok: false, reason, field: 'code', message };
}
