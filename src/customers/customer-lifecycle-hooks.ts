import { Injectable } from '@nestjs/common';

export interface CreatedCustomer {
  platformId: string;
  customerId: string;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  createdAt: string;
}

export type CustomerCreatedHook = (customer: CreatedCustomer) => Promise<void>;

/**
 * Work other contexts do in the same request as `POST /customers` (the accounts context opens
 * the customer's internal accounts), so the response and the read models already include it.
 * The customers context does not import those contexts: they register here. Every hook must be
 * idempotent, because a reactor on `CustomerCreated` runs it again for crash safety.
 */
@Injectable()
export class CustomerLifecycleHooks {
  private readonly createdHooks: Array<{ name: string; hook: CustomerCreatedHook }> = [];

  onCustomerCreated(name: string, hook: CustomerCreatedHook): void {
    if (this.createdHooks.some((entry) => entry.name === name)) return;
    this.createdHooks.push({ name, hook });
  }

  async runCustomerCreated(customer: CreatedCustomer): Promise<void> {
    for (const { hook } of this.createdHooks) await hook(customer);
  }
}
