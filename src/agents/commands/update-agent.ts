import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { AgentChanges, ExistingAgent } from '../domain/agent.decider';
import { AgentView, agentView } from '../queries/agent.view';
import { AGENT_STREAM } from '../streams';

export type { AgentChanges };

/** `PATCH /agents/{id}`: name, paused. A paused agent still authenticates; its actions are refused. */
export class UpdateAgent extends Command<AgentView> {
  constructor(
    readonly platformId: string,
    readonly agentId: string,
    readonly changes: AgentChanges,
  ) {
    super();
  }
}

@CommandHandler(UpdateAgent)
export class UpdateAgentHandler implements ICommandHandler<UpdateAgent, AgentView> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ platformId, agentId, changes }: UpdateAgent): Promise<AgentView> {
    const result = await this.commands.handle(AGENT_STREAM, streamNameFor(agentId), { type: 'UpdateAgent', platformId, changes, now: new Date().toISOString() });
    return agentView(result.state as ExistingAgent);
  }
}
