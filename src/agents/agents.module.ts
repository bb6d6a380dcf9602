import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { CommandBus } from '@nestjs/cqrs';
import { Pool } from 'pg';
import { AuditModule, AuditResourceLocators } from '../audit';
import { ReactorRegistry } from '../infra/infra.module';
import { PG_POOL } from '../infra/postgres/pool';
import { READ_MODEL_WAITER, ReadModelWaiter } from '../infra/projections/read-model-waiter';
import { TaskScheduler } from '../infra/queue/task-scheduler';
import { QuotesModule } from '../quotes';
import { WebhookMappers, WebhooksModule } from '../webhooks';
import { agentActionWebhookMapper } from './agent-action-webhooks';
import { AgentActionRequests } from './commands/agent-action-requests';
import { AgentActionRunner } from './commands/agent-action-runner';
import { ApproveAgentTransactionHandler, RejectAgentTransactionHandler } from './commands/agent-transaction-ports';
import { CreateAgentQuoteHandler } from './commands/create-agent-quote';
import { ApproveAgentActionHandler, RejectAgentActionHandler } from './commands/decide-agent-action';
import { RecoverAgentAction, RecoverAgentActionHandler } from './commands/recover-agent-action';
import { SubmitAgentActionHandler } from './commands/submit-agent-action';
import { AgentActionsController } from './http/agent-actions.controller';
import { AgentQuotesController } from './http/agent-quotes.controller';
import { AgentTransfersController } from './http/agent-transfers.controller';
import { ApprovalsController } from './http/approvals.controller';
import { agentActionAuditLocator } from './queries/agent-action-audit-locator';
import { AgentActionViews } from './queries/agent-action-views';
import { AgentActionsQuery } from './queries/agent-actions.query';
import { AccountsModule } from '../accounts';
import { CustomersModule, CustomersQuery } from '../customers';
import { CreateAgentHandler } from './commands/create-agent';
import { DeleteAgentHandler } from './commands/delete-agent';
import { PolicyAccounts } from './commands/policy-accounts';
import { RedeemAttempts } from './commands/redeem-attempts';
import { RedeemDeviceCodeHandler } from './commands/redeem-device-code';
import { RegenerateDeviceCodeHandler } from './commands/regenerate-device-code';
import { UpdateAgentHandler } from './commands/update-agent';
import { UpdateAgentPolicyHandler } from './commands/update-agent-policy';
import { AgentAccountsController } from './http/agent-accounts.controller';
import { AgentAuthGuard } from './http/agent-auth.guard';
import { AgentMeController } from './http/agent-me.controller';
import { AgentScopes } from './http/agent-scope';
import { AgentTransactionsController } from './http/agent-transactions.controller';
import { AgentsController } from './http/agents.controller';
import { DeviceCodesController } from './http/device-codes.controller';
import { AgentAccountsQuery } from './queries/agent-accounts.query';
import { AgentTransactionsQuery } from './queries/agent-transactions.query';
import { AgentsQuery } from './queries/agents.query';
import { SETTLE_AGENT_ACTION_TASK, agentActionProcessReactor } from './reactors/agent-action-process.reactor';
import { customerAgentsReactor } from './reactors/customer-agents.reactor';

/**
 * Agents (issue 26, docs/agents.md): software acting for one customer of a platform within a
 * policy. Management with platform credentials, installation by device code, the agent's own
 * Bearer-authenticated API. Uses the customers and accounts contexts through their queries.
 * Controllers are listed most specific first: `/agents/me` and `/agents/device-codes/...` before
 * `/agents/{agentId}`.
 */
@Module({
  imports: [CustomersModule, AccountsModule, QuotesModule, WebhooksModule, AuditModule],
  controllers: [AgentMeController, AgentQuotesController, AgentTransfersController, AgentActionsController, ApprovalsController, AgentAccountsController, AgentTransactionsController, DeviceCodesController, AgentsController],
  providers: [
    CreateAgentHandler,
    UpdateAgentHandler,
    DeleteAgentHandler,
    UpdateAgentPolicyHandler,
    RegenerateDeviceCodeHandler,
    RedeemDeviceCodeHandler,
    PolicyAccounts,
    RedeemAttempts,
    AgentsQuery,
    AgentAuthGuard,
    SubmitAgentActionHandler,
    CreateAgentQuoteHandler,
    ApproveAgentActionHandler,
    RejectAgentActionHandler,
    RecoverAgentActionHandler,
    ApproveAgentTransactionHandler,
    RejectAgentTransactionHandler,
    AgentActionRequests,
    AgentActionRunner,
    AgentActionViews,
    AgentActionsQuery,
    AgentScopes,
    AgentAccountsQuery,
    AgentTransactionsQuery,
  ],
  exports: [AgentsQuery],
})
export class AgentsModule implements OnModuleInit {
  constructor(
    private readonly redeemAttempts: RedeemAttempts,
    private readonly webhookMappers: WebhookMappers,
    private readonly auditLocators: AuditResourceLocators,
    private readonly actionViews: AgentActionViews,
    private readonly reactors: ReactorRegistry,
    private readonly tasks: TaskScheduler,
    private readonly commandBus: CommandBus,
    private readonly agents: AgentsQuery,
    private readonly customers: CustomersQuery,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.redeemAttempts.ensureSchema();
    this.webhookMappers.register(agentActionWebhookMapper(this.actionViews));
    this.auditLocators.register(agentActionAuditLocator(this.pool));
    this.reactors.register(agentActionProcessReactor(this.tasks, this.config.agents.actionSettleDelayMs));
    this.tasks.register(SETTLE_AGENT_ACTION_TASK, (payload) => this.commandBus.execute(new RecoverAgentAction(String(payload.agentId), payload.subjectId)));
    this.reactors.register(customerAgentsReactor(this.commandBus, this.agents, this.customers, this.waiter));
  }
}
