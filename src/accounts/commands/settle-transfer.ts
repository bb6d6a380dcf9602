import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { transferScenario } from '../../sandbox';
import { TransactionCommand, TransactionState } from '../domain/transaction/transaction.decider';
import { AccountsLedger } from '../ledger/accounts-ledger';
import { TRANSFER_STREAM } from '../streams';
import { MAX_STEP_ATTEMPTS, appendTransferStep } from './transfer-steps';

/** A transfer past its request (settled only while PENDING). */
type PendingTransfer = Exclude<TransactionState, { status: 'none' }>;

/**
 * Settles a PENDING transfer, or completes the refund a failed or cancelled one started; a task
 * sends it (SETTLE_TRANSFER_TASK), scheduled by the `transfer-process` reactor: after the
 * scenario's delay, and `refundDelayMs` after a failure.
 */
export class SettleTransfer extends Command<void> {
  constructor(readonly transactionId: string) {
    super();
  }
}

/**
 * By the sandbox scenario of the counterparty: a transfer-out's hold leaves the account
 * (completed), or the transfer-out fails with its refund PENDING, the hold kept until the refund
 * task gives it back (the refund COMPLETED: transfer refunds never fail in the sandbox); a
 * transfer-in is credited (completed) or not (failed). Runs at least once: every round re-reads
 * the transaction and stops once there is nothing left to do; the ledger steps are idempotent,
 * and the ledger refuses to settle a hold a cancellation released. A settlement task that runs
 * again after recording a failure (a crash before its job was acknowledged) completes the refund
 * early: harmless, the delay only paces the sandbox.
 */
@CommandHandler(SettleTransfer)
export class SettleTransferHandler implements ICommandHandler<SettleTransfer, void> {
  constructor(
    private readonly commands: CommandStore,
    private readonly ledger: AccountsLedger,
  ) {}

  async execute({ transactionId }: SettleTransfer): Promise<void> {
    const stream = streamNameFor(transactionId);
    // What this run is for, from its first read: the settlement, or else the refund a failure started.
    let refunding: boolean | null = null;
    for (let attempt = 1; attempt <= MAX_STEP_ATTEMPTS; attempt++) {
      const loaded = await this.commands.load(TRANSFER_STREAM, stream);
      const { state } = loaded;
      if (state.status === 'none') return;
      // A pull is credited after its COMPLETED is recorded (so a cancel recorded first wins).
      if (state.kind === 'TRANSFER_IN' && state.status === 'COMPLETED') return this.credit(transactionId, state);
      refunding ??= state.status !== 'PENDING';
      if (refunding ? state.refundStatus !== 'PENDING' : state.status !== 'PENDING') return;
      const command = refunding ? await this.refund(transactionId, state) : await this.settle(transactionId, state);
      // null: a cancellation took the hold back first; the next round reads it recorded.
      if (command) await appendTransferStep(this.commands, stream, loaded, command);
    }
    throw new DomainError('CONFLICT', 'The transfer was changed concurrently; the settlement will be retried');
  }

  private settle(transactionId: string, state: PendingTransfer): Promise<TransactionCommand | null> {
    return state.kind === 'TRANSFER_OUT' ? this.settleOut(transactionId, state) : this.settleIn(transactionId, state);
  }

  /** The hold goes back to the account (a no-op when it is back already), then the refund is COMPLETED. */
  private async refund(transactionId: string, state: PendingTransfer): Promise<TransactionCommand> {
    await this.ledger.releaseHold({ platformId: state.platformId, accountId: state.sourceAccountId, holdId: state.holdId ?? transactionId, reason: 'TRANSFER_FAILED' });
    return { type: 'CompleteRefund', now: new Date().toISOString() };
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
    return { type: 'FailTransfer', failureReason: scenario.failureReason ?? 'BANK_REJECTED', now };
  }

  /**
   * A pull's outcome is recorded first and credited after (the next round of `execute`): a cancel
   * recorded first makes the completion decide again and find it CANCELLED, so a cancelled pull
   * is never credited. A credit the account could not take (its balance would pass the largest
   * amount) fails the pull instead, checked before anything is recorded.
   */
  private async settleIn(_transactionId: string, state: PendingTransfer): Promise<TransactionCommand> {
    const scenario = transferScenario(state.counterpartySuffix);
    const now = new Date().toISOString();
    if (scenario.outcome !== 'COMPLETED') return { type: 'FailTransfer', failureReason: scenario.failureReason ?? 'BANK_REJECTED', now };
    const account = await this.ledger.snapshot({ platformId: state.platformId, accountId: state.destinationAccountId });
    if (account.total + state.amount > MAX_AMOUNT_MINOR) return { type: 'FailTransfer', failureReason: 'AMOUNT_OUT_OF_RANGE', now };
    return { type: 'CompleteTransfer', now };
  }

  /** The completed pull's credit (a no-op when it landed already: one credit per movement id). */
  private async credit(transactionId: string, state: PendingTransfer): Promise<void> {
    await this.ledger.credit({
      platformId: state.platformId,
      accountId: state.destinationAccountId,
      movementId: transactionId,
      amount: state.amount,
      reason: 'TRANSFER_IN',
      reference: transactionId,
    });
  }
}
