import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { PersonalDataKeys, personalDataKeyId } from '../../infra/crypto/personal-data';
import { newId, streamNameFor } from '../../infra/ids';
import { initialIndividualKycStatus } from '../../sandbox';
import { requiredContactChannels } from '../contact-verification-providers';
import { CustomerLifecycleHooks } from '../customer-lifecycle-hooks';
import { CustomerProfile, CustomerType, KycStatus } from '../domain/customer/customer.events';
import { assertKnownTermsVersion } from '../domain/customer/end-user-terms';
import { CustomerView, customerView } from '../queries/customer.view';
import { openCustomerView } from '../queries/personal-data-views';
import { CUSTOMER_STREAM } from '../streams';
import { activeOrDeleted, stampOwners } from './customer-guards';
import { CustomerKeyClaims, platformCustomerIdKey, umaAddressKey } from './customer-key-claims';
import { CustomerSecrets } from './customer-secrets';

/** Generated UMA addresses live on this domain (platforms may bring their own address). */
export const SANDBOX_UMA_DOMAIN = 'uma.sandbox.payments.local';

export interface CreateCustomerInput {
  customerType: CustomerType;
  /** Optional in the reference: the customer id stands in when absent. */
  platformCustomerId: string | null;
  umaAddress: string | null;
  profile: CustomerProfile;
}

/** `POST /customers`: answers the new customer. */
export class CreateCustomer extends Command<CustomerView> {
  constructor(
    readonly platformId: string,
    readonly input: CreateCustomerInput,
  ) {
    super();
  }
}

/**
 * Creation claims the unique keys (platformCustomerId per platform, UMA address), appends the
 * customer, then runs the creation hooks (internal accounts) in the same request. A crash
 * part-way is safe: orphan claims are taken over, and a reactor re-runs the hooks for every
 * `CustomerCreated`.
 */
@CommandHandler(CreateCustomer)
export class CreateCustomerHandler implements ICommandHandler<CreateCustomer, CustomerView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly claims: CustomerKeyClaims,
    private readonly secrets: CustomerSecrets,
    private readonly hooks: CustomerLifecycleHooks,
    private readonly personalData: PersonalDataKeys,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, input }: CreateCustomer): Promise<CustomerView> {
    const customerId = newId('Customer');
    const now = new Date().toISOString();
    const platformCustomerId = input.platformCustomerId ?? customerId;
    const umaAddress = input.umaAddress ?? generatedUmaAddress(platformCustomerId, customerId);
    // The decider refuses it too; checked first so that a refusal claims no key and creates no data key.
    assertKnownTermsVersion(input.profile.endUserTermsConsent);
    await this.claimKeys(platformId, customerId, platformCustomerId, umaAddress, now);
    // A nameless individual has nothing the sandbox suffix rule could read: it starts UNVERIFIED.
    const initialKycStatus: KycStatus =
      input.customerType === 'INDIVIDUAL' && this.config.mode === 'sandbox' && input.profile.fullName
        ? initialIndividualKycStatus(input.profile.fullName)
        : 'UNVERIFIED';
    // The customer's data key is created with it; secret fields are sealed before they enter an event.
    const keyId = personalDataKeyId(customerId, 0);
    await this.personalData.create(keyId);
    const profile = await this.secrets.sealProfile(keyId, customerId, { ...input.profile, beneficialOwners: stampOwners(input.profile.beneficialOwners, now) });
    const result = await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), {
      type: 'CreateCustomer',
      customerId,
      platformId,
      customerType: input.customerType,
      platformCustomerId,
      umaAddress,
      profile: { ...input.profile, ...profile },
      initialKycStatus,
      contactChannels: requiredContactChannels(this.config, input.profile.email),
      now,
    });
    await this.hooks.runCustomerCreated({ platformId, customerId, customerType: input.customerType, createdAt: now });
    return openCustomerView(customerView(activeOrDeleted(result.state)), this.personalData);
  }

  /** Both keys or neither: a refused second claim releases the first. */
  private async claimKeys(platformId: string, customerId: string, platformCustomerId: string, umaAddress: string, now: string): Promise<void> {
    const claims = [
      { key: platformCustomerIdKey(platformId, platformCustomerId), code: 'CONFLICT', message: 'A customer with this platformCustomerId already exists' },
      { key: umaAddressKey(umaAddress), code: 'UMA_ADDRESS_EXISTS', message: 'This UMA address is already in use' },
    ];
    const held: string[] = [];
    try {
      for (const claim of claims) {
        await this.claims.claim(claim.key, claim.code, claim.message, platformId, customerId, now);
        held.push(claim.key);
      }
    } catch (error) {
      for (const key of held) await this.claims.release(key, platformId, customerId, now);
      throw error;
    }
  }
}

/** `$<slug of platformCustomerId>.<8 hex>@uma.sandbox.payments.local`: readable and unique enough. */
function generatedUmaAddress(platformCustomerId: string, customerId: string): string {
  const slug = platformCustomerId.toLowerCase().replace(/[^a-z0-9._-]+/g, '').slice(0, 40) || 'customer';
  const tail = customerId.replace(/-/g, '').slice(-8);
  return `$${slug}.${tail}@${SANDBOX_UMA_DOMAIN}`;
}
