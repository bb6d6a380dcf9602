import { Module, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../infra/domain/domain-error';
import { AccountsModule } from '../accounts';
import { CustomersModule } from '../customers';
import { ReactorRegistry } from '../infra/infra.module';
import { TaskScheduler } from '../infra/queue/task-scheduler';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { PlatformsModule } from '../platforms';
import { ScaModule } from '../sca';
import { ScaSubjectHooks } from '../sca';
import { WebhookMappers } from '../webhooks';
import { WalletQuoteSignatureVerifier } from '../wallet-auth';
import { WalletAuthModule } from '../wallet-auth';
import { WebhooksModule } from '../webhooks';
import { readStreamUpTo } from '../webhooks';
import { quoteAuthorizationReactor } from './authorization/quote-authorization.reactor';
import { AuthorizeQuoteHandler } from './commands/authorize-quote';
import { CancelQuotePaymentHandler } from './commands/cancel-quote-payment';
import { ConfirmQuotePaymentReceiptHandler } from './commands/confirm-quote-payment-receipt';
import { CreateQuoteHandler } from './commands/create-quote';
import { ExecuteQuoteHandler } from './commands/execute-quote';
import { ExpireQuote, ExpireQuoteHandler } from './commands/expire-quote';
import { FailQuoteAuthorization, FailQuoteAuthorizationHandler } from './commands/fail-quote-authorization';
import { FundRealtimeQuoteHandler } from './commands/fund-realtime-quote';
import { LookUpReceiverHandler } from './commands/look-up-receiver';
import { OpenQuoteChallengesHandler } from './commands/open-quote-challenges';
import { QuoteExecutionSteps } from './commands/quote-execution-steps';
import { QUOTE_SCA_SUBJECT, QuoteSca } from './commands/quote-sca';
import { RecordQuoteChallenge, RecordQuoteChallengeHandler } from './commands/record-quote-challenge';
import { ReleaseQuoteAuthorization, ReleaseQuoteAuthorizationHandler } from './commands/release-quote-authorization';
import { ResendQuoteChallengeHandler } from './commands/resend-quote-challenge';
import { ResumeQuoteExecution, ResumeQuoteExecutionHandler } from './commands/resume-quote-execution';
import { SettleQuoteRefund, SettleQuoteRefundHandler } from './commands/settle-quote-refund';
import { SettleQuoteStep, SettleQuoteStepHandler } from './commands/settle-quote-step';
import { VoidRejectedQuoteHoldHandler } from './commands/void-rejected-quote-hold';
import { QuoteLookup } from './creation/quote-lookup';
import { QuoteParties } from './creation/quote-parties';
import { ExchangeRatesModule } from './exchange-rates.module';
import { QUOTE_EXECUTION_SIGNATURE_VERIFIER } from './execution/quote-execution-signature';
import { QuoteAuthorizationController } from './http/quote-authorization.controller';
import { QuotesController } from './http/quotes.controller';
import { ReceiverLookupsController } from './http/receiver-lookups.controller';
import { SandboxSendController } from './http/sandbox-send.controller';
import { QuotesQuery } from './queries/quotes.query';
import { QuoteStore } from './quote-store';
import { QuoteWebhookMapper } from './quote-webhooks';
import { EXPIRE_QUOTE_TASK, RESUME_EXECUTION_TASK, SETTLE_QUOTE_REFUND_TASK, SETTLE_QUOTE_TASK, quoteProcessReactor } from './reactors/quote-process.reactor';
import { QuoteSettlementSchedule } from './settlement/quote-settlement-schedule';

/**
 * Quotes and their execution (issue 4): creation priced on a locked rate snapshot, execute with
 * its ledger hold, expiry, sandbox settlement, `POST /sandbox/send` for REALTIME_FUNDING quotes,
 * the outgoing transaction behind each quote (in the `transactions` read model) and its
 * OUTGOING_PAYMENT.* webhooks; the receiver lookups a quote may name (issue 23). Every state change is a command in `commands/`, sent through the
 * CommandBus by the controllers, the tasks, the reactors and the SCA hooks.
 *
 * QUOTE_EXECUTION_SIGNATURE_VERIFIER checks `Service-Wallet-Signature` for EMBEDDED_WALLET
 * sources: the embedded-wallet context's WalletQuoteSignatureVerifier, which also requires the key
 * to be a live session key of the wallet.
 */
@Module({
  imports: [AccountsModule, CustomersModule, PlatformsModule, ExchangeRatesModule, WebhooksModule, WalletAuthModule, ScaModule],
  controllers: [QuotesController, QuoteAuthorizationController, SandboxSendController, ReceiverLookupsController],
  providers: [
    CreateQuoteHandler,
    ExecuteQuoteHandler,
    AuthorizeQuoteHandler,
    ResendQuoteChallengeHandler,
    RecordQuoteChallengeHandler,
    ReleaseQuoteAuthorizationHandler,
    FailQuoteAuthorizationHandler,
    OpenQuoteChallengesHandler,
    ResumeQuoteExecutionHandler,
    VoidRejectedQuoteHoldHandler,
    ExpireQuoteHandler,
    SettleQuoteStepHandler,
    SettleQuoteRefundHandler,
    FundRealtimeQuoteHandler,
    LookUpReceiverHandler,
    // The accounts context's ports for `POST /transactions/{id}/cancel` and `/confirm` on a quote's payment.
    CancelQuotePaymentHandler,
    ConfirmQuotePaymentReceiptHandler,
    QuoteStore,
    QuoteParties,
    QuoteLookup,
    QuoteSca,
    QuoteExecutionSteps,
    QuoteSettlementSchedule,
    QuotesQuery,
    // The embedded-wallet context's verifier: the signature must come from a live session key of the source wallet.
    { provide: QUOTE_EXECUTION_SIGNATURE_VERIFIER, useExisting: WalletQuoteSignatureVerifier },
  ],
  exports: [QuotesQuery, QuoteStore],
})
export class QuotesModule implements OnModuleInit {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly store: QuoteStore,
    private readonly schedule: QuoteSettlementSchedule,
    private readonly reactors: ReactorRegistry,
    private readonly tasks: TaskScheduler,
    private readonly events: EventStoreService,
    private readonly webhookMappers: WebhookMappers,
    private readonly scaHooks: ScaSubjectHooks,
  ) {}

  onModuleInit(): void {
    this.reactors.register(quoteProcessReactor(this.store, this.commandBus, this.schedule, this.tasks));
    this.reactors.register(quoteAuthorizationReactor(this.store, this.commandBus, this.tasks));
    // SCA (issue 6): what the challenge sequences of quotes do to them.
    this.scaHooks.register(QUOTE_SCA_SUBJECT, {
      onChallengeIssued: async (data, challenge) => {
        await this.commandBus.execute(new RecordQuoteChallenge(data.subject.id, data.sequenceId, challenge));
      },
      onCompleted: async (data) => {
        await this.commandBus.execute(new ReleaseQuoteAuthorization(data.subject.id, data.sequenceId)).catch((error) => {
          // A refused hold is the quote's own outcome (PENDING again), not a failure of this step.
          if (!(error instanceof DomainError)) throw error;
        });
      },
      onFailed: (data) => this.commandBus.execute(new FailQuoteAuthorization(data.subject.id, data.sequenceId, data.reason)),
    });
    this.tasks.register(EXPIRE_QUOTE_TASK, (payload) => this.commandBus.execute(new ExpireQuote(payload.subjectId)));
    this.tasks.register(SETTLE_QUOTE_TASK, (payload) => this.commandBus.execute(new SettleQuoteStep(payload.subjectId, Number(payload.step))));
    this.tasks.register(SETTLE_QUOTE_REFUND_TASK, (payload) => this.commandBus.execute(new SettleQuoteRefund(payload.subjectId)));
    this.tasks.register(RESUME_EXECUTION_TASK, (payload) => this.commandBus.execute(new ResumeQuoteExecution(payload.subjectId)));
    // OUTGOING_PAYMENT.<STATUS> with the quote's transaction as GET showed it right after the event.
    this.webhookMappers.register(new QuoteWebhookMapper((event) => readStreamUpTo(this.events, event)));
  }
}
