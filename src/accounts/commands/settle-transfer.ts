import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { transferScenario } from '../../sandbox';
import { TransactionCommand, TransactionState } from '../domain/transaction/transaction.decider';
import { AccountsLedger } from '../ledger/accounts-ledger';
import { TRANSFER_STREAM } from '../streams';
import { MAX_STEP_ATTEMPTS, appendTransferStep } from './transfer-steps';

/** A transfer past its request (settled only while PENDING). */
type PendingTransfer = Exclude<TransactionState, { status: 'none' }>;

/** Settles a PENDING transfer; a task sends it (SETTLE_TRANSFER_TASK), scheduled by the `transfer-process` reactor. */
export class SettleTransfer extends Command<void> {
  constructor(readonly transactionId: string) {
    super();
  }
}

/**
 * By the sandbox scenario of the counterparty: a transfer-out's hold leaves the account
 * (completed) or returns to it (failed, a refund); a transfer-in is credited (completed) or not
 * (failed). Runs at least once: every round re-reads the transaction and stops once it is no
 * longer PENDING (a cancelled transfer is not); the ledger steps are idempotent, and the ledger
 * refuses to settle a hold a cancellation released.
 */
@CommandHandler(SettleTransfer)
export class SettleTransferHandler implements ICommandHandler<SettleTransfer, void> {
  constructor(
    private readonly commands: CommandStore,
    private readonly ledger: AccountsLedger,
  ) {}

  async execute({ transactionId }: SettleTransfer): Promise<void> {
    const stream = streamNameFor(transactionId);
    for (let attempt = 1; attempt <= MAX_STEP_ATTEMPTS; attempt++) {
      const loaded = await this.commands.load(TRANSFER_STREAM, stream);
      const { state } = loaded;
      if (state.status !== 'PENDING') return;
      const command = state.kind === 'TRANSFER_OUT' ? await this.settleOut(transactionId, state) : await this.settleIn(transactionId, state);
      // null: a cancellation took the hold back first; the next round reads it recorded.
      if (command) await appendTransferStep(this.commands, stream, loaded, command);
    }
    throw new DomainError('CONFLICT', 'The transfer was changed concurrently; the settlement will be retried');
  }

  private async settleOut(transactionId: string, state: PendingTransfer): Promise<TransactionCommand | null> {
    const scenario = transferScenario(state.counterpartySuffix);
    const now = new Date().toISOString();
    const hold = { platformId: state.platformId, accountId: state.sourceAccountId, holdId: state.holdId ?? transactionId };
    if (scenario.outcome === 'COMPLETED') {
      try {
        await this.ledger.settleHold(hold);
      } catch (error) {
        if (error instanceof DomainError && error.code === 'INVALID_STATE_TRANSITION') return null;
        throw error;
      }
      return { type: 'CompleteTransfer', now };
    }
    const failureReason = scenario.failureReason ?? 'BANK_REJECTED';
    await this.ledger.releaseHold({ ...hold, reason: failureReason });
    return {
      type: 'FailTransfer',
      failureReason,
      refund: { reference: `${transactionId}:refund`, initiatedAt: now, settledAt: now, status: 'COMPLETED', reason: failureReason },
      now,
    };
  }

  private async settleIn(transactionId: string, state: PendingTransfer): Promise<TransactionCommand> {
    const scenario = transferScenario(state.counterpartySuffix);
    const now = new Date().toISOString();
    if (scenario.outcome !== 'COMPLETED') return { type: 'FailTransfer', failureReason: scenario.failureReason ?? 'BANK_REJECTED', refund: null, now };
    try {
      await this.ledger.credit({
        platformId: state.platformId,
        accountId: state.destinationAccountId,
        movementId: transactionId,
        amount: state.amount,
        reason: 'TRANSFER_IN',
        reference: transactionId,
      });
      return { type: 'CompleteTransfer', now };
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'AMOUNT_OUT_OF_RANGE') throw error;
      return { type: 'FailTransfer', failureReason: 'AMOUNT_OUT_OF_RANGE', refund: null, now };
    }
  }
}
