import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { pendingTotpFor } from '../domain/profile/profile.decider';
import { ScaCustomers } from '../sca-customers';
import { ScaProfiles } from '../sca-profiles';
import { ScaTotp, totpSecretVaultId } from '../sca-totp.service';
import { RECOVERY_CODE_COUNT, base32Decode, matchTotp, recoveryCodeFrom, recoveryCodeHash, totpSecretDigest } from '../totp';

/** `POST /sca/factors/confirm` with `{type: 'TOTP'}`: the contract's TotpEnrollmentConfirmResponse. */
export interface TotpEnrollmentConfirmation {
  type: 'TOTP';
  /** Shown once: only their SHA-256 is kept. Each opens one SCA login in place of a TOTP code. */
  recoveryCodes: string[];
}

export class ConfirmTotpEnrollment extends Command<TotpEnrollmentConfirmation> {
  constructor(
    readonly platformId: string,
    readonly input: { customerId: string; secret: string; code: string },
  ) {
    super();
  }
}

/**
 * The secret names the pending enrollment (400 on `secret` otherwise); a wrong first code is 400
 * on `code` and is not counted towards the lock (whoever holds the secret can make codes). The
 * confirmation seals the secret in the KeyVault for later logins and answers the recovery codes
 * once; a second enrollment's confirmation replaces the secret and the recovery codes.
 */
@CommandHandler(ConfirmTotpEnrollment)
export class ConfirmTotpEnrollmentHandler implements ICommandHandler<ConfirmTotpEnrollment, TotpEnrollmentConfirmation> {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    private readonly totp: ScaTotp,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
  ) {}

  async execute({ platformId, input }: ConfirmTotpEnrollment): Promise<TotpEnrollmentConfirmation> {
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
    if (timeStep === null && !this.totp.isSandboxCode(input.code)) {
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
}
