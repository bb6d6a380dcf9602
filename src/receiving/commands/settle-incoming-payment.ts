import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountsLedger } from '../../accounts';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { INCOMING_PAYMENT_STREAM } from '../streams';

/** Why the ledger credits the customer's account (FundsCredited.reason). */
export const INCOMING_PAYMENT_CREDIT = 'INCOMING_PAYMENT';

/**
 * Settles an approved incoming payment: the approval handler sends it when the payer's funds
 * settle at once, the `incoming-payments` reactor's task after the sandbox delay (and again after
 * a crash: both steps are idempotent).
 */
export class SettleIncomingPayment extends Command<void> {
  constructor(readonly transactionId: string) {
    super();
  }
}

/**
 * Credits the account (the ledger keeps one credit per movement id, the transaction id), then
 * records COMPLETED; a payment compliance refuses is not credited and fails with the payer's
 * refund. Nothing happens unless the payment is APPROVED.
 */
@CommandHandler(SettleIncomingPayment)
export class SettleIncomingPaymentHandler implements ICommandHandler<SettleIncomingPayment, void> {
  constructor(
    private readonly commands: CommandStore,
    private readonly ledger: AccountsLedger,
  ) {}

  async execute({ transactionId }: SettleIncomingPayment): Promise<void> {
    const stream = streamNameFor(transactionId);
    const loaded = await this.commands.load(INCOMING_PAYMENT_STREAM, stream);
    const { state } = loaded;
    if (state.status !== 'APPROVED') return;
    if (state.senderBehaviour !== 'FAIL_COMPLIANCE') {
      await this.ledger.credit({
        platformId: state.platformId,
        accountId: state.accountId,
        movementId: transactionId,
        amount: state.receivedAmount.amount,
        reason: INCOMING_PAYMENT_CREDIT,
        reference: transactionId,
      });
    }
    await this.commands.handle(INCOMING_PAYMENT_STREAM, stream, { type: 'SettlePayment', now: new Date().toISOString() }, { preloaded: loaded });
  }
}
