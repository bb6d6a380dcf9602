import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { DomainError } from '../../infra/domain/domain-error';
import { RecordedEvent } from '../../infra/event-store/event-store.port';
import { streamNameFor } from '../../infra/ids';
import { ACCOUNT_NOT_ACTIVE, accountNotActive } from '../domain/internal-account/internal-account.decider';
import { TransactionCommand, TransactionState, transactionDecider } from '../domain/transaction/transaction.decider';
import { TransactionEvent } from '../domain/transaction/transaction.events';
import { AccountsLedger } from '../ledger/accounts-ledger';
import { INSUFFICIENT_FUNDS } from '../ledger/insufficient-funds';
import { TRANSFER_STREAM } from '../streams';
import { MAX_STEP_ATTEMPTS, appendTransferStep } from './transfer-steps';

/** Where a transfer-out stood when it left REQUESTED (or now, while it has not). */
export interface TransferOutOutcome {
  state: TransactionState;
  revision: number | 'no_stream';
  /** On a refusal: the source's available balance (from the refusal, or after the hold went back). */
  available?: number;
  /** On a refusal for the source's status (not its balance): the answer. */
  refusal?: DomainError;
}

/**
 * Drives a transfer-out from REQUESTED: sent by TransferOut in the request, and by the
 * `transfer-process` reactor (a request that died after its first append, a rejection that raced
 * with a hold).
 */
export class AdvanceTransferOut extends Command<TransferOutOutcome> {
  constructor(readonly transactionId: string) {
    super();
  }
}

/**
 * Holds the funds on the source account, then records the hold or the refusal. A refusal that
 * raced with a successful hold (a retry elsewhere) gives the hold back. Every round re-reads the
 * transaction, so the request and the reactor can both drive it.
 */
@CommandHandler(AdvanceTransferOut)
export class AdvanceTransferOutHandler implements ICommandHandler<AdvanceTransferOut, TransferOutOutcome> {
  constructor(
    private readonly commands: CommandStore,
    private readonly ledger: AccountsLedger,
  ) {}

  async execute({ transactionId }: AdvanceTransferOut): Promise<TransferOutOutcome> {
    const stream = streamNameFor(transactionId);
    let available: number | undefined;
    for (let attempt = 1; attempt <= MAX_STEP_ATTEMPTS; attempt++) {
      const loaded = await this.commands.load(TRANSFER_STREAM, stream);
      const { state } = loaded;
      if (state.status !== 'REQUESTED' || state.kind !== 'TRANSFER_OUT') return this.outcome(transactionId, loaded.recorded, available);
      let command: TransactionCommand;
      try {
        await this.ledger.hold({ platformId: state.platformId, accountId: state.sourceAccountId, holdId: transactionId, amount: state.amount, reference: transactionId });
        command = { type: 'RecordFundsHeld', holdId: transactionId, now: new Date().toISOString() };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // A closed source is a rejection too: rethrown, the reactor would retry it forever.
        const reason = error.code === INSUFFICIENT_FUNDS ? INSUFFICIENT_FUNDS : error.details?.reason === ACCOUNT_NOT_ACTIVE ? ACCOUNT_NOT_ACTIVE : null;
        if (!reason) throw error;
        available = (error.details as { available?: number } | undefined)?.available;
        command = { type: 'RejectTransferOut', reason, now: new Date().toISOString() };
      }
      await appendTransferStep(this.commands, stream, loaded, command);
    }
    throw new DomainError('CONFLICT', 'The transfer was changed concurrently; retry');
  }

  /** The transfer past REQUESTED; a rejected one gives its hold back (it may have raced a hold). */
  private async outcome(transactionId: string, recorded: RecordedEvent[], available: number | undefined): Promise<TransferOutOutcome> {
    const { state, revision } = leftRequested(recorded);
    if (state.status !== 'REJECTED' || state.kind !== 'TRANSFER_OUT') return { state, revision };
    const released = await this.ledger.releaseHold({ platformId: state.platformId, accountId: state.sourceAccountId, holdId: transactionId, reason: 'TRANSFER_REJECTED' });
    // The refusal may have been decided by the reactor: report the balance (or status) as it is now.
    const rejection = recorded.find((event) => event.type === 'TransferOutRejected');
    const refusal = rejection?.data.reason === ACCOUNT_NOT_ACTIVE ? accountNotActive(state.sourceAccountId, released.status) : undefined;
    return { state, revision, available: available ?? released.available, ...(refusal ? { refusal } : {}) };
  }
}

/**
 * The transaction folded only up to where it left REQUESTED (the revision is that event's):
 * what the request reports, and on a refusal acts on, is that moment, not a settlement that may
 * already have followed.
 */
function leftRequested(recorded: RecordedEvent[]): { state: TransactionState; revision: number | 'no_stream' } {
  let state = transactionDecider.initialState();
  let revision: number | 'no_stream' = 'no_stream';
  for (const event of recorded) {
    state = transactionDecider.evolve(state, { type: event.type, data: event.data } as unknown as TransactionEvent);
    revision = event.revision;
    if (state.status !== 'none' && state.status !== 'REQUESTED') break;
  }
  return { state, revision };
}
