import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { ExternalAccountCommand } from '../domain/external-account/external-account.decider';
import { EXTERNAL_ACCOUNT_STREAM } from '../streams';
import { ExternalAccountScope, assertOwned } from './external-account-guards';

/** `DELETE /customers/external-accounts/{id}` and `DELETE /platform/external-accounts/{id}` (scope PLATFORM). */
export class DeleteExternalAccount extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly externalAccountId: string,
    readonly scope: ExternalAccountScope = 'ANY',
  ) {
    super();
  }
}

/** A trusted beneficiary is refused (409 BENEFICIARY_TRUSTED) by the decider until untrusted. */
@CommandHandler(DeleteExternalAccount)
export class DeleteExternalAccountHandler implements ICommandHandler<DeleteExternalAccount, void> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ platformId, externalAccountId, scope }: DeleteExternalAccount): Promise<void> {
    await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, streamNameFor(externalAccountId), (state): ExternalAccountCommand => {
      assertOwned(state, platformId, scope);
      return { type: 'DeleteExternalAccount', now: new Date().toISOString() };
    });
  }
}
