import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { AGENT_STREAM } from '../streams';

/**
 * `DELETE /agents/{id}`: for good. The answer waits for the read models (as every answer does),
 * which drop the agent's token with the deletion: from then on the token is refused in every process.
 */
export class DeleteAgent extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly agentId: string,
  ) {
    super();
  }
}

@CommandHandler(DeleteAgent)
export class DeleteAgentHandler implements ICommandHandler<DeleteAgent, void> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ platformId, agentId }: DeleteAgent): Promise<void> {
    await this.commands.handle(AGENT_STREAM, streamNameFor(agentId), { type: 'DeleteAgent', platformId, now: new Date().toISOString() });
  }
}
