import { Injectable } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApproveIncomingPayment, RejectIncomingPayment, WireTransaction } from '../../accounts';
import { CommandStore } from '../../infra/commands/command-store';
import { parseId, streamNameFor } from '../../infra/ids';
import { IncomingPaymentCommand, IncomingPaymentState } from '../domain/incoming-payment.decider';
import { INCOMING_PAYMENT_STREAM } from '../streams';
import { SettleIncomingPayment } from './settle-incoming-payment';
import { wireIncomingPayment } from './wire-incoming-payment';

/**
 * The platform's API decision on an incoming payment (after a 202, or before its webhook answer
 * arrived). Null when the transaction is no incoming payment of this platform (the accounts
 * context then answers 404 or 409). Approving credits at once when the payer's funds settle
 * immediately, so the answer shows COMPLETED; otherwise the settlement task finishes it.
 */
@Injectable()
abstract class DecideIncomingPayment {
  constructor(
    protected readonly commands: CommandStore,
    protected readonly commandBus: CommandBus,
  ) {}

  protected async decide(platformId: string, transactionId: string, command: IncomingPaymentCommand): Promise<WireTransaction | null> {
    if (!parseId('Transaction', transactionId)) return null;
    const stream = streamNameFor(transactionId);
    const loaded = await this.commands.load(INCOMING_PAYMENT_STREAM, stream);
    if (!isPlatformsPayment(loaded.state, platformId)) return null;
    const handled = await this.commands.handle(INCOMING_PAYMENT_STREAM, stream, command, { preloaded: loaded });
    if (handled.state.status === 'APPROVED' && handled.events.length > 0 && handled.state.senderBehaviour === 'SUCCESS') {
      await this.commandBus.execute(new SettleIncomingPayment(transactionId));
      return wireIncomingPayment((await this.commands.load(INCOMING_PAYMENT_STREAM, stream)).recorded, platformId);
    }
    return wireIncomingPayment([...handled.recorded, ...handled.events], platformId);
  }
}

function isPlatformsPayment(state: IncomingPaymentState, platformId: string): boolean {
  return state.status !== 'none' && state.platformId === platformId;
}

@CommandHandler(ApproveIncomingPayment)
export class ApproveIncomingPaymentHandler extends DecideIncomingPayment implements ICommandHandler<ApproveIncomingPayment, WireTransaction | null> {
  execute({ platformId, transactionId, receiverCustomerInfo }: ApproveIncomingPayment): Promise<WireTransaction | null> {
    return this.decide(platformId, transactionId, { type: 'ApprovePayment', receiverCustomerInfo, via: 'API', now: new Date().toISOString() });
  }
}

@CommandHandler(RejectIncomingPayment)
export class RejectIncomingPaymentHandler extends DecideIncomingPayment implements ICommandHandler<RejectIncomingPayment, WireTransaction | null> {
  execute({ platformId, transactionId, reason }: RejectIncomingPayment): Promise<WireTransaction | null> {
    return this.decide(platformId, transactionId, { type: 'RejectPayment', reason, via: 'API', now: new Date().toISOString() });
  }
}
