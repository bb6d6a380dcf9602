import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { pendingCheckOutcome } from '../../sandbox';
import { beneficiaryName } from '../domain/external-account/external-account.events';
import { EXTERNAL_ACCOUNT_STREAM } from '../streams';

/** The receiving institution's late answer to a PENDING name check; a task sends it (RESOLVE_BENEFICIARY_CHECK_TASK). */
export class ResolveBeneficiaryCheck extends Command<void> {
  constructor(readonly externalAccountId: string) {
    super();
  }
}

/**
 * Runs at least once: a no-op when the check is no longer pending or the account was deleted. An
 * account UNDER_REVIEW for the check becomes ACTIVE in the same decision (`EXTERNAL_ACCOUNT.STATUS_UPDATED`).
 */
@CommandHandler(ResolveBeneficiaryCheck)
export class ResolveBeneficiaryCheckHandler implements ICommandHandler<ResolveBeneficiaryCheck, void> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ externalAccountId }: ResolveBeneficiaryCheck): Promise<void> {
    const stream = streamNameFor(externalAccountId);
    const { state } = await this.commands.load(EXTERNAL_ACCOUNT_STREAM, stream);
    if (state.status !== 'active' || state.beneficiaryVerification?.status !== 'PENDING') return;
    const outcome = pendingCheckOutcome(beneficiaryName(state.accountInfo.beneficiary));
    await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, stream, {
      type: 'ResolveBeneficiaryVerification',
      status: outcome.status,
      verifiedFullName: outcome.verifiedFullName,
      now: new Date().toISOString(),
    });
  }
}
