import { Injectable } from '@nestjs/common';
import { CustomersQuery } from '../customers';
import { CustomerView } from '../customers';
import { DomainError } from '../infra/domain/domain-error';
import { scaNotRequired } from './domain/sca.errors';
import { isScaRegion } from './sca-regions';

/** Which customers SCA applies to, answered from the customers read model. */
@Injectable()
export class ScaCustomers {
  constructor(private readonly customers: CustomersQuery) {}

  /** True when the customer exists, is not deleted and lives in an SCA region. */
  async appliesTo(platformId: string, customerId: string | null): Promise<boolean> {
    if (!customerId) return false;
    const customer = await this.customers.findById(platformId, customerId);
    return customer !== null && !customer.isDeleted && isScaRegion(customer.region);
  }

  /**
   * The customer, or 404 USER_NOT_FOUND (a deleted one too, with `details.reason = "CUSTOMER_DELETED"`:
   * the SCA operations declare no 410), or 409 for a customer outside SCA regions.
   */
  async require(platformId: string, customerId: string): Promise<CustomerView> {
    const customer = await this.customers.findById(platformId, customerId);
    if (!customer) throw new DomainError('USER_NOT_FOUND', 'Customer not found');
    if (customer.isDeleted) throw new DomainError('USER_NOT_FOUND', 'The customer was deleted', { reason: 'CUSTOMER_DELETED' });
    if (!isScaRegion(customer.region)) throw scaNotRequired();
    return customer;
  }
}
