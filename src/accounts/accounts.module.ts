import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CustomerLifecycleHooks } from '../customers';
import { CustomersModule } from '../customers';
import { CustomersQuery } from '../customers';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { CommandStore } from '../infra/commands/command-store';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { ReactorRegistry } from '../infra/infra.module';
import { READ_MODEL_WAITER, ReadModelWaiter } from '../infra/projections/read-model-waiter';
import { TaskScheduler } from '../infra/queue/task-scheduler';
import { PlatformsModule } from '../platforms';
import { ScaModule } from '../sca';
import { readStreamUpTo } from '../webhooks';
import { WebhookMappers } from '../webhooks';
import { WebhooksModule } from '../webhooks';
import { AccountStatusWebhookMapper } from './account-status-webhooks';
import { AccountWebhookMapper } from './account-webhooks';
import { AdvanceTransferOutHandler } from './commands/advance-transfer-out';
import { ApproveTransactionHandler, RejectTransactionHandler } from './commands/approve-transaction';
import { CancelTransactionHandler } from './commands/cancel-transaction';
import { CancelTransferHandler } from './commands/cancel-transfer';
import { CloseCustomerAccountsHandler } from './commands/close-customer-accounts';
import { ConfirmReceiptDeliveryHandler } from './commands/confirm-receipt-delivery';
import { ConfirmTrustChangeHandler } from './commands/confirm-trust-change';
import { CreateExternalAccountHandler } from './commands/create-external-account';
import { DeleteExternalAccountHandler } from './commands/delete-external-account';
import { FundInternalAccountHandler } from './commands/fund-internal-account';
import { IssueOwnershipChallengeHandler } from './commands/issue-ownership-challenge';
import { OpenCustomerAccounts, OpenCustomerAccountsHandler } from './commands/open-customer-accounts';
import { OpenPlatformAccountsHandler } from './commands/open-platform-accounts';
import { RecordSandboxFundingHandler } from './commands/record-sandbox-funding';
import { ResolveBeneficiaryCheck, ResolveBeneficiaryCheckHandler } from './commands/resolve-beneficiary-check';
import { ResolveLivenessCheck, ResolveLivenessCheckHandler } from './commands/resolve-liveness-check';
import { SettleTransfer, SettleTransferHandler } from './commands/settle-transfer';
import { StartTrustChangeHandler } from './commands/start-trust-change';
import { TransferAnswers } from './commands/transfer-answers';
import { TransferInHandler } from './commands/transfer-in';
import { TransferOutHandler } from './commands/transfer-out';
import { TransferPartiesResolver } from './commands/transfer-parties';
import { VerifyOwnershipHandler } from './commands/verify-ownership';
import { ExternalAccountsController } from './http/external-accounts.controller';
import { InternalAccountsController } from './http/internal-accounts.controller';
import { PlatformAccountsController } from './http/platform-accounts.controller';
import { SandboxFundingController } from './http/sandbox-funding.controller';
import { TransactionsController } from './http/transactions.controller';
import { TransfersController } from './http/transfers.controller';
import { AccountsLedger } from './ledger/accounts-ledger';
import { InternalAccountProvisioner } from './provisioning/internal-account-provisioner';
import { ExternalAccountsQuery } from './queries/external-accounts.query';
import { InternalAccountsQuery } from './queries/internal-accounts.query';
import { TransactionsQuery } from './queries/transactions.query';
import { RESOLVE_BENEFICIARY_CHECK_TASK, beneficiaryCheckReactor } from './reactors/beneficiary-check.reactor';
import { customerAccountClosureReactor } from './reactors/customer-account-closure.reactor';
import { customerCurrencyAccountsReactor } from './reactors/customer-currency-accounts.reactor';
import { RESOLVE_LIVENESS_CHECK_TASK, livenessCheckReactor } from './reactors/liveness-check.reactor';
import { platformAccountsReactor } from './reactors/platform-accounts.reactor';
import { SETTLE_TRANSFER_TASK, transferProcessReactor } from './reactors/transfer-process.reactor';

/**
 * Internal accounts and their ledger, external accounts (a customer's or the platform's own, with
 * ownership verification), same-currency transfers and the transactions read side. Exports the cross-context contracts: AccountsLedger,
 * InternalAccountsQuery, ExternalAccountsQuery, TransactionsQuery. The sandbox funding route
 * (`POST /sandbox/internal-accounts/{id}/fund`) lives here: it is a transfer in.
 */
