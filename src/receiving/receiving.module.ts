import { Inject, Module, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AccountsModule } from '../accounts';
import { CustomersModule } from '../customers';
import { CommandStore } from '../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { streamNameFor } from '../infra/ids';
import { ReactorRegistry } from '../infra/infra.module';
import { TaskScheduler } from '../infra/queue/task-scheduler';
import { WebhookMappers, WebhooksModule, readStreamUpTo } from '../webhooks';
import { AskPaymentApproval, AskPaymentApprovalHandler } from './commands/ask-payment-approval';
import { CompleteIncomingRefund, CompleteIncomingRefundHandler } from './commands/complete-incoming-refund';
import { ApproveIncomingPaymentHandler, RejectIncomingPaymentHandler } from './commands/decide-incoming-payment';
import { ExpireIncomingApproval, ExpireIncomingApprovalHandler } from './commands/expire-incoming-approval';
import { ReceiveUmaPaymentHandler } from './commands/receive-uma-payment';
import { SettleIncomingPayment, SettleIncomingPaymentHandler } from './commands/settle-incoming-payment';
import { SandboxReceiveController } from './http/sandbox-receive.controller';
import { IncomingPaymentWebhookMapper } from './incoming-payment-webhooks';
import {
  ASK_APPROVAL_TASK, COMPLETE_INCOMING_REFUND_TASK, EXPIRE_APPROVAL_TASK, SETTLE_INCOMING_TASK, incomingPaymentsReactor,
} from './reactors/incoming-payments.reactor';
import { INCOMING_PAYMENT_STREAM } from './streams';

/**
 * Receiving money (issue 23, docs/receiving.md): incoming UMA payments to the platform's
 * customers, approved by the platform (webhook answer or API), credited through the accounts
 * context's ledger. Serves `POST /sandbox/uma/receive`; handles the accounts context's
 * approve/reject ports.
 */
@Module({
  imports: [AccountsModule, CustomersModule, WebhooksModule],
  controllers: [SandboxReceiveController],
  providers: [
    ReceiveUmaPaymentHandler,
    AskPaymentApprovalHandler,
    ApproveIncomingPaymentHandler,
    RejectIncomingPaymentHandler,
    ExpireIncomingApprovalHandler,
    SettleIncomingPaymentHandler,
    CompleteIncomingRefundHandler,
  ],
})
export class ReceivingModule implements OnModuleInit {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly commands: CommandStore,
    private readonly events: EventStoreService,
    private readonly reactors: ReactorRegistry,
    private readonly tasks: TaskScheduler,
    private readonly webhookMappers: WebhookMappers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const behaviourOf = async (transactionId: string) => {
      const { state } = await this.commands.load(INCOMING_PAYMENT_STREAM, streamNameFor(transactionId));
      return state.status === 'none' ? null : state.senderBehaviour;
    };
    this.reactors.register(incomingPaymentsReactor(this.tasks, this.config, behaviourOf));
    this.tasks.register(ASK_APPROVAL_TASK, (payload) =>
      this.commandBus.execute(new AskPaymentApproval(payload.subjectId, Number(payload.round), payload.causationId, String(payload.occurredAt))),
    );
    this.tasks.register(EXPIRE_APPROVAL_TASK, (payload) => this.commandBus.execute(new ExpireIncomingApproval(payload.subjectId)));
    this.tasks.register(SETTLE_INCOMING_TASK, (payload) => this.commandBus.execute(new SettleIncomingPayment(payload.subjectId)));
    this.tasks.register(COMPLETE_INCOMING_REFUND_TASK, (payload) => this.commandBus.execute(new CompleteIncomingRefund(payload.subjectId)));
    this.webhookMappers.register(new IncomingPaymentWebhookMapper((event) => readStreamUpTo(this.events, event)));
  }
}
