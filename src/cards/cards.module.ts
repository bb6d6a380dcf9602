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
import { cardWebhookMapper } from './card-webhooks';
import { CardFundingSources } from './commands/card-funding-sources';
import { IssueCardHandler } from './commands/issue-card';
import { RecordIssuerDecision, RecordIssuerDecisionHandler } from './commands/record-issuer-decision';
import { UpdateCardHandler } from './commands/update-card';
import { CardsController } from './http/cards.controller';
import { CardsQuery } from './queries/cards.query';
import { CARD_ISSUER_DECISION_TASK, cardIssuanceReactor } from './reactors/card-issuance.reactor';

/**
 * Cards (issue 8; SPEC.md "Card state", DECISIONS.md sections 5 and 7): issuance for KYC-approved
 * cardholders funded by their internal accounts, the state machine, funding-source and spend-limit
 * updates, `CARD.STATE_CHANGE` webhooks. Uses the customers and accounts contexts only through
 * their exported queries, and the webhooks context through its mapper registry.
 */
@Module({
  imports: [CustomersModule, AccountsModule, WebhooksModule],
  controllers: [CardsController],
  providers: [IssueCardHandler, UpdateCardHandler, RecordIssuerDecisionHandler, CardFundingSources, CardsQuery],
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
    this.webhookMappers.register(cardWebhookMapper(this.events));
  }
}
