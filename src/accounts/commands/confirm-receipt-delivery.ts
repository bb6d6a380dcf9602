import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { WireTransaction } from '../queries/transaction-wire';
import { TransactionsQuery } from '../queries/transactions.query';
import { TRANSFER_STREAM } from '../streams';
import { ConfirmQuotePaymentReceipt } from './quote-payment-ports';
import { TransferAnswers } from './transfer-answers';

/**
 * `POST /transactions/{id}/confirm`: the platform delivered the transaction's receipt at
 * `receiptDeliveryConfirmedAt` (the request's, or now). Answers the transaction showing it.
 */
export class ConfirmReceiptDelivery extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly transactionId: string,
    readonly receiptDeliveryConfirmedAt: string,
  ) {
    super();
  }
}

/**
 * Any visible transaction of the platform, in any status: each confirmation is an event on the
 * transaction's own stream (a quote's payment: the quotes context records it), the latest shown.
 */
@CommandHandler(ConfirmReceiptDelivery)
export class ConfirmReceiptDeliveryHandler implements ICommandHandler<ConfirmReceiptDelivery, WireTransaction> {
  constructor(
    private readonly transactions: TransactionsQuery,
    private readonly commandBus: CommandBus,
    private readonly commands: CommandStore,
    private readonly answers: TransferAnswers,
  ) {}

  async execute({ platformId, transactionId, receiptDeliveryConfirmedAt }: ConfirmReceiptDelivery): Promise<WireTransaction> {
    const view = await this.transactions.findById(platformId, transactionId);
    if (!view) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
    if (view.quoteId) return this.commandBus.execute(new ConfirmQuotePaymentReceipt(platformId, view.quoteId, receiptDeliveryConfirmedAt));
    const handled = await this.commands.handle(
      TRANSFER_STREAM,
      streamNameFor(transactionId),
      { type: 'ConfirmReceipt', receiptDeliveryConfirmedAt, now: new Date().toISOString() },
      {
        check: (state) => {
          if (state.status === 'none' || state.platformId !== platformId) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
        },
      },
    );
    return this.answers.asOf(platformId, transactionId, handled.revision);
  }
}
