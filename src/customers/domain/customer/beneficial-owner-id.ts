import { uuidv5 } from '../../../infra/ids';
import { BeneficialOwner } from './customer.events';

/**
 * A beneficial owner's id: assigned when it is stored; owners stored before they had ids get
 * one derived from the customer and their position, stable across reads and rebuilds.
 */
export function beneficialOwnerId(customerId: string, owner: BeneficialOwner, index: number): string {
  return owner.id ?? `BeneficialOwner:${uuidv5(`${customerId}:beneficialOwner:${index}`)}`;
}
