import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InternalAccountProvisioner } from '../provisioning/internal-account-provisioner';

/**
 * Opens a customer's internal accounts: sent when the customer is created (in the POST
 * /customers request, and again by the customer-lifecycle reactor after a crash), and by the
 * `customer-currency-accounts` reactor when the platform adds currencies.
 */
export class OpenCustomerAccounts extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    /** Null: every currency the platform supports now (a new customer). */
    readonly currencies: string[] | null,
    readonly openedAt: string,
  ) {
    super();
  }
}

/** Deterministic ids open each account once; nothing opens once the customer is deleted. */
@CommandHandler(OpenCustomerAccounts)
export class OpenCustomerAccountsHandler implements ICommandHandler<OpenCustomerAccounts, void> {
  constructor(private readonly provisioner: InternalAccountProvisioner) {}

  async execute({ platformId, customerId, currencies, openedAt }: OpenCustomerAccounts): Promise<void> {
    if (currencies === null) return this.provisioner.provisionCustomer({ platformId, customerId, createdAt: openedAt });
    return this.provisioner.provisionCustomerCurrencies({ platformId, customerId, currencies, openedAt });
  }
}
