import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { generateRegistrationChallenge } from '../../infra/crypto/webauthn';
import { newId } from '../../infra/ids';
import { PlatformConfigQuery } from '../../platforms';
import { ChallengeFactor } from '../domain/sca-factor';
import { assertNotLocked, availableFactors, hasLiveSession } from '../domain/profile/profile.decider';
import { scaSessionRequired } from '../domain/sca.errors';
import { ScaFactorView, pendingFactorView } from '../queries/sca-factor.view';
import { ScaCustomers } from '../sca-customers';
import { ScaProfiles } from '../sca-profiles';

/**
 * `POST /sca/factors` answer: the contract's PasskeyEnrollmentStart (`type`, `options` for
 * navigator.credentials.create(), `allowedOrigins`, `relyingPartyId`) plus the pending factor and
 * the same ceremony as an ScaChallenge.
 */
export interface PasskeyEnrollment extends ScaFactorView {
  options: Record<string, unknown>;
  allowedOrigins: string[];
  relyingPartyId: string;
  scaChallenge: {
    id: string;
    expiresAt: string;
    factor: 'PASSKEY';
    availableFactors: ChallengeFactor[];
    passkeyAllowedOrigins: string[];
    /** PublicKeyCredentialCreationOptionsJSON for navigator.credentials.create(). */
    passkeyCreationOptions: Record<string, unknown>;
  };
}

/** `POST /sca/factors` with `{type: 'PASSKEY'}` (or no type). */
export class StartPasskeyEnrollment extends Command<PasskeyEnrollment> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly nickname: string | null,
  ) {
    super();
  }
}

/**
 * The relying party is the platform's (its `embeddedWalletConfig` rp id and allowed origins, as
 * they are when the enrollment starts); they are recorded with the passkey, so every later
 * ceremony of it checks those origins. Enrolling changes how the customer authenticates, so it
 * needs a live SCA session.
 */
@CommandHandler(StartPasskeyEnrollment)
export class StartPasskeyEnrollmentHandler implements ICommandHandler<StartPasskeyEnrollment, PasskeyEnrollment> {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    private readonly platforms: PlatformConfigQuery,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, customerId, nickname }: StartPasskeyEnrollment): Promise<PasskeyEnrollment> {
    const customer = await this.customers.require(platformId, customerId);
    const now = new Date();
    const profile = await this.profiles.load(customerId);
    if (!hasLiveSession(profile, now.toISOString())) throw scaSessionRequired();
    assertNotLocked(profile, now.toISOString());
    const platform = await this.platforms.get(platformId);
    const { rpId, allowedOrigins } = platform.embeddedWalletConfig;
    const factorId = newId('ScaFactor', now.getTime());
    const challengeId = newId('ScaChallenge', now.getTime());
    const registrationChallenge = generateRegistrationChallenge();
    const expiresAt = new Date(now.getTime() + this.config.sca.challengeTtlMs).toISOString();
    const state = await this.profiles.handle(customerId, {
      type: 'StartPasskeyEnrollment',
      platformId,
      customerId,
      factorId,
      challengeId,
      registrationChallenge,
      rpId,
      allowedOrigins,
      nickname,
      expiresAt,
      now: now.toISOString(),
    });
    const userName = customer.email ?? customer.platformCustomerId;
    const displayName = customer.customerType === 'INDIVIDUAL' ? customer.fullName ?? userName : customer.businessInfo.legalName ?? userName;
    const creationOptions = {
      rp: { id: rpId, name: platform.name },
      user: { id: Buffer.from(customerId, 'utf8').toString('base64url'), name: userName, displayName },
      challenge: registrationChallenge,
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      timeout: this.config.sca.challengeTtlMs,
      attestation: 'none',
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      excludeCredentials: [],
    };
    return {
      ...pendingFactorView({ factorId, customerId, nickname, startedAt: now.toISOString() }),
      options: creationOptions,
      allowedOrigins,
      relyingPartyId: rpId,
      scaChallenge: {
        id: challengeId,
        expiresAt,
        factor: 'PASSKEY',
        availableFactors: availableFactors(state),
        passkeyAllowedOrigins: allowedOrigins,
        passkeyCreationOptions: creationOptions,
      },
    };
  }
}
