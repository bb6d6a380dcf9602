import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CustomersQuery } from '../../customers';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { newId, streamNameFor } from '../../infra/ids';
import { ExistingAgent } from '../domain/agent.decider';
import { AgentPolicy } from '../domain/policy/agent-policy';
import { AgentCreatedView, agentView } from '../queries/agent.view';
import { AGENT_STREAM } from '../streams';
import { newDeviceCode, secretHash } from './agent-secrets';
import { PolicyAccounts } from './policy-accounts';

export interface CreateAgentInput {
  name: string;
  customerId: string;
  policy: AgentPolicy;
}

/** `POST /agents`: answers the agent and its first device code (shown this once). */
export class CreateAgent extends Command<AgentCreatedView> {
  constructor(
    readonly platformId: string,
    readonly input: CreateAgentInput,
  ) {
    super();
  }
}

/**
 * Checks the customer (this platform's, not deleted) and the accounts the policy names (the
 * customer's own), all in one 400, then records the agent and its first device code.
 */
@CommandHandler(CreateAgent)
export class CreateAgentHandler implements ICommandHandler<CreateAgent, AgentCreatedView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly customers: CustomersQuery,
    private readonly policyAccounts: PolicyAccounts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, input }: CreateAgent): Promise<AgentCreatedView> {
    const errors = [
      ...(await this.customerErrors(platformId, input.customerId)),
      ...(await this.policyAccounts.check(platformId, input.customerId, input.policy.accountRestrictions, 'policy.accountRestrictions')),
    ];
    if (errors.length > 0) throw new ValidationError(errors);
    const agentId = newId('Agent');
    const code = newDeviceCode();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.agents.deviceCodeLifetimeMs).toISOString();
    const result = await this.commands.handle(AGENT_STREAM, streamNameFor(agentId), {
      type: 'CreateAgent',
      agentId,
      platformId,
      customerId: input.customerId,
      name: input.name,
      policy: input.policy,
      codeHash: secretHash(code),
      codeExpiresAt: expiresAt,
      now: now.toISOString(),
    });
    return { agent: agentView(result.state as ExistingAgent, now), deviceCode: { code, agentId, expiresAt, redeemed: false } };
  }

  /** POST /agents declares no 404: an unknown, another platform's or a deleted customer is a bad field. */
  private async customerErrors(platformId: string, customerId: string): Promise<FieldError[]> {
    const customer = await this.customers.findById(platformId, customerId);
    if (!customer) return [{ field: 'customerId', constraint: {}, message: 'No customer with this id exists' }];
    if (customer.isDeleted) return [{ field: 'customerId', constraint: {}, message: 'The customer was deleted' }];
    return [];
  }
}
