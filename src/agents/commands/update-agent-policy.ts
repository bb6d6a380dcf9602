import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { rateSnapshotAt } from '../../quotes';
import { CommandStore } from '../../infra/commands/command-store';
import { ValidationError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { ExistingAgent, ownAgent } from '../domain/agent.decider';
import { AgentPolicyUpdate } from '../domain/policy/agent-policy';
import { AgentView, agentView } from '../queries/agent.view';
import { AGENT_STREAM } from '../streams';
import { PolicyAccounts } from './policy-accounts';

export type { AgentPolicyUpdate };

/**
 * `PATCH /agents/{id}/policy`: a partial update, effective at once (the next decision on the
 * agent's stream reads the new policy).
 */
export class UpdateAgentPolicy extends Command<AgentView> {
  constructor(
    readonly platformId: string,
    readonly agentId: string,
    readonly update: AgentPolicyUpdate,
  ) {
    super();
  }
}

/** An unknown agent is 404 before the accounts the update names are checked against its customer. */
@CommandHandler(UpdateAgentPolicy)
export class UpdateAgentPolicyHandler implements ICommandHandler<UpdateAgentPolicy, AgentView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly policyAccounts: PolicyAccounts,
  ) {}

  async execute({ platformId, agentId, update }: UpdateAgentPolicy): Promise<AgentView> {
    const stream = streamNameFor(agentId);
    const loaded = await this.commands.load(AGENT_STREAM, stream);
    const agent = ownAgent(loaded.state, platformId);
    const errors = await this.policyAccounts.check(platformId, agent.customerId, update.accountRestrictions, 'accountRestrictions');
    if (errors.length > 0) throw new ValidationError(errors);
    const now = new Date();
    const command = { type: 'ChangeAgentPolicy' as const, platformId, update, usdValues: rateSnapshotAt(now).usdValues, now: now.toISOString() };
    const result = await this.commands.handle(AGENT_STREAM, stream, command, { preloaded: loaded });
    return agentView(result.state as ExistingAgent);
  }
}
