import { Injectable } from '@nestjs/common';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { customerDeleted } from '../customers.errors';
import { CustomerState } from '../domain/customer/customer.decider';
import { CUSTOMER_STREAM } from '../streams';
import { assertOwned } from './customer-guards';

export type ActiveCustomer = CustomerState & { status: 'active' };

/** Reads a customer from its stream (authoritative), for the handlers and for PATCH's choice of shape. */
@Injectable()
export class ActiveCustomers {
  constructor(private readonly commands: CommandStore) {}

  /**
   * The customer's state, or throws 404 USER_NOT_FOUND, or `whenDeleted()` for a deleted
   * customer (each operation answers the status its reference declares).
   */
  async load(platformId: string, customerId: string, whenDeleted: () => DomainError = customerDeleted): Promise<ActiveCustomer> {
    const { state } = await this.commands.load(CUSTOMER_STREAM, streamNameFor(customerId));
    assertOwned(state, platformId);
    if (state.status === 'deleted') throw whenDeleted();
    return state as ActiveCustomer;
  }
}
