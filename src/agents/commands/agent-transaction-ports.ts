import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApproveAgentTransaction, RejectAgentTransaction, TransactionsQuery, WireTransaction } from '../../accounts';
import { AgentActionsQuery } from '../queries/agent-actions.query';
import { ApproveAgentAction, RejectAgentAction } from './decide-agent-action';

/**
 * `POST /transactions/{id}/approve|reject` for the transaction a pending EXECUTE_QUOTE action
 * covers (its quote's): the same decision as the approval routes. Answers null when no pending
 * action of this platform covers it (accounts then answers 404 or 409). The answer is the
 * transaction as it stands after the decision; an approval whose execution was refused (an
 * expired quote, short funds) answers that refusal, the action being FAILED.
 */
@CommandHandler(ApproveAgentTransaction)
export class ApproveAgentTransactionHandler implements ICommandHandler<ApproveAgentTransaction, WireTransaction | null> {
  constructor(
    private readonly actions: AgentActionsQuery,
    private readonly transactions: TransactionsQuery,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ platformId, transactionId }: ApproveAgentTransaction): Promise<WireTransaction | null> {
    const pending = await this.actions.pendingCovering(platformId, transactionId);
    if (!pending) return null;
    const { refusal } = await this.commandBus.execute(new ApproveAgentAction(platformId, pending.agentId, pending.actionId));
    if (refusal) throw refusal;
    return this.transactions.findById(platformId, transactionId);
  }
}

@CommandHandler(RejectAgentTransaction)
export class RejectAgentTransactionHandler implements ICommandHandler<RejectAgentTransaction, WireTransaction | null> {
  constructor(
    private readonly actions: AgentActionsQuery,
    private readonly transactions: TransactionsQuery,
    private readonly commandBus: CommandBus,
  ) {}

  async execute({ platformId, transactionId, reason }: RejectAgentTransaction): Promise<WireTransaction | null> {
    const pending = await this.actions.pendingCovering(platformId, transactionId);
    if (!pending) return null;
    await this.commandBus.execute(new RejectAgentAction(platformId, pending.agentId, pending.actionId, reason));
    return this.transactions.findById(platformId, transactionId);
  }
}
