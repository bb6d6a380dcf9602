import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InternalAccountProvisioner } from '../provisioning/internal-account-provisioner';

/**
 * Closes a deleted customer's internal accounts: sent by the `customer-account-closure` reactor
 * on `CustomerDeleted`, with the deletion's time.
 */
export class CloseCustomerAccounts extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly closedAt: string,
  ) {
    super();
  }
}

/** Runs at least once: an account closed already records nothing. */
@CommandHandler(CloseCustomerAccounts)
export class CloseCustomerAccountsHandler implements ICommandHandler<CloseCustomerAccounts, void> {
  constructor(private readonly provisioner: InternalAccountProvisioner) {}

  async execute({ platformId, customerId, closedAt }: CloseCustomerAccounts): Promise<void> {
    await this.provisioner.closeCustomerAccounts({ platformId, customerId, closedAt });
  }
}
