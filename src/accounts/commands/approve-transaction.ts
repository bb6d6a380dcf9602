import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../infra/domain/domain-error';
import { WireTransaction } from '../queries/transaction-wire';
import { TransactionsQuery } from '../queries/transactions.query';

/** `POST /transactions/{id}/approve`: the platform's approval of an agent-initiated transaction. */
export class ApproveTransaction extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly transactionId: string,
  ) {
    super();
  }
}

/**
 * Only agent-initiated transactions wait for the platform's approval, and this service starts
 * none (agents are not offered), so no transaction is ever in that state: a known one answers
 * 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL, an unknown or foreign one 404.
 */
@CommandHandler(ApproveTransaction)
export class ApproveTransactionHandler implements ICommandHandler<ApproveTransaction, WireTransaction> {
  constructor(private readonly transactions: TransactionsQuery) {}

  async execute({ platformId, transactionId }: ApproveTransaction): Promise<WireTransaction> {
    const view = await this.transactions.findById(platformId, transactionId);
    if (!view) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
    throw new DomainError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', 'The transaction is not waiting for platform approval', { status: view.status });
  }
}
