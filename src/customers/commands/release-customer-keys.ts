import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CustomerKeyClaims } from './customer-key-claims';

/** Frees a deleted customer's unique keys; the lifecycle reactor sends it for every `CustomerDeleted`. */
export class ReleaseCustomerKeys extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly customerId: string,
    readonly platformCustomerId: string,
    readonly umaAddress: string,
  ) {
    super();
  }
}

/** Idempotent: a key the customer no longer holds is left as it is. */
@CommandHandler(ReleaseCustomerKeys)
export class ReleaseCustomerKeysHandler implements ICommandHandler<ReleaseCustomerKeys, void> {
  constructor(private readonly claims: CustomerKeyClaims) {}

  async execute({ platformId, customerId, platformCustomerId, umaAddress }: ReleaseCustomerKeys): Promise<void> {
    await this.claims.releaseCustomerKeys(platformId, customerId, platformCustomerId, umaAddress);
  }
}
