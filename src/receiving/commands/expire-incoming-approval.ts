import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { INCOMING_PAYMENT_STREAM } from '../streams';

/**
 * The approval deadline passed: a payment still waiting for the platform fails with
 * PAYMENT_APPROVAL_TIMED_OUT (nothing was credited). A task sends it at each deadline the
 * payment was given; a deadline that moved later makes the earlier task a no-op.
 */
export class ExpireIncomingApproval extends Command<void> {
  constructor(readonly transactionId: string) {
    super();
  }
}

@CommandHandler(ExpireIncomingApproval)
export class ExpireIncomingApprovalHandler implements ICommandHandler<ExpireIncomingApproval, void> {
  constructor(private readonly commands: CommandStore) {}

  async execute({ transactionId }: ExpireIncomingApproval): Promise<void> {
    await this.commands.handle(INCOMING_PAYMENT_STREAM, streamNameFor(transactionId), { type: 'ExpireApproval', now: new Date().toISOString() });
  }
}
