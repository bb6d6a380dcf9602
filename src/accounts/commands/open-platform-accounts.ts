import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InternalAccountProvisioner } from '../provisioning/internal-account-provisioner';

/** Opens the platform's own accounts in `currencies`; the `platform-accounts` reactor sends it. */
export class OpenPlatformAccounts extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly currencies: string[],
    readonly openedAt: string,
  ) {
    super();
  }
}

/** Accounts already open are left as they are (deterministic ids). */
@CommandHandler(OpenPlatformAccounts)
export class OpenPlatformAccountsHandler implements ICommandHandler<OpenPlatformAccounts, void> {
  constructor(private readonly provisioner: InternalAccountProvisioner) {}

  async execute({ platformId, currencies, openedAt }: OpenPlatformAccounts): Promise<void> {
    await this.provisioner.provisionPlatform({ platformId, currencies, at: openedAt });
  }
}
