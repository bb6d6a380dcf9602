import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { decodeClientData, generateRegistrationChallenge, verifyPasskeyRegistration } from '../infra/crypto/webauthn';
import { DomainError } from '../infra/domain/domain-error';
import { newId } from '../infra/ids';
import { PlatformConfigQuery } from '../platforms/queries/platform-config.query';
import { ChallengeFactor } from './domain/sca-factor';
import { assertNotLocked, availableFactors, hasLiveSession } from './domain/profile/profile.decider';
import { ScaFactorView, activeFactorView, pendingFactorView } from './queries/sca-factor.view';
import { ScaFactorsQuery } from './queries/sca-factors.query';
import { scaFactorNotFound, scaSessionRequired } from './sca.errors';
import { ScaCustomers } from './sca-customers';
import { ScaProfiles } from './sca-profiles';

/** `POST /sca/factors` answer: the pending factor and the registration ceremony to run. */
export interface PasskeyEnrollment extends ScaFactorView {
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

/**
 * Passkey enrollment for SCA. The relying party is the platform's (its `embeddedWalletConfig`
 * rp id and allowed origins, as they are when the enrollment starts); they are recorded with the
 * passkey, so every later ceremony of it checks those origins. Enrolling and deleting a passkey
 * changes how the customer authenticates, so both need a live SCA session.
 */
@Injectable()
export class ScaFactorsService {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    private readonly query: ScaFactorsQuery,
    private readonly platforms: PlatformConfigQuery,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(platformId: string, customerId: string): Promise<{ data: ScaFactorView[]; availableFactors: ChallengeFactor[] }> {
    await this.customers.require(platformId, customerId);
    const profile = await this.profiles.load(customerId);
    return { data: await this.query.listForCustomer(platformId, customerId), availableFactors: availableFactors(profile) };
  }

  async startEnrollment(platformId: string, customerId: string, nickname: string | null): Promise<PasskeyEnrollment> {
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
    return {
      ...pendingFactorView({ factorId, customerId, nickname, startedAt: now.toISOString() }),
      scaChallenge: {
        id: challengeId,
        expiresAt,
        factor: 'PASSKEY',
        availableFactors: availableFactors(state),
        passkeyAllowedOrigins: allowedOrigins,
        passkeyCreationOptions: {
          rp: { id: rpId, name: platform.name },
          user: { id: Buffer.from(customerId, 'utf8').toString('base64url'), name: userName, displayName },
          challenge: registrationChallenge,
          pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
          timeout: this.config.sca.challengeTtlMs,
          attestation: 'none',
          authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
          excludeCredentials: [],
        },
      },
    };
  }

  async confirmEnrollment(platformId: string, input: { factorId: string; attestation: unknown; origin: string }): Promise<ScaFactorView> {
    const factor = await this.query.findById(platformId, input.factorId);
    if (!factor) throw scaFactorNotFound();
    await this.customers.require(platformId, factor.customerId);
    const now = new Date().toISOString();
    const profile = await this.profiles.load(factor.customerId);
    const pending = profile.passkey;
    if (!pending || pending.factorId !== input.factorId) throw scaFactorNotFound();
    if (pending.status === 'ACTIVE') throw new DomainError('CONFLICT', 'The passkey enrollment was already confirmed', { reason: 'FACTOR_ALREADY_CONFIRMED' });
    if (Date.parse(now) >= Date.parse(pending.expiresAt)) {
      throw new DomainError('CONFLICT', 'The passkey enrollment expired; start a new one', { reason: 'ENROLLMENT_EXPIRED', expiresAt: pending.expiresAt });
    }
    if (!pending.allowedOrigins.includes(input.origin)) throw attestationRejected('origin', 'ORIGIN_NOT_ALLOWED', 'origin is not one of passkeyAllowedOrigins');
    const result = await verifyPasskeyRegistration({
      attestation: input.attestation,
      expectedChallenge: pending.registrationChallenge,
      allowedOrigins: pending.allowedOrigins,
      rpId: pending.rpId,
    });
    if (!result.ok) throw attestationRejected('passkeyAttestation', result.reason, result.message);
    const clientOrigin = decodeClientData((input.attestation as { clientDataJson: string }).clientDataJson)?.origin;
    if (clientOrigin !== input.origin) throw attestationRejected('origin', 'ORIGIN_NOT_ALLOWED', 'The attestation ran against another origin than the one sent with it');
    const credential = result.credential;
    await this.profiles.handle(factor.customerId, {
      type: 'ConfirmPasskeyEnrollment',
      platformId,
      customerId: factor.customerId,
      factorId: input.factorId,
      credential: { credentialId: credential.credentialId, publicKey: credential.publicKey, counter: credential.counter, transports: credential.transports },
      now,
    });
    return activeFactorView(factor, { credentialId: credential.credentialId, enrolledAt: now });
  }

  async remove(platformId: string, factorId: string): Promise<void> {
    const factor = await this.query.findById(platformId, factorId);
    if (!factor) throw scaFactorNotFound();
    await this.customers.require(platformId, factor.customerId);
    await this.profiles.requireLiveSession(factor.customerId);
    await this.profiles.handle(factor.customerId, {
      type: 'RemovePasskey',
      platformId,
      customerId: factor.customerId,
      factorId,
      now: new Date().toISOString(),
    });
  }
}

function attestationRejected(field: string, reason: string, message: string): DomainError {
  return new DomainError('INVALID_INPUT', `The passkey attestation was not accepted: ${message}`, {
    errors: [{ field, constraint: 'FORMAT', message }],
    reason,
  });
}
