import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { isUnsettled } from '../domain/agent-actions';
import { AGENT_STREAM } from '../streams';
import { AgentActionRunner } from './agent-action-runner';

/**
 * Sent by the `agent.action.settle` task a few seconds after an action was approved (at
 * submission or by the platform): when the request that was running it died, the action is still
 * APPROVED without an outcome, and this runs it (AgentActionRunner, RECOVERY). Anything else
 * (settled, rejected, a deleted agent) is a no-op: the task runs at least once.
 */
export class RecoverAgentAction extends Command<void> {
  constructor(
    readonly agentId: string,
    readonly actionId: string,
  ) {
    super();
  }
}

@CommandHandler(RecoverAgentAction)
export class RecoverAgentActionHandler implements ICommandHandler<RecoverAgentAction, void> {
  constructor(
    private readonly commands: CommandStore,
    private readonly runner: AgentActionRunner,
  ) {}

  async execute({ agentId, actionId }: RecoverAgentAction): Promise<void> {
    const { state } = await this.commands.load(AGENT_STREAM, streamNameFor(agentId));
    if (state.status !== 'active') return;
    const action = state.actions[actionId];
    if (!action || !isUnsettled(action)) return;
    await this.runner.run(state, actionId, 'RECOVERY');
  }
}
