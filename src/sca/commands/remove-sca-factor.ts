import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { activePasskey } from '../domain/profile/profile.decider';
import { scaFactorNotFound } from '../domain/sca.errors';
import { ScaFactorsQuery } from '../queries/sca-factors.query';
import { ScaCustomers } from '../sca-customers';
import { ScaProfiles } from '../sca-profiles';

/**
 * `DELETE /sca/factors/{id}`: `id` is the factor's `ScaFactor:` id or, as the contract names it,
 * the passkey's WebAuthn credential id (then `customerId` says whose).
 */
export class RemoveScaFactor extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly id: string,
    /** Null only with a `ScaFactor:` id. */
    readonly customerId: string | null,
  ) {
    super();
  }
}

/** Deleting a passkey changes how the customer authenticates: it needs a live SCA session. */
@CommandHandler(RemoveScaFactor)
export class RemoveScaFactorHandler implements ICommandHandler<RemoveScaFactor, void> {
  constructor(
    private readonly customers: ScaCustomers,
    private readonly profiles: ScaProfiles,
    private readonly query: ScaFactorsQuery,
  ) {}

  async execute({ platformId, id, customerId }: RemoveScaFactor): Promise<void> {
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
