import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { PersonalDataKeys } from '../../infra/crypto/personal-data';
import { streamNameFor } from '../../infra/ids';
import { CustomerCommand } from '../domain/customer/customer.decider';
import { CustomerView, customerView } from '../queries/customer.view';
import { openCustomerView } from '../queries/personal-data-views';
import { CUSTOMER_STREAM } from '../streams';
import { activeOrDeleted, assertOwned } from './customer-guards';
import { CustomerKeyClaims } from './customer-key-claims';

/** `DELETE /customers/{id}`: answers the customer, `isDeleted: true`. */
export class DeleteCustomer extends Command<CustomerView> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
  ) {
    super();
  }
}

/** Deletes the customer, then frees its unique keys (the lifecycle reactor frees them too after a crash). */
@CommandHandler(DeleteCustomer)
export class DeleteCustomerHandler implements ICommandHandler<DeleteCustomer, CustomerView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly claims: CustomerKeyClaims,
    private readonly personalData: PersonalDataKeys,
  ) {}

  async execute({ platformId, customerId }: DeleteCustomer): Promise<CustomerView> {
    const now = new Date().toISOString();
    const result = await this.commands.handle(CUSTOMER_STREAM, streamNameFor(customerId), (state): CustomerCommand => {
      assertOwned(state, platformId);
      return { type: 'DeleteCustomer', now };
    });
    const state = activeOrDeleted(result.state);
    await this.claims.releaseCustomerKeys(platformId, customerId, state.platformCustomerId, state.umaAddress);
    return openCustomerView(customerView(state), this.personalData);
  }
}