@Module({
  imports: [CustomersModule, PlatformsModule, WebhooksModule, ScaModule],
  controllers: [
    InternalAccountsController,
    ExternalAccountsController,
    PlatformAccountsController,
    TransfersController,
    TransactionsController,
    SandboxFundingController,
  ],
  providers: [
    AccountsLedger,
    InternalAccountProvisioner,
    InternalAccountsQuery,
    ExternalAccountsQuery,
    TransactionsQuery,
    CreateExternalAccountHandler,
    DeleteExternalAccountHandler,
    StartTrustChangeHandler,
    ConfirmTrustChangeHandler,
    ResolveBeneficiaryCheckHandler,
    IssueOwnershipChallengeHandler,
    VerifyOwnershipHandler,
    ResolveLivenessCheckHandler,
    TransferOutHandler,
    TransferInHandler,
    AdvanceTransferOutHandler,
    SettleTransferHandler,
    FundInternalAccountHandler,
    RecordSandboxFundingHandler,
    ApproveTransactionHandler,
    RejectTransactionHandler,
    CancelTransactionHandler,
    CancelTransferHandler,
    CloseCustomerAccountsHandler,
    ConfirmReceiptDeliveryHandler,
    OpenCustomerAccountsHandler,
    OpenPlatformAccountsHandler,
    TransferPartiesResolver,
    TransferAnswers,
  ],
  exports: [AccountsLedger, InternalAccountsQuery, ExternalAccountsQuery, TransactionsQuery],
})
export class AccountsModule implements OnModuleInit {
  constructor(
    private readonly provisioner: InternalAccountProvisioner,
    private readonly commandBus: CommandBus,
    private readonly hooks: CustomerLifecycleHooks,
    private readonly reactors: ReactorRegistry,
    private readonly tasks: TaskScheduler,
    private readonly events: EventStoreService,
    private readonly commands: CommandStore,
    private readonly webhookMappers: WebhookMappers,
    private readonly customers: CustomersQuery,
    private readonly internalAccounts: InternalAccountsQuery,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // Opened in the POST /customers request (so its answer and the read models include them),
    // and again by the customer-lifecycle reactor after a crash: deterministic ids make it once.
    this.hooks.onCustomerCreated('internal-accounts', (customer) =>
      this.commandBus.execute(new OpenCustomerAccounts(customer.platformId, customer.customerId, null, customer.createdAt)),
    );
    this.reactors.register(platformAccountsReactor(this.commandBus));
    this.reactors.register(customerCurrencyAccountsReactor(this.provisioner, this.commandBus, this.customers, this.waiter));
    this.reactors.register(transferProcessReactor(this.commands, this.commandBus, this.tasks, this.config));
    this.tasks.register(SETTLE_TRANSFER_TASK, (payload) => this.commandBus.execute(new SettleTransfer(payload.subjectId)));
    this.reactors.register(beneficiaryCheckReactor(this.tasks, this.config));
    this.tasks.register(RESOLVE_BENEFICIARY_CHECK_TASK, (payload) => this.commandBus.execute(new ResolveBeneficiaryCheck(payload.subjectId)));
    this.reactors.register(livenessCheckReactor(this.tasks, this.config));
    this.tasks.register(RESOLVE_LIVENESS_CHECK_TASK, (payload) => this.commandBus.execute(new ResolveLivenessCheck(payload.subjectId, String(payload.nonce))));
    this.reactors.register(customerAccountClosureReactor(this.commandBus));
    this.webhookMappers.register(
      new AccountWebhookMapper(
        (event) => readStreamUpTo(this.events, event),
        async (streamName) => (await this.events.store.readStream(streamName, { maxCount: 1 }))[0],
        async (platformId, accountId) => (await this.internalAccounts.findDetails(platformId, accountId))?.privateEnabled,
      ),
    );
    this.webhookMappers.register(
      new AccountStatusWebhookMapper(
        (event) => readStreamUpTo(this.events, event),
        async (platformId, accountId) => (await this.internalAccounts.findDetails(platformId, accountId))?.privateEnabled,
      ),
    );
  }
}
