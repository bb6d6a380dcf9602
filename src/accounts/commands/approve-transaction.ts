import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../infra/domain/domain-error';
import { WireTransaction } from '../queries/transaction-wire';
import { TransactionsQuery } from '../queries/transactions.query';
import { ApproveAgentTransaction, RejectAgentTransaction } from './agent-transaction-ports';
import { ApproveIncomingPayment, RejectIncomingPayment } from './incoming-payment-ports';

/** `POST /transactions/{id}/approve`: the platform approves an incoming payment (or an agent's quote) waiting for it. */
export class ApproveTransaction extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly transactionId: string,
    readonly receiverCustomerInfo: Record<string, unknown> | null,
  ) {
    super();
  }
}

/** `POST /transactions/{id}/reject`: the platform refuses an incoming payment (or an agent's quote) waiting for it. */
export class RejectTransaction extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly transactionId: string,
    readonly reason: string | null,
  ) {
    super();
  }
}

/**
 * Incoming payments and the quotes of agents' pending actions wait for the platform's decision;
 * their streams belong to the receiving and the agents context, which decide
 * (ApproveIncomingPayment / RejectIncomingPayment, then ApproveAgentTransaction /
 * RejectAgentTransaction). Any other transaction of the platform answers 409
 * TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL, an unknown or foreign one 404.
 */
async function notAwaitingApproval(transactions: TransactionsQuery, platformId: string, transactionId: string): Promise<never> {
  const view = await transactions.findById(platformId, transactionId);
  if (!view) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
  throw new DomainError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', 'The transaction is not waiting for platform approval', { status: view.status });
}

@CommandHandler(ApproveTransaction)
export class ApproveTransactionHandler implements ICommandHandler<ApproveTransaction, WireTransaction> {
  constructor(
    private readonly transactions: TransactionsQuery,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ platformId, transactionId, receiverCustomerInfo }: ApproveTransaction): Promise<WireTransaction> {
    const incoming = await this.commandBus.execute(new ApproveIncomingPayment(platformId, transactionId, receiverCustomerInfo));
    const decided = incoming ?? (await this.commandBus.execute(new ApproveAgentTransaction(platformId, transactionId)));
    return decided ?? notAwaitingApproval(this.transactions, platformId, transactionId);
  }
}

@CommandHandler(RejectTransaction)
export class RejectTransactionHandler implements ICommandHandler<RejectTransaction, WireTransaction> {
  constructor(
    private readonly transactions: TransactionsQuery,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ platformId, transactionId, reason }: RejectTransaction): Promise<WireTransaction> {
    const incoming = await this.commandBus.execute(new RejectIncomingPayment(platformId, transactionId, reason));
    const decided = incoming ?? (await this.commandBus.execute(new RejectAgentTransaction(platformId, transactionId, reason)));
    return decided ?? notAwaitingApproval(this.transactions, platformId, transactionId);
  }
}
