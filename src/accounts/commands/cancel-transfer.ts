import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { streamNameFor } from '../../infra/ids';
import { TransactionState } from '../domain/transaction/transaction.decider';
import { USER_CANCELLATION } from '../domain/transaction/refund';
import { TransactionEvent } from '../domain/transaction/transaction.events';
import { AccountsLedger } from '../ledger/accounts-ledger';
import { WireTransaction } from '../queries/transaction-wire';
import { TRANSFER_STREAM } from '../streams';
import { TransferAnswers } from './transfer-answers';
import { MAX_STEP_ATTEMPTS } from './transfer-steps';

type Transfer = Exclude<TransactionState, { status: 'none' }>;

/** Cancels a PENDING transfer (out or in) on a cancellable bank rail (sent by CancelTransaction). */
export class CancelTransfer extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly transactionId: string,
    readonly reason: string | null,
  ) {
    super();
  }
}

/**
 * The ledger decides the race with a completing settlement: the hold is either settled (the money
 * left: 409 TRANSACTION_NOT_CANCELLABLE) or released, never both. The release, `TransferOutCancelled`
 * and its refund's `TransferOutRefundCompleted` are one commit at the revision the decision read,
 * so a settlement that recorded first (a completion, or a failure, which keeps the hold for its
 * own refund) makes the cancel decide again: 409. The settlement re-reads the transfer when its
 * hold is gone and finds it cancelled. On an event store without multi-stream commits the release
 * comes first; a failure recorded meanwhile wins, and its refund finds the hold back already.
 */
@CommandHandler(CancelTransfer)
export class CancelTransferHandler implements ICommandHandler<CancelTransfer, WireTransaction> {
  constructor(
    private readonly commands: CommandStore,
    private readonly ledger: AccountsLedger,
    private readonly answers: TransferAnswers,
  ) {}

  async execute({ platformId, transactionId, reason }: CancelTransfer): Promise<WireTransaction> {
    const stream = streamNameFor(transactionId);
    for (let attempt = 1; attempt <= MAX_STEP_ATTEMPTS; attempt++) {
      const loaded = await this.commands.load(TRANSFER_STREAM, stream);
      const { state, revision } = loaded;
      if (state.status === 'none' || state.platformId !== platformId) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
      const now = new Date().toISOString();
      const events = TRANSFER_STREAM.decider.decide({ type: 'CancelTransfer', reason, now }, state);
      if (events.length === 0) return this.answers.asOf(platformId, transactionId, revision);
      const recorded = state.kind === 'TRANSFER_IN' ? await this.record(state, revision, events) : await this.releaseAndRecord(state, revision, events, now);
      if (recorded !== null) return this.answers.asOf(platformId, transactionId, recorded);
    }
    throw new DomainError('CONFLICT', 'The transaction was changed concurrently; retry');
  }

  /**
   * A pull holds nothing: the cancellation is recorded at the revision it was decided on. The
   * settlement records COMPLETED before it credits, so whichever is recorded first stands.
   */
  private async record(state: Transfer, revision: number | 'no_stream', events: TransactionEvent[]): Promise<number | null> {
    try {
      return (await this.commands.commit([{ type: TRANSFER_STREAM, state, streamName: streamNameFor(state.transactionId), events, expectedRevision: revision }]))[0].nextExpectedRevision;
    } catch (error) {
      if (error instanceof ConcurrencyError) return null;
      throw error;
    }
  }

  /** The revision of the recorded cancellation, or null when the transfer moved (decide again). */
  private releaseAndRecord(state: Transfer, revision: number | 'no_stream', events: TransactionEvent[], now: string): Promise<number | null> {
    const stream = streamNameFor(state.transactionId);
    const hold = { platformId: state.platformId, accountId: state.sourceAccountId, holdId: state.holdId ?? state.transactionId, reason: USER_CANCELLATION, now };
    return this.ledger.releaseHoldRecording(
      hold,
      { streamName: stream, events, expectedRevision: revision },
      async () => (await this.commands.commit([{ type: TRANSFER_STREAM, state, streamName: stream, events, expectedRevision: revision }]))[0].nextExpectedRevision,
      alreadySettled,
    );
  }
}

function alreadySettled(): DomainError {
  return new DomainError('TRANSACTION_NOT_CANCELLABLE', 'The transfer has already settled', { reason: 'ALREADY_SETTLED' });
}
