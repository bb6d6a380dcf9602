import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decodeClientData, verifyPasskeyRegistration } from '../../infra/crypto/webauthn';
import { DomainError } from '../../infra/domain/domain-error';
import { scaFactorNotFound } from '../domain/sca.errors';
import { EnrolledFactor, ScaFactorView, activeFactorView, enrolledPasskey } from '../queries/sca-factor.view';
import { ScaFactorsQuery } from '../queries/sca-factors.query';
import { ScaCustomers } from '../sca-customers';
import { ScaProfiles } from '../sca-profiles';

/** `POST /sca/factors/confirm` answer: the now ACTIVE factor plus the contract's PasskeyConfirmResult `factor`. */
export interface ConfirmedFactor extends ScaFactorView {
  factor: EnrolledFactor;
}

export interface PasskeyConfirmation {
  /** Null: the customer's pending enrollment (a customer has at most one). */
  factorId: string | null;
  /** Null only with `factorId` (earlier clients name the enrollment by it alone). */
  customerId: string | null;
  attestation: unknown;
  origin: string;
}

/** `POST /sca/factors/confirm` with `{type: 'PASSKEY'}` (or no type). */
export class ConfirmPasskeyEnrollment extends Command<ConfirmedFactor> {
  constructor(
    readonly platformId: string,
    readonly input: PasskeyConfirmation,
  ) {
    super();
  }
}

/**
 * The enrollment is named by `factorId`, or (as the contract threads it) by the customer. The
 * attestation is checked against the challenge, rp id and origins recorded when it started.
 */
@CommandHandler(ConfirmPasskeyEnrollment)
export class ConfirmPasskeyEnrollmentHandler implements ICommandHandler<ConfirmPasskeyEnrollment, ConfirmedFactor> {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    private readonly query: ScaFactorsQuery,
  ) {}

  async execute({ platformId, input }: ConfirmPasskeyEnrollment): Promise<ConfirmedFactor> {
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
}

function attestationRejected(field: string, reason: string, message: string): DomainError {
  return new DomainError('INVALID_INPUT', `The passkey attestation was not accepted: ${message}`, {
    errors: [{ field, constraint: {}, message }],
    reason,
  });
}
