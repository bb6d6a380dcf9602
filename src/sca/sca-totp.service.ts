import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { KEY_VAULT, KeyVault } from '../infra/crypto/key-vault';
import { DomainError } from '../infra/domain/domain-error';
import { ActiveTotp, ProfileState, TotpLoginProof, totpProofRefusal } from './domain/profile/profile.decider';
import { SANDBOX_SCA_CODE } from './sca-proofs';
import { matchTotp, recoveryCodeHash } from './totp';

/**
 * The issuer authenticator apps show for the account: the product's name (the reference's product
 * is called "Service" here, ../shared/reference/README.md).
 */
export const TOTP_ISSUER = 'Service';

export type TotpLoginVerdict = { ok: true; totpProof: TotpLoginProof } | { ok: false; reason: string; field: string; message: string };

/** `sca-totp-secret:<enrollment id>`: where a confirmed TOTP secret is sealed. */
export function totpSecretVaultId(enrollmentId: string): string {
  return `sca-totp-secret:${enrollmentId}`;
}

/**
 * The TOTP factor's checks (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of drift either
 * way); enrolling is the StartTotpEnrollment and ConfirmTotpEnrollment commands. In sandbox mode
 * `123456` is also accepted wherever a TOTP code is, and is not recorded as a used step.
 */
@Injectable()
export class ScaTotp {
  constructor(
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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

  /** The sandbox accepts `123456` wherever a TOTP code is (as the contract says). */
  isSandboxCode(code: string): boolean {
    return this.config.mode === 'sandbox' && code === SANDBOX_SCA_CODE;
  }
}

function refused(reason: string, message: string): TotpLoginVerdict {
  return { ok: false, reason, field: 'code', message };
}
