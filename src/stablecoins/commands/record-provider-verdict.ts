import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { PROVIDER_ACCOUNT_STREAM } from '../streams';

/** The (sandbox) provider's later verdict on a link's credentials; a task sends it (STABLECOIN_LINK_TASK). */
export class RecordProviderVerdict extends Command<void> {
  constructor(readonly stablecoinProviderAccountId: string) {
    super();
  }
}

/** Revokes or invalidates the link as fixed when it was linked; a link already ended is left as it is. */
@CommandHandler(RecordProviderVerdict)
export class RecordProviderVerdictHandler implements ICommandHandler<RecordProviderVerdict, void> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ stablecoinProviderAccountId }: RecordProviderVerdict): Promise<void> {
    const stream = streamNameFor(stablecoinProviderAccountId);
    const { state } = await this.commands.load(PROVIDER_ACCOUNT_STREAM, stream);
    if (state.status !== 'ACTIVE' || state.providerOutcome === 'KEEP') return;
    const verdict = state.providerOutcome === 'REVOKE_LATER' ? 'REVOKED' : 'INVALID';
    await this.commands.handle(PROVIDER_ACCOUNT_STREAM, stream, { type: 'RecordProviderVerdict', verdict, now: new Date().toISOString() });
  }
}
