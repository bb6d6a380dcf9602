import { DomainError } from '../../../infra/domain/domain-error';
import { personalDataKeyId } from '../../../infra/domain/personal-secret';
import { CustomerEvent, CustomerProfile, DocumentRecord } from './customer.events';

/**
 * The customer's secret personal fields, sealed with the customer's data key before they enter an
 * event (src/infra/crypto/personal-data.ts): the individual's `taxIdentifier` (the reference's
 * `identifier`), each beneficial owner's `identifier`, and each document's `documentNumber`.
 * Names, birth dates, addresses and contact details stay in clear: every answer and webhook shows
 * them, and the quotes context reads them as counterparty information.
 *
 * Each sealed value is bound to the customer id and to its field name below.
 */
export const TAX_IDENTIFIER_FIELD = 'taxIdentifier';

export function beneficialOwnerIdentifierField(ownerId: string): string {
  return `beneficialOwners[${ownerId}].identifier`;
}

export function documentNumberField(documentId: string): string {
  return `documents[${documentId}].documentNumber`;
}

/** The key new values are sealed with: one per customer, a new one after each erasure. */
export function currentPersonalDataKeyId(state: { customerId: string; erasedPersonalDataKeyIds?: string[] }): string {
  return personalDataKeyId(state.customerId, state.erasedPersonalDataKeyIds?.length ?? 0);
}

/**
 * The profile and documents with every secret field cleared: after an erasure the values sealed
 * until then cannot be opened, and plain values from older events are no longer shown either.
 */
export function withoutPersonalSecrets(profile: CustomerProfile, documents: DocumentRecord[]): { profile: CustomerProfile; documents: DocumentRecord[] } {
  return {
    profile: {
      ...profile,
      taxIdentifier: null,
      beneficialOwners: profile.beneficialOwners.map((owner) =>
        owner.personalInfo.identifier === null ? owner : { ...owner, identifierErased: true, personalInfo: { ...owner.personalInfo, identifier: null } },
      ),
    },
    documents: documents.map((document) => (document.documentNumber === null ? document : { ...document, documentNumber: null })),
  };
}

/** The customer decider's `ErasePersonalData` (split out to keep the decider small). */
export function decideErasure(
  command: { currentKeyExists: boolean; erasedBy: string; reason: string; now: string },
  state: { status: 'none' } | { status: 'active' | 'deleted'; customerId: string; platformId: string; erasedPersonalDataKeyIds?: string[] },
): CustomerEvent[] {
  if (state.status === 'none') throw new DomainError('USER_NOT_FOUND', 'Customer not found');
  // Erased before and nothing sealed since: a repeated erasure is a no-op.
  if ((state.erasedPersonalDataKeyIds?.length ?? 0) > 0 && !command.currentKeyExists) return [];
  return [
    {
      type: 'CustomerPersonalDataErased',
      data: {
        customerId: state.customerId,
        platformId: state.platformId,
        keyId: currentPersonalDataKeyId(state),
        erasedBy: command.erasedBy,
        reason: command.reason,
        erasedAt: command.now,
      },
    },
  ];
}
