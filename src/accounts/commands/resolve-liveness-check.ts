import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { lastThree } from '../../sandbox';
import { EXTERNAL_ACCOUNT_STREAM } from '../streams';

/** The sandbox liveness provider's outcome for the challenge `nonce`; a task sends it (RESOLVE_LIVENESS_CHECK_TASK). */
export class ResolveLivenessCheck extends Command<void> {
  constructor(
    readonly externalAccountId: string,
    readonly nonce: string,
  ) {
    super();
  }
}

/**
 * The sandbox's hosted flow passes unless the wallet's address ends in `002` (docs/accounts.md).
 * Runs at least once: a no-op when the challenge is no longer the outstanding one (answered,
 * replaced, expired) or the account was deleted.
 */
@CommandHandler(ResolveLivenessCheck)
export class ResolveLivenessCheckHandler implements ICommandHandler<ResolveLivenessCheck, void> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ externalAccountId, nonce }: ResolveLivenessCheck): Promise<void> {
    const stream = streamNameFor(externalAccountId);
    const { state } = await this.commands.load(EXTERNAL_ACCOUNT_STREAM, stream);
    if (state.status !== 'active' || state.ownershipChallenge?.nonce !== nonce) return;
    const passed = lastThree(state.accountInfo.identifiers.address) !== '002';
    await this.commands.handle(EXTERNAL_ACCOUNT_STREAM, stream, { type: 'ResolveLivenessCheck', nonce, passed, now: new Date().toISOString() });
  }
}
