import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { decodeClientData, generateRegistrationChallenge, verifyPasskeyRegistration } from '../infra/crypto/webauthn';
import { DomainError } from '../infra/domain/domain-error';
import { newId } from '../infra/ids';
import { PlatformConfigQuery } from '../platforms';
import { ChallengeFactor, LoginFactor } from './domain/sca-factor';
import { activePasskey, assertNotLocked, availableFactors, hasLiveSession } from './domain/profile/profile.decider';
import { ScaFactorView, activeFactorView, pendingFactorView } from './queries/sca-factor.view';
import { ScaFactorsQuery } from './queries/sca-factors.query';
import { scaFactorNotFound, scaSessionRequired } from './domain/sca.errors';
import { ScaCustomers } from './sca-customers';
import { ScaProfiles } from './sca-profiles';

/**
 * A factor as the contract's ScaFactorView lists it: SMS_OTP is implicit, TOTP has no
 * per-credential id, a passkey is named by its WebAuthn id.
 */
export interface EnrolledFactor {
  factor: LoginFactor;
  credentialId?: string;
  name?: string;
}

/** `POST /sca/factors/confirm` answer: the now ACTIVE factor plus the contract's PasskeyConfirmResult `factor`. */
export interface ConfirmedFactor extends ScaFactorView {
  factor: EnrolledFactor;
}

export interface ScaFactorList {
  /** The contract's list: SMS_OTP (always available), the confirmed TOTP factor and the confirmed passkey. */
  factors: EnrolledFactor[];
  /** Passkey factors with their enrollment state (pending ones too). */
  data: ScaFactorView[];
  /** The factors a challenge may be issued for (TOTP opens logins only, so it is never one). */
  availableFactors: ChallengeFactor[];
}

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

  async list(platformId: string, customerId: string): Promise<ScaFactorList> {
    await this.customers.require(platformId, customerId);
    const profile = await this.profiles.load(customerId);
    const factors: EnrolledFactor[] = [{ factor: 'SMS_OTP' }];
    if (profile.totp) factors.push(profile.totp.nickname === null ? { factor: 'TOTP' } : { factor: 'TOTP', name: profile.totp.nickname });
    const passkey = activePasskey(profile);
    if (passkey) factors.push(enrolledPasskey(passkey.credentialId, passkey.nickname));
    return { factors, data: await this.query.listForCustomer(platformId, customerId), availableFactors: availableFactors(profile) };
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

  /**
   * The enrollment is named by `factorId`, or (as the contract threads it) by the customer: a
   * customer has at most one passkey enrollment pending.
   */
  async confirmEnrollment(
    platformId: string,
    input: { factorId: string | null; customerId: string | null; attestation: unknown; origin: string },
  ): Promise<ConfirmedFactor> {
    const factorId = input.factorId ?? (await this.pendingFactorIdOf(platformId, input.customerId!));
    const factor = await this.query.findById(platformId, factorId);
    if (!factor || (input.customerId !== null && factor.customerId !== input.customerId)) throw scaFactorNotFound();
    await this.customers.require(platformId, factor.customerId);
    const now = new Date().toISOString();
    const profile = await this.profiles.load(factor.customerId);
    const pending = profile.passkey;
    if (!pending || pending.factorId !== factorId) throw scaFactorNotFound();
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
      factorId,
      credential: { credentialId: credential.credentialId, publicKey: credential.publicKey, counter: credential.counter, transports: credential.transports },
      now,
    });
    return {
      ...activeFactorView(factor, { credentialId: credential.credentialId, enrolledAt: now }),
      factor: enrolledPasskey(credential.credentialId, factor.nickname),
    };
  }

  private async pendingFactorIdOf(platformId: string, customerId: string): Promise<string> {
    await this.customers.require(platformId, customerId);
    const passkey = (await this.profiles.load(customerId)).passkey;
    if (!passkey) throw scaFactorNotFound();
    return passkey.factorId;
  }

  /**
   * `DELETE /sca/factors/{id}`: `id` is the factor's `ScaFactor:` id or, as the contract names it,
   * the passkey's WebAuthn credential id (then `customerId` says whose).
   */
  async remove(platformId: string, id: string, customerId: string | null): Promise<void> {
    let factorId = id;
    if (!id.startsWith('ScaFactor:')) {
      if (customerId === null) throw scaFactorNotFound();
      await this.customers.require(platformId, customerId);
      const passkey = activePasskey(await this.profiles.load(customerId));
      if (!passkey || passkey.credentialId !== id) throw scaFactorNotFound();
      factorId = passkey.factorId;
    }
    const factor = await this.query.findById(platformId, factorId);
    if (!factor || (customerId !== null && factor.customerId !== customerId)) throw scaFactorNotFound();
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
    errors: [{ field, constraint: {}, message }],
    reason,
  });
}

function enrolledPasskey(credentialId: string, nickname: string | null): EnrolledFactor {
  return nickname === null ? { factor: 'PASSKEY', credentialId } : { factor: 'PASSKEY', credentialId, name: nickname };
}
