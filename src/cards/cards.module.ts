import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CustomersModule } from '../customers/customers.module';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { ReactorRegistry } from '../infra/infra.module';
import { TaskScheduler } from '../infra/queue/task-scheduler';
import { CardsService } from './cards.service';
import { CardsController } from './http/cards.controller';
import { CardsQuery } from './queries/cards.query';
import { CARD_ISSUER_DECISION_TASK, cardIssuanceReactor } from './reactors/card-issuance.reactor';

/**
 * Cards (issue 8; SPEC.md "Card state", DECISIONS.md sections 5 and 7): issuance for KYC-approved
 * cardholders funded by their internal accounts, the state machine, funding-source and spend-limit
 * updates. Uses the customers and accounts contexts only through their exported queries.
 */
@Module({
  imports: [CustomersModule, AccountsModule],
  controllers: [CardsController],
  providers: [CardsService, CardsQuery],
  exports: [CardsQuery],
})
export class CardsModule implements OnModuleInit {
  constructor(
    private readonly cards: CardsService,
    private readonly reactors: ReactorRegistry,
    private readonly tasks: TaskScheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.reactors.register(cardIssuanceReactor(this.tasks, this.config));
    this.tasks.register(CARD_ISSUER_DECISION_TASK, (payload) => this.cards.applyIssuerDecision(payload.subjectId));
  }
}
