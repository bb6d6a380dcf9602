import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore, DecidedAppend } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { PersonalDataKeys, personalDataKeyId } from '../../infra/crypto/personal-data';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { newId, streamNameFor } from '../../infra/ids';
import { initialIndividualKycStatus } from '../../sandbox';
import { requiredContactChannels } from '../contact-verification-providers';
import { CustomerLifecycleHooks } from '../customer-lifecycle-hooks';
import { CustomerState } from '../domain/customer/customer.decider';
import { CustomerProfile, CustomerType, KycStatus } from '../domain/customer/customer.events';
import { assertKnownTermsVersion } from '../domain/customer/end-user-terms';
import { CustomerView, customerView } from '../queries/customer.view';
import { openCustomerView } from '../queries/personal-data-views';
import { CUSTOMER_STREAM } from '../streams';
import { activeOrDeleted, stampOwners } from './customer-guards';
import { CustomerKeyClaims, KeyClaim, claimStreamName, platformCustomerIdKey, umaAddressKey } from './customer-key-claims';
import { CustomerSecrets } from './customer-secrets';

/** Commits tried when racing requests keep moving the claim streams (as CUSTOMER_KEY_CLAIM_STREAM's maxAttempts). */
const MAX_CREATE_ATTEMPTS = 20;

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
 * Creation claims the unique keys (platformCustomerId per platform, UMA address) and appends the
 * customer in one commit, then runs the creation hooks (internal accounts) in the same request.
 * A crash part-way is safe: a reactor re-runs the hooks for every `CustomerCreated`. Event stores
 * without multi-stream commits claim first (orphan claims are taken over), then append.
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
    const keys = keyClaims(platformId, platformCustomerId, umaAddress);
    // Decided (not appended) before anything is sealed: a key in use refuses the request first.
    const claims = await this.firstClaims(keys, platformId, customerId, now);
    // A nameless individual has nothing the sandbox suffix rule could read: it starts UNVERIFIED.
    const initialKycStatus: KycStatus =
      input.customerType === 'INDIVIDUAL' && this.config.mode === 'sandbox' && input.profile.fullName
        ? initialIndividualKycStatus(input.profile.fullName)
        : 'UNVERIFIED';
    // Secret fields are sealed before they enter an event; sealing creates the customer's data key
    // (a customer with nothing secret gets it when a value is first sealed).
    const keyId = personalDataKeyId(customerId, 0);
    const profile = await this.secrets.sealProfile(keyId, customerId, { ...input.profile, beneficialOwners: stampOwners(input.profile.beneficialOwners, now) });
    const initial = CUSTOMER_STREAM.decider.initialState();
    // A new id: the stream cannot exist, so the decision needs no read.
    const events = CUSTOMER_STREAM.decider.decide(
      {
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
      },
      initial,
    );
    const customer: DecidedAppend = { type: CUSTOMER_STREAM, state: initial, streamName: streamNameFor(customerId), events, expectedRevision: 'no_stream' };
    await this.commitWithClaims(keys, claims, customer, platformId, customerId, now);
    const state: CustomerState = this.commands.decide(CUSTOMER_STREAM, initial, events);
    await this.hooks.runCustomerCreated({ platformId, customerId, customerType: input.customerType, createdAt: now });
    return openCustomerView(customerView(activeOrDeleted(state)), this.personalData);
  }

  /**
   * The claims to commit with the customer. Without multi-stream commits they are appended here
   * instead, both or neither (a refused second claim releases the first), leaving none to commit.
   */
  private async firstClaims(keys: KeyClaim[], platformId: string, customerId: string, now: string): Promise<DecidedAppend[]> {
    if (this.commands.events.supportsAtomicMultiAppend) return this.claims.decideClaims(keys, platformId, customerId, now);
    await this.claimKeys(keys, platformId, customerId, now);
    return [];
  }

  /** One commit; a claim stream a racing request moved is decided again (its winner then holds the key: refused). */
  private async commitWithClaims(keys: KeyClaim[], claims: DecidedAppend[], customer: DecidedAppend, platformId: string, customerId: string, now: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.commands.commit([...claims, customer]);
        return;
      } catch (error) {
        const moved = error instanceof ConcurrencyError && claims.length > 0 ? keys.find((claim) => claimStreamName(claim.key) === error.streamName) : undefined;
        if (!moved) throw error;
        if (attempt >= MAX_CREATE_ATTEMPTS) throw new DomainError(moved.code, moved.message);
        claims = await this.claims.decideClaims(keys, platformId, customerId, now);
      }
    }
  }

  /** Both keys appended or neither: a refused second claim releases the first. */
  private async claimKeys(keys: KeyClaim[], platformId: string, customerId: string, now: string): Promise<void> {
    const held: string[] = [];
    try {
      for (const claim of keys) {
        await this.claims.claim(claim.key, claim.code, claim.message, platformId, customerId, now);
        held.push(claim.key);
      }
    } catch (error) {
      for (const key of held) await this.claims.release(key, platformId, customerId, now);
      throw error;
    }
  }
}

function keyClaims(platformId: string, platformCustomerId: string, umaAddress: string): KeyClaim[] {
  return [
    { key: platformCustomerIdKey(platformId, platformCustomerId), code: 'CONFLICT', message: 'A customer with this platformCustomerId already exists' },
    { key: umaAddressKey(umaAddress), code: 'UMA_ADDRESS_EXISTS', message: 'This UMA address is already in use' },
  ];
}

/** `$<slug of platformCustomerId>.<8 hex>@uma.sandbox.payments.local`: readable and unique enough. */
function generatedUmaAddress(platformCustomerId: string, customerId: string): string {
  const slug = platformCustomerId.toLowerCase().replace(/[^a-z0-9._-]+/g, '').slice(0, 40) || 'customer';
  const tail = customerId.replace(/-/g, '').slice(-8);
  return `$${slug}.${tail}@${SANDBOX_UMA_DOMAIN}`;
}
