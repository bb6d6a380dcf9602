import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { newId, streamNameFor } from '../../infra/ids';
import { rateSnapshotAt } from '../../quotes';
import { ExistingAgent } from '../domain/agent.decider';
import { AgentActionView } from '../queries/agent-action.view';
import { AGENT_STREAM } from '../streams';
import { AgentActionRunner } from './agent-action-runner';
import { ActingAgentRef, AgentActionRequests, AgentTransferAsked } from './agent-action-requests';

/** What the agent asked: execute one of its quotes, or a transfer. */
export type AgentActionAsked = { kind: 'EXECUTE_QUOTE'; quoteId: string } | ({ kind: 'TRANSFER' } & AgentTransferAsked);

/**
 * `POST /agents/me/quotes/{id}/execute`, `/agents/me/transfer-out`, `/agents/me/transfer-in`:
 * answers the AgentAction (APPROVED with its transaction, or PENDING_APPROVAL).
 */
export class SubmitAgentAction extends Command<AgentActionView> {
  constructor(
    readonly agent: ActingAgentRef,
    readonly asked: AgentActionAsked,
  ) {
    super();
  }
}

/**
 * The action and the usage it reserves are one decision on the agent's stream, against the
 * policy and usage that stream holds at its revision (concurrent submissions re-decide, so they
 * never spend past a limit); outside policy it is 403 FORBIDDEN and nothing is recorded. Amounts
 * in another currency than the policy's are converted at the current rate snapshot the quotes
 * price with. An action within policy in AUTO mode runs at once through the platform's own
 * command; when that command refuses, the action is FAILED (its reservation released) and the
 * refusal is the answer, as on the platform's route. One that needs approval waits (no money
 * moves; the `AGENT_ACTION.PENDING_APPROVAL` webhook goes out).
 */
@CommandHandler(SubmitAgentAction)
export class SubmitAgentActionHandler implements ICommandHandler<SubmitAgentAction, AgentActionView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly requests: AgentActionRequests,
    private readonly runner: AgentActionRunner,
  ) {}

  async execute({ agent, asked }: SubmitAgentAction): Promise<AgentActionView> {
    const request = asked.kind === 'EXECUTE_QUOTE' ? await this.requests.forQuote(agent, asked.quoteId) : await this.requests.forTransfer(agent, asked);
    const actionId = newId('AgentAction');
    const now = new Date();
    const submitted = await this.commands.handle(AGENT_STREAM, streamNameFor(agent.agentId), {
      type: 'SubmitAgentAction',
      actionId,
      request,
      usdValues: rateSnapshotAt(now).usdValues,
      now: now.toISOString(),
    });
    const state = submitted.state as ExistingAgent;
    if (state.actions[actionId].status !== 'APPROVED') return this.runner.present(state, actionId);
    const { view, refusal } = await this.runner.run(state, actionId);
    if (refusal) throw refusal;
    return view;
  }
}
