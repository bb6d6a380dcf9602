import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { streamNameFor } from '../../infra/ids';
import { payerDataFor } from '../../sandbox';
import { AnsweredWebhooks } from '../../webhooks';
import { isApprovalAnswer, readApprovalAnswer } from '../domain/approval-answer';
import { IncomingPaymentCommand, IncomingPaymentState } from '../domain/incoming-payment.decider';
import { INCOMING_PAYMENT_STREAM } from '../streams';
import { SettleIncomingPayment } from './settle-incoming-payment';
import { wireIncomingPayment } from './wire-incoming-payment';

/**
 * Asks the platform to approve an incoming payment: the INCOMING_PAYMENT.PENDING webhook of
 * approval round `round`, sent now, its answer recorded. A task sends it (the `incoming-payments`
 * reactor, from the event that opened the round); a rerun after a crash asks again (same
 * webhook id) unless the round was answered.
 */
export class AskPaymentApproval extends Command<void> {
  constructor(
    readonly transactionId: string,
    readonly round: number,
    /** The event that opened the round, and when it happened (the webhook's id and timestamp). */
    readonly sourceEventId: string,
    readonly occurredAt: string,
  ) {
    super();
  }
}

type Awaiting = Exclude<IncomingPaymentState, { status: 'none' }>;

@CommandHandler(AskPaymentApproval)
export class AskPaymentApprovalHandler implements ICommandHandler<AskPaymentApproval, void> {
  constructor(
    private readonly commands: CommandStore,
    private readonly webhooks: AnsweredWebhooks,
    private readonly commandBus: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ transactionId, round, sourceEventId, occurredAt }: AskPaymentApproval): Promise<void> {
    const stream = streamNameFor(transactionId);
    const loaded = await this.commands.load(INCOMING_PAYMENT_STREAM, stream);
    const { state } = loaded;
    if (state.status !== 'AWAITING_APPROVAL' || state.round !== round) return;
    const answer = await this.webhooks.ask({
      platformId: state.platformId,
      type: 'INCOMING_PAYMENT.PENDING',
      sourceEventId,
      occurredAt: new Date(occurredAt),
      key: `round-${round}`,
      data: approvalRequestData(loaded.recorded, state),
      isAnswer: isApprovalAnswer,
    });
    const now = new Date();
    const command: IncomingPaymentCommand =
      answer.endpoint === null
        ? // Nobody to ask: the platform may still decide by API within the window.
          { type: 'DeferApproval', round, approvalDeadline: this.windowFrom(now), now: now.toISOString() }
        : this.commandFor(state, round, readApprovalAnswer(answer.statusCode, answer.body, answer.error), now);
    const handled = await this.commands.handle(INCOMING_PAYMENT_STREAM, stream, command);
    if (handled.events.some((event) => event.type === 'IncomingPaymentApproved') && state.senderBehaviour === 'SUCCESS') {
      await this.commandBus.execute(new SettleIncomingPayment(transactionId));
    }
  }

  private commandFor(state: Awaiting, round: number, answer: ReturnType<typeof readApprovalAnswer>, now: Date): IncomingPaymentCommand {
    const at = now.toISOString();
    switch (answer.kind) {
      case 'APPROVE':
        return { type: 'ApprovePayment', round, receiverCustomerInfo: answer.receiverCustomerInfo, via: 'WEBHOOK', now: at };
      case 'DEFER':
        return { type: 'DeferApproval', round, approvalDeadline: this.windowFrom(now), now: at };
      case 'REJECT':
        return { type: 'RejectPayment', round, reason: answer.reason, via: 'WEBHOOK', now: at };
      case 'MORE_INFORMATION':
        return {
          type: 'RequestCounterpartyInformation',
          round,
          requiredFields: answer.requiredFields,
          provided: payerDataFor(state.senderUmaAddress, answer.requiredFields),
          // The next request gets the HTTP timeout and the window again.
          approvalDeadline: new Date(now.getTime() + this.config.webhooks.timeoutMs + this.config.incomingPayments.approvalWindowMs).toISOString(),
          now: at,
        };
      case 'ERROR':
        return { type: 'FailApproval', round, failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR', now: at };
    }
  }

  private windowFrom(now: Date): string {
    return new Date(now.getTime() + this.config.incomingPayments.approvalWindowMs).toISOString();
  }
}

/** The webhook's data: the transaction as GET shows it, and the receiver fields the payer asks for. */
function approvalRequestData(events: Array<{ type: string; data: unknown }>, state: Awaiting): Record<string, unknown> {
  const wire = wireIncomingPayment(events, state.platformId);
  return state.requestedReceiverCustomerInfoFields.length > 0 ? { ...wire, requestedReceiverCustomerInfoFields: state.requestedReceiverCustomerInfoFields } : wire;
}
