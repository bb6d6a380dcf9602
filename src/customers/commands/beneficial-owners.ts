import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { PersonalDataKeys } from '../../infra/crypto/personal-data';
import { streamNameFor } from '../../infra/ids';
import { customerNotFound } from '../customers.errors';
import { beneficialOwnerId } from '../domain/customer/beneficial-owner-id';
import { beneficialOwnerNotFound } from '../domain/customer/beneficial-owners';
import { CustomerCommand, CustomerState } from '../domain/customer/customer.decider';
import { BeneficialOwner, BeneficialOwnerChanges } from '../domain/customer/customer.events';
import { beneficialOwnerIdentifierField, currentPersonalDataKeyId } from '../domain/customer/personal-data-fields';
import { BeneficialOwnersQuery } from '../queries/beneficial-owners.query';
import { BeneficialOwnerView, customerView } from '../queries/customer.view';
import { openCustomerView } from '../queries/personal-data-views';
import { CUSTOMER_STREAM } from '../streams';
import { ActiveCustomers } from './active-customers';
import { activeOrDeleted, assertOwned, assertSameDataKey, stampOwners } from './customer-guards';
import { CustomerSecrets } from './customer-secrets';

/** `POST /beneficial-owners`: adds an owner to a business customer, answers the owner. */
export class AddBeneficialOwner extends Command<BeneficialOwnerView> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly owner: BeneficialOwner,
  ) {
    super();
  }
}

/** `PATCH /beneficial-owners/{id}`: changes the given fields of an owner, answers the owner. */
export class UpdateBeneficialOwner extends Command<BeneficialOwnerView> {
  constructor(
    readonly platformId: string,
    readonly beneficialOwnerId: string,
    readonly changes: BeneficialOwnerChanges,
  ) {
    super();
  }
}

/**
 * The owner gets its id and creation time here and its identifier is sealed with the business's
 * data key before it enters the event; the rules (business only, at most 25, percentages, KYB
 * reopened) are the decider's (beneficial-owners.ts).
 */
@CommandHandler(AddBeneficialOwner)
export class AddBeneficialOwnerHandler implements ICommandHandler<AddBeneficialOwner, BeneficialOwnerView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly customers: ActiveCustomers,
    private readonly secrets: CustomerSecrets,
    private readonly personalData: PersonalDataKeys,
  ) {}

  async execute({ platformId, customerId, owner }: AddBeneficialOwner): Promise<BeneficialOwnerView> {
    const now = new Date().toISOString();
    // A deleted business is not found: the resource has no 410 (docs/customers.md).
    const current = await this.customers.load(platformId, customerId, customerNotFound);
    const keyId = currentPersonalDataKeyId(current);
    const { beneficialOwners } = await this.secrets.sealProfile(keyId, customerId, { beneficialOwners: stampOwners([owner], now) });
    const stamped = beneficialOwners![0] as BeneficialOwner & { id: string; createdAt: string };
    const result = await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
      assertOwned(state, platformId);
      if (state.status === 'deleted') throw customerNotFound();
      assertSameDataKey(state, keyId);
      return { type: 'AddBeneficialOwner', owner: stamped, now };
    });
    return ownerAnswer(result.state, stamped.id, this.personalData);
  }
}

/**
 * The owner's business is found through the read model (owner ids are not streams); the change
 * is decided on the business's stream. A new identifier is sealed; one equal to the stored value
 * is dropped, so resending a GET body changes nothing.
 */
@CommandHandler(UpdateBeneficialOwner)
export class UpdateBeneficialOwnerHandler implements ICommandHandler<UpdateBeneficialOwner, BeneficialOwnerView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly owners: BeneficialOwnersQuery,
    private readonly secrets: CustomerSecrets,
    private readonly personalData: PersonalDataKeys,
  ) {}

  async execute({ platformId, beneficialOwnerId: ownerId, changes }: UpdateBeneficialOwner): Promise<BeneficialOwnerView> {
    const now = new Date().toISOString();
    const customerId = await this.owners.customerIdOf(platformId, ownerId);
    if (!customerId) throw beneficialOwnerNotFound();
    const { state: current } = await this.commands.load(CUSTOMER_STREAM, streamNameFor(customerId));
    const stored = ownerIn(current, platformId, ownerId);
    const keyId = currentPersonalDataKeyId(stored.customer);
    const sealed = await this.sealedChanges(keyId, customerId, ownerId, stored.owner, changes);
    const result = await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
      const { customer } = ownerIn(state, platformId, ownerId);
      assertSameDataKey(customer, keyId);
      return { type: 'UpdateBeneficialOwner', beneficialOwnerId: ownerId, changes: sealed, now };
    });
    return ownerAnswer(result.state, ownerId, this.personalData);
  }

  private async sealedChanges(keyId: string, customerId: string, ownerId: string, owner: BeneficialOwner, changes: BeneficialOwnerChanges): Promise<BeneficialOwnerChanges> {
    const given = changes.personalInfo?.identifier;
    if (given === undefined || given === null) return changes;
    const field = beneficialOwnerIdentifierField(ownerId);
    const { identifier: _given, ...personalInfo } = changes.personalInfo!;
    if (await this.secrets.sameSecret(owner.personalInfo.identifier, given, customerId, field)) return { ...changes, personalInfo };
    const { beneficialOwners } = await this.secrets.sealProfile(keyId, customerId, {
      beneficialOwners: [{ ...owner, id: ownerId, personalInfo: { ...owner.personalInfo, identifier: given } }],
    });
    return { ...changes, personalInfo: { ...personalInfo, identifier: beneficialOwners![0].personalInfo.identifier } };
  }
}

type StoredCustomer = Exclude<CustomerState, { status: 'none' }>;

/** The platform's active business holding the owner, or 404 for the owner (unknown, another platform's, or its business deleted). */
function ownerIn(state: CustomerState, platformId: string, ownerId: string): { customer: StoredCustomer; owner: BeneficialOwner } {
  if (state.status !== 'active' || state.platformId !== platformId) throw beneficialOwnerNotFound();
  const owner = state.profile.beneficialOwners.find((candidate, index) => beneficialOwnerId(state.customerId, candidate, index) === ownerId);
  if (!owner) throw beneficialOwnerNotFound();
  return { customer: state, owner };
}

/** The owner as GET shows it, from the state the command left (identifier opened and masked). */
async function ownerAnswer(state: CustomerState, ownerId: string, keys: PersonalDataKeys): Promise<BeneficialOwnerView> {
  const view = await openCustomerView(customerView(activeOrDeleted(state)), keys);
  const owner = view.customerType === 'BUSINESS' ? view.beneficialOwners.find((candidate) => candidate.id === ownerId) : undefined;
  if (!owner) throw beneficialOwnerNotFound();
  return owner;
}
