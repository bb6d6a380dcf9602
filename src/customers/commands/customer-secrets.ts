import { Injectable } from '@nestjs/common';
import { PersonalDataKeys, PersonalSecret, isSealed } from '../../infra/crypto/personal-data';
import { CustomerProfile } from '../domain/customer/customer.events';
import { TAX_IDENTIFIER_FIELD, beneficialOwnerIdentifierField } from '../domain/customer/personal-data-fields';

type SecretFields = Pick<Partial<CustomerProfile>, 'taxIdentifier' | 'beneficialOwners'>;

/** Seals secret personal fields before they enter an event (CreateCustomer, UpdateCustomer). */
@Injectable()
export class CustomerSecrets {
  constructor(private readonly personalData: PersonalDataKeys) {}

  /** The secret fields of `profile` sealed with `keyId` (owners must carry their ids already). */
  async sealProfile(keyId: string, customerId: string, profile: SecretFields): Promise<SecretFields> {
    const sealed: SecretFields = {};
    if (profile.taxIdentifier !== undefined) sealed.taxIdentifier = await this.sealSecret(keyId, customerId, TAX_IDENTIFIER_FIELD, profile.taxIdentifier);
    if (profile.beneficialOwners !== undefined) {
      sealed.beneficialOwners = await Promise.all(
        profile.beneficialOwners.map(async (owner) => ({
          ...owner,
          personalInfo: {
            ...owner.personalInfo,
            identifier: await this.sealSecret(keyId, customerId, beneficialOwnerIdentifierField(owner.id!), owner.personalInfo.identifier),
          },
        })),
      );
    }
    return sealed;
  }

  /** A PATCH resending the stored value changes nothing (a fresh seal would differ byte for byte). */
  async sameSecret(stored: PersonalSecret | null, given: PersonalSecret | null, customerId: string, field: string): Promise<boolean> {
    if (stored === null || given === null) return stored === given;
    return (await this.personalData.open(stored, customerId, field)) === given;
  }

  private async sealSecret(keyId: string, customerId: string, field: string, value: PersonalSecret | null): Promise<PersonalSecret | null> {
    if (value === null || isSealed(value)) return value;
    return this.personalData.seal(keyId, customerId, field, value);
  }
}
