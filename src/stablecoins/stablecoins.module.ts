import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AccountsModule } from '../accounts';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { ReactorRegistry } from '../infra/infra.module';
import { TaskScheduler } from '../infra/queue/task-scheduler';
import { AdvanceStablecoinOperation, AdvanceStablecoinOperationHandler, ProviderStep } from './commands/advance-stablecoin-operation';
import { CreateStablecoinOperationHandler } from './commands/create-stablecoin-operation';
import { LinkStablecoinProviderAccountHandler } from './commands/link-provider-account';
import { OperationCommits, STABLECOIN_OPEN_CHECK_TASK } from './commands/operation-commits';
import { OperationPlanner } from './commands/operation-plans';
import { ProviderAccountLinks } from './commands/provider-account-links';
import { RecordProviderVerdict, RecordProviderVerdictHandler } from './commands/record-provider-verdict';
import { RegisterStablecoinHandler } from './commands/register-stablecoin';
import { StablecoinOperationsController } from './http/stablecoin-operations.controller';
import { StablecoinProviderAccountsController } from './http/stablecoin-provider-accounts.controller';
import { StablecoinsController } from './http/stablecoins.controller';
import { StablecoinsQuery } from './queries/stablecoins.query';
import { STABLECOIN_LINK_TASK, STABLECOIN_STEP_TASKS, stablecoinProviderReactor } from './reactors/stablecoin-provider.reactor';

/**
 * Stablecoin issuance (issue 28; docs/stablecoins.md): provider account links, registered coins
 * and their supply, mints and burns driven by the (sandbox) provider, holds and credits through
 * the accounts context's ledger. The reference defines no stablecoin webhook, so none is sent;
 * every state change is an event, shown by `GET /audit/events`.
 */
@Module({
  imports: [AccountsModule],
  controllers: [StablecoinProviderAccountsController, StablecoinsController, StablecoinOperationsController],
  providers: [
    LinkStablecoinProviderAccountHandler,
    RecordProviderVerdictHandler,
    RegisterStablecoinHandler,
    CreateStablecoinOperationHandler,
    AdvanceStablecoinOperationHandler,
    ProviderAccountLinks,
    OperationPlanner,
    OperationCommits,
    StablecoinsQuery,
  ],
})
export class StablecoinsModule implements OnModuleInit {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly reactors: ReactorRegistry,
    private readonly tasks: TaskScheduler,
    private readonly commits: OperationCommits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.reactors.register(stablecoinProviderReactor(this.tasks, this.config));
    this.tasks.register(STABLECOIN_OPEN_CHECK_TASK, (payload) =>
      this.commits.recoverOpening({
        platformId: payload.platformId as string,
        operationId: payload.subjectId,
        stablecoinId: payload.stablecoinId as string,
        holdAccountId: (payload.holdAccountId as string | null) ?? null,
      }),
    );
    this.tasks.register(STABLECOIN_LINK_TASK, (payload) => this.commandBus.execute(new RecordProviderVerdict(payload.subjectId)));
    for (const [step, taskName] of Object.entries(STABLECOIN_STEP_TASKS) as Array<[ProviderStep, string]>) {
      this.tasks.register(taskName, (payload) => this.commandBus.execute(new AdvanceStablecoinOperation(payload.subjectId, step)));
    }
  }
}
