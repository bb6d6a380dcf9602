import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AccountsModule } from '../accounts';
import { CustomersModule } from '../customers';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { ReactorRegistry } from '../infra/infra.module';
import { TaskScheduler } from '../infra/queue/task-scheduler';
import { WebhookMappers } from '../webhooks';
import { WebhooksModule } from '../webhooks';
import { WalletAuthModule } from '../wallet-auth';
import { cardTransactionWebhookMapper, cardWebhookMapper } from './card-webhooks';
import { CardFundingSources } from './commands/card-funding-sources';
import { IssueCardHandler } from './commands/issue-card';
import { RecordIssuerDecision, RecordIssuerDecisionHandler } from './commands/record-issuer-decision';
import { UpdateCardHandler } from './commands/update-card';
import { CardRevealTokens } from './commands/card-reveal-token';
import { CardRevealPages, RevealCardHandler } from './commands/reveal-card';
import { CardEmbedController } from './http/card-embed.controller';
import { CardRevealController } from './http/card-reveal.controller';
import { CardsController } from './http/cards.controller';
import { CardSimulationsController } from './http/card-simulations.controller';
import { AdviseCardAuthorizationHandler } from './commands/card-transaction-advise';
import { AuthorizeCardTransactionHandler } from './commands/card-transaction-authorize';
import { AnswerCardBalanceInquiryHandler } from './commands/card-transaction-balance-inquiry';
import { ClearCardTransactionHandler } from './commands/card-transaction-clear';
import { CardTransactionWriter } from './commands/card-transaction-commit';
import { ConfirmCardPull, ConfirmCardPullHandler } from './commands/card-transaction-confirm-pull';
import { CardFundingAccounts } from './commands/card-transaction-funding';
import { ReturnCardTransactionHandler } from './commands/card-transaction-return';
import { ReverseCardReturnHandler } from './commands/card-transaction-reverse';
import { CARD_PULL_CONFIRMATION_TASK, cardPullConfirmationReactor } from './reactors/card-pull-confirmation';
import { CardsQuery } from './queries/cards.query';
import { CARD_ISSUER_DECISION_TASK, cardIssuanceReactor } from './reactors/card-issuance.reactor';

/** Card transactions (issue 27): the sandbox simulations' handlers and what they share. */
const CARD_TRANSACTION_PROVIDERS = [
  CardTransactionWriter,
  CardFundingAccounts,
  AuthorizeCardTransactionHandler,
  AnswerCardBalanceInquiryHandler,
  ClearCardTransactionHandler,
  AdviseCardAuthorizationHandler,
  ReturnCardTransactionHandler,
  ReverseCardReturnHandler,
  ConfirmCardPullHandler,
];

/**
 * Cards (issue 8; SPEC.md "Card state", DECISIONS.md sections 5 and 7): issuance for KYC-approved
 * cardholders funded by their internal accounts, the state machine, funding-source and spend-limit
 * updates, `CARD.STATE_CHANGE` webhooks. Uses the customers and accounts contexts only through
 * their exported queries, and the webhooks context through its mapper registry.
 */
@Module({
  imports: [CustomersModule, AccountsModule, WebhooksModule, WalletAuthModule],
  controllers: [CardsController, CardRevealController, CardEmbedController, CardSimulationsController],
  providers: [IssueCardHandler, UpdateCardHandler, RecordIssuerDecisionHandler, CardFundingSources, CardsQuery, RevealCardHandler, CardRevealTokens, CardRevealPages,
    ...CARD_TRANSACTION_PROVIDERS],
  exports: [CardsQuery],
})
export class CardsModule implements OnModuleInit {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly reactors: ReactorRegistry,
    private readonly tasks: TaskScheduler,
    private readonly events: EventStoreService,
    private readonly webhookMappers: WebhookMappers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.reactors.register(cardIssuanceReactor(this.tasks, this.config));
    this.tasks.register(CARD_ISSUER_DECISION_TASK, (payload) => this.commandBus.execute(new RecordIssuerDecision(payload.subjectId)));
    this.reactors.register(cardPullConfirmationReactor(this.tasks, this.config));
    this.tasks.register(CARD_PULL_CONFIRMATION_TASK, (payload) => this.commandBus.execute(new ConfirmCardPull(payload.subjectId)));
    this.webhookMappers.register(cardWebhookMapper(this.events));
    this.webhookMappers.register(cardTransactionWebhookMapper(this.events));
  }
}
