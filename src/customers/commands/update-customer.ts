import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { PersonalDataKeys } from '../../infra/crypto/personal-data';
import { streamNameFor } from '../../infra/ids';
import { deletedCustomerConflict } from '../customers.errors';
import { CustomerCommand } from '../domain/customer/customer.decider';
import { BusinessInfo, CustomerProfile, IndividualEdd } from '../domain/customer/customer.events';
import { TAX_IDENTIFIER_FIELD, currentPersonalDataKeyId } from '../domain/customer/personal-data-fields';
import { CustomerView, customerView } from '../queries/customer.view';
import { openCustomerView } from '../queries/personal-data-views';
import { CUSTOMER_STREAM } from '../streams';
import { ActiveCustomers } from './active-customers';
import { activeOrDeleted, assertOwned, assertSameDataKey, stampOwners } from './customer-guards';
import { CustomerKeyClaims, umaAddressKey } from './customer-key-claims';
import { CustomerSecrets } from './customer-secrets';

/**
 * PATCH input: absent fields stay; `businessInfo` and `edd` merge into the current ones;
 * `beneficialOwners` replaces the owners (each gets a new id); `umaAddress` moves the customer.
 */
export type CustomerPatch = Partial<Omit<CustomerProfile, 'businessInfo' | 'edd'>> & {
  businessInfo?: Partial<BusinessInfo>;
  edd?: IndividualEdd;
  umaAddress?: string;
};

/** `PATCH /customers/{id}`: answers the updated customer. */
export class UpdateCustomer extends Command<CustomerView> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly patch: CustomerPatch,
  ) {
    super();
  }
}

/**
 * A new UMA address is claimed before the change is appended and the old one released after
 * (a failed change releases the new claim); a crash in between leaves the old key held by a
 * customer who no longer uses it, which the claims treat as free.
 */
@CommandHandler(UpdateCustomer)
export class UpdateCustomerHandler implements ICommandHandler<UpdateCustomer, CustomerView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly customers: ActiveCustomers,
    private readonly claims: CustomerKeyClaims,
    private readonly secrets: CustomerSecrets,
    private readonly personalData: PersonalDataKeys,
  ) {}

  async execute({ platformId, customerId, patch }: UpdateCustomer): Promise<CustomerView> {
    const now = new Date().toISOString();
    const { businessInfo, edd, umaAddress, beneficialOwners, ...rest } = patch;
    const current = await this.customers.load(platformId, customerId, deletedCustomerConflict);
    const keyId = currentPersonalDataKeyId(current);
    const secrets = await this.secrets.sealProfile(keyId, customerId, {
      ...(rest.taxIdentifier !== undefined && !(await this.secrets.sameSecret(current.profile.taxIdentifier, rest.taxIdentifier, customerId, TAX_IDENTIFIER_FIELD))
        ? { taxIdentifier: rest.taxIdentifier }
        : {}),
      ...(beneficialOwners ? { beneficialOwners: stampOwners(beneficialOwners, now) } : {}),
    });
    delete rest.taxIdentifier;
    const movesUma = umaAddress !== undefined && umaAddressKey(umaAddress) !== umaAddressKey(current.umaAddress);
    if (movesUma) await this.claims.claim(umaAddressKey(umaAddress), 'UMA_ADDRESS_EXISTS', 'This UMA address is already in use', platformId, customerId, now);
    let result;
    try {
      result = await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
        assertOwned(state, platformId);
        if (state.status === 'deleted') throw deletedCustomerConflict();
        assertSameDataKey(state, keyId);
        const changes: Partial<CustomerProfile> = { ...rest, ...secrets };
        if (businessInfo && state.profile.businessInfo) changes.businessInfo = { ...state.profile.businessInfo, ...businessInfo };
        if (edd) changes.edd = { ...(state.profile.edd ?? {}), ...edd };
        return { type: 'UpdateCustomer', changes, ...(umaAddress !== undefined ? { umaAddress } : {}), now };
      });
    } catch (error) {
      if (movesUma) await this.claims.release(umaAddressKey(umaAddress), platformId, customerId, now);
      throw error;
    }
    if (movesUma) await this.claims.release(umaAddressKey(current.umaAddress), platformId, customerId, now);
    return openCustomerView(customerView(activeOrDeleted(result.state)), this.personalData);
  }
}
