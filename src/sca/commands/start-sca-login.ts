import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { boundChallengeHex } from '../../infra/crypto/webauthn';
import { newId } from '../../infra/ids';
import { ChallengeFactor, PasskeyChallengeData, ScaFactor } from '../domain/sca-factor';
import { activePasskey, assertNotLocked, availableFactors } from '../domain/profile/profile.decider';
import { factorNotEnrolled } from '../domain/sca.errors';
import { ScaChallengeView, scaChallengeView } from '../queries/sca-challenge.view';
import { ScaCustomers } from '../sca-customers';
import { ScaProfiles } from '../sca-profiles';
import { ScaProofs } from '../sca-proofs';

/**
 * `POST /sca/login/start`: the contract's ScaLoginStart (`factor`, `challengeId`, `expiresAt`,
 * and for PASSKEY `passkeyOptions`, `allowedOrigins`, `relyingPartyId`), plus the challenge as
 * our ScaChallenge (`scaChallenge`) and the customer, which earlier clients read. A TOTP login
 * issues nothing to show: the factor and the customer only.
 */
export type LoginStart = ChallengeLoginStart | TotpLoginStart;

export interface TotpLoginStart {
  factor: 'TOTP';
  customerId: string;
}

export interface ChallengeLoginStart {
  factor: ChallengeFactor;
  challengeId: string;
  expiresAt: string;
  passkeyOptions?: ScaChallengeView['passkeyAssertionOptions'];
  allowedOrigins?: string[];
  relyingPartyId?: string;
  customerId: string;
  scaChallenge: ScaChallengeView;
}

export class StartScaLogin extends Command<LoginStart> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly factor: ScaFactor,
  ) {
    super();
  }
}

/**
 * Issues a login challenge (DECISIONS.md section 3): an SMS code, a TOTP code read from the
 * customer's app, or a passkey assertion over a fresh bound challenge, with the origins allowed
 * at enrollment. A TOTP login's challenge is kept unseen for the same `challengeTtlMs`: it makes
 * the login single use and the factor checked, as for the others.
 */
@CommandHandler(StartScaLogin)
export class StartScaLoginHandler implements ICommandHandler<StartScaLogin, LoginStart> {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    private readonly proofs: ScaProofs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, customerId, factor }: StartScaLogin): Promise<LoginStart> {
    await this.customers.require(platformId, customerId);
    const now = new Date();
    const profile = await this.profiles.load(customerId);
    assertNotLocked(profile, now.toISOString());
    const passkey = activePasskey(profile);
    if (factor === 'PASSKEY' && !passkey) throw factorNotEnrolled('PASSKEY');
    if (factor === 'TOTP' && !profile.totp) throw factorNotEnrolled('TOTP');
    if (factor === 'SMS_OTP') this.proofs.assertCanSendCode();
    const challengeId = newId('ScaChallenge', now.getTime());
    const expiresAt = new Date(now.getTime() + this.config.sca.challengeTtlMs).toISOString();
    const passkeyData: PasskeyChallengeData | null =
      factor === 'PASSKEY'
        ? {
            challengeHex: boundChallengeHex({ challengeId, customerId, purpose: 'SCA_LOGIN' }),
            rpId: passkey!.rpId,
            credentialId: passkey!.credentialId,
            transports: passkey!.transports,
          }
        : null;
    await this.profiles.handle(customerId, {
      type: 'IssueLoginChallenge',
      platformId,
      customerId,
      challengeId,
      factor,
      expiresAt,
      passkey: passkeyData,
      now: now.toISOString(),
    });
    if (factor === 'TOTP') return { factor, customerId };
    const scaChallenge = scaChallengeView({
      challengeId,
      factor,
      availableFactors: availableFactors(profile),
      purpose: null,
      issuedAt: now.toISOString(),
      expiresAt,
      passkey: passkeyData,
      allowedOrigins: passkey?.allowedOrigins ?? null,
    });
    const started: ChallengeLoginStart = { factor, challengeId, expiresAt, customerId, scaChallenge };
    if (factor === 'PASSKEY') {
      started.passkeyOptions = scaChallenge.passkeyAssertionOptions;
      started.allowedOrigins = passkey!.allowedOrigins;
      started.relyingPartyId = passkey!.rpId;
    }
    return started;
  }
}
