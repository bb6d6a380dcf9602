import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { currentContext } from '../../infra/request-context';
import { ExistingAgent } from '../domain/agent.decider';
import { AgentActionView } from '../queries/agent-action.view';
import { AGENT_STREAM } from '../streams';
import { AgentActionRunner, RunOutcome } from './agent-action-runner';

/** `POST /agents/{agentId}/actions/{actionId}/approve`: the pending action runs. */
export class ApproveAgentAction extends Command<RunOutcome> {
  constructor(
    readonly platformId: string,
    readonly agentId: string,
    readonly actionId: string,
  ) {
    super();
  }
}

/** `POST /agents/{agentId}/actions/{actionId}/reject`: the pending action never runs. */
export class RejectAgentAction extends Command<AgentActionView> {
  constructor(
    readonly platformId: string,
    readonly agentId: string,
    readonly actionId: string,
    readonly reason: string | null,
  ) {
    super();
  }
}

/** Who decides: the request's actor (`platform:<clientId>`). */
function actor(): string {
  return currentContext()?.actor ?? 'system';
}

/**
 * The decision is one event on the agent's stream at its revision: of an approve and a reject
 * racing, exactly one is recorded and the other finds the action no longer pending (409). An
 * approved action then runs its operation (the reservation made at submission already counts it,
 * so an approval never overshoots a limit); an expired quote or short funds make it FAILED with
 * the reason, answered 200 with the action (the refusal is in the outcome for callers that answer
 * it, like `POST /transactions/{id}/approve`).
 */
@CommandHandler(ApproveAgentAction)
export class ApproveAgentActionHandler implements ICommandHandler<ApproveAgentAction, RunOutcome> {
  constructor(
    private readonly commands: CommandStore,
    private readonly runner: AgentActionRunner,
  ) {}

  async execute({ platformId, agentId, actionId }: ApproveAgentAction): Promise<RunOutcome> {
    const approved = await this.commands.handle(AGENT_STREAM, streamNameFor(agentId), {
      type: 'DecideAgentAction',
      platformId,
      actionId,
      decision: 'APPROVE',
      reason: null,
      actor: actor(),
      now: new Date().toISOString(),
    });
    return this.runner.run(approved.state as ExistingAgent, actionId);
  }
}

/** The reservation the action made at submission is given back. */
@CommandHandler(RejectAgentAction)
export class RejectAgentActionHandler implements ICommandHandler<RejectAgentAction, AgentActionView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly runner: AgentActionRunner,
  ) {}

  async execute({ platformId, agentId, actionId, reason }: RejectAgentAction): Promise<AgentActionView> {
    const rejected = await this.commands.handle(AGENT_STREAM, streamNameFor(agentId), {
      type: 'DecideAgentAction',
      platformId,
      actionId,
      decision: 'REJECT',
      reason,
      actor: actor(),
      now: new Date().toISOString(),
    });
    return this.runner.present(rejected.state as ExistingAgent, actionId);
  }
}
