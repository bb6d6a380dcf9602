import { DomainError } from '../../infra/domain/domain-error';
import { uuidv7 } from '../../infra/ids';
import { customerNotFound } from '../customers.errors';
import { CustomerState } from '../domain/customer/customer.decider';
import { BeneficialOwner } from '../domain/customer/customer.events';
import { currentPersonalDataKeyId } from '../domain/customer/personal-data-fields';

/** The checks the customer handlers run on the state they decide on (pure). */
export function assertOwned(state: CustomerState, platformId: string): asserts state is Exclude<CustomerState, { status: 'none' }> {
  if (state.status === 'none' || state.platformId !== platformId) throw customerNotFound();
}

/**
 * Values were sealed with the key current when the customer was loaded: an erasure in between
 * retired that key, so the request is refused rather than storing values already shredded.
 */
export function assertSameDataKey(state: Exclude<CustomerState, { status: 'none' }>, keyId: string): void {
  if (currentPersonalDataKeyId(state) !== keyId) {
    throw new DomainError('CONFLICT', "The customer's personal data was erased concurrently; retry the request");
  }
}

export function activeOrDeleted(state: CustomerState): Exclude<CustomerState, { status: 'none' }> {
  if (state.status === 'none') throw customerNotFound();
  return state;
}

/** Owners get their id and creation time when they are stored (creation, or a PATCH that replaces them). */
export function stampOwners(owners: BeneficialOwner[], now: string): BeneficialOwner[] {
  return owners.map((owner) => ({ ...owner, id: owner.id ?? `BeneficialOwner:${uuidv7()}`, createdAt: owner.createdAt ?? now }));
}
