import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { INCOMING_PAYMENT_STREAM } from '../streams';

/**
 * The payer's refund of a payment refused after its funds arrived reached the payer's VASP
 * (after the sandbox refund delay). Nothing of ours moves: the funds were never credited.
 */
export class CompleteIncomingRefund extends Command<void> {
  constructor(readonly transactionId: string) {
    super();
  }
}

@CommandHandler(CompleteIncomingRefund)
export class CompleteIncomingRefundHandler implements ICommandHandler<CompleteIncomingRefund, void> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ transactionId }: CompleteIncomingRefund): Promise<void> {
    await this.commands.handle(INCOMING_PAYMENT_STREAM, streamNameFor(transactionId), { type: 'CompleteRefund', now: new Date().toISOString() });
  }
}
