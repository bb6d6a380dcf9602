import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { newId } from '../../infra/ids';
import { assertNotLocked, hasLiveSession } from '../domain/profile/profile.decider';
import { scaSessionRequired } from '../domain/sca.errors';
import { ScaCustomers } from '../sca-customers';
import { ScaProfiles } from '../sca-profiles';
import { TOTP_ISSUER } from '../sca-totp.service';
import { TOTP_SECRET_BYTES, base32Encode, totpSecretDigest, totpUri } from '../totp';

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

export class StartTotpEnrollment extends Command<TotpEnrollmentStart> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly nickname: string | null,
  ) {
    super();
  }
}

/**
 * Keeps only the secret's SHA-256 (the client holds the secret until it confirms). Enrolling
 * changes how the customer authenticates: it needs a live SCA session, as a passkey's does.
 */
@CommandHandler(StartTotpEnrollment)
export class StartTotpEnrollmentHandler implements ICommandHandler<StartTotpEnrollment, TotpEnrollmentStart> {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, customerId, nickname }: StartTotpEnrollment): Promise<TotpEnrollmentStart> {
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
}
