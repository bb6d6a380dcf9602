import { Inject, Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { logger } from '../../infra/logger';
import { SANDBOX_OTP_CODE } from '../crypto/otp-bundle';
import { vaultIds } from '../wallet-auth.constants';

/** Delivers an OTP by email or SMS. The code never goes to logs or events. */
export interface OtpDelivery {
  deliver(input: { channel: 'EMAIL' | 'SMS'; contact: string; code: string }): Promise<void>;
}

export const OTP_DELIVERY = Symbol('OTP_DELIVERY');

/**
 * No email or SMS provider is wired: this default records that a code would have been sent, not
 * the code. The sandbox never needs it (the code is always 000000).
 */
export class UnwiredOtpDelivery implements OtpDelivery {
  async deliver(input: { channel: 'EMAIL' | 'SMS'; contact: string }): Promise<void> {
    logger.warn('no OTP delivery provider is configured; the code was not sent', { channel: input.channel });
  }
}

/**
 * OTP codes per challenge: the fixed sandbox code (SPEC.md sandbox rule 6), or outside the
 * sandbox a random 6-digit code sealed in the KeyVault until the challenge expires.
 */
@Injectable()
export class OtpCodes {
  constructor(
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
    @Inject(OTP_DELIVERY) private readonly delivery: OtpDelivery,
  ) {}

  async issue(input: { challengeId: string; sandbox: boolean; channel: 'EMAIL' | 'SMS'; contact: string; expiresAt: Date }): Promise<void> {
    if (input.sandbox) return;
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.vault.seal(vaultIds.otpCode(input.challengeId), 'wallet-otp-code', Buffer.from(code, 'utf8'), input.expiresAt);
    await this.delivery.deliver({ channel: input.channel, contact: input.contact, code });
  }

  /** The code expected for a challenge, or null when it has expired. */
  async expected(challengeId: string, sandbox: boolean): Promise<string | null> {
    if (sandbox) return SANDBOX_OTP_CODE;
    const sealed = await this.vault.open(vaultIds.otpCode(challengeId));
    return sealed ? sealed.toString('utf8') : null;
  }

  async discard(challengeId: string): Promise<void> {
    await this.vault.destroy(vaultIds.otpCode(challengeId));
  }
}
