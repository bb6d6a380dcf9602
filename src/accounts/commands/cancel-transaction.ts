import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../infra/domain/domain-error';
import { WireTransaction } from '../queries/transaction-wire';
import { TransactionsQuery } from '../queries/transactions.query';
import { CancelTransfer } from './cancel-transfer';
import { CancelQuotePayment } from './quote-payment-ports';

/** `POST /transactions/{id}/cancel`: answers the transaction as it is once cancelled. */
export class CancelTransaction extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly transactionId: string,
    readonly reason: string | null,
  ) {
    super();
  }
}

/**
 * Finds whose stream the transaction lives on (a quote's payment or a transfer) and sends that
 * context's cancellation; each decides on its own stream whether it is still cancellable.
 */
@CommandHandler(CancelTransaction)
export class CancelTransactionHandler implements ICommandHandler<CancelTransaction, WireTransaction> {
  constructor(
    private readonly transactions: TransactionsQuery,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ platformId, transactionId, reason }: CancelTransaction): Promise<WireTransaction> {
    const view = await this.transactions.findById(platformId, transactionId);
    if (!view) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
    if (view.quoteId) return this.commandBus.execute(new CancelQuotePayment(platformId, view.quoteId, reason));
    return this.commandBus.execute(new CancelTransfer(platformId, transactionId, reason));
  }
}
