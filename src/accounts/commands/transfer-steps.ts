import { CommandStore, LoadedStream } from '../../infra/commands/command-store';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { TransactionCommand, TransactionState } from '../domain/transaction/transaction.decider';
import { TRANSFER_STREAM } from '../streams';

/** How many rounds a transfer step loop takes before 409 CONFLICT (each round re-reads the stream). */
export const MAX_STEP_ATTEMPTS = 20;

/**
 * Appends the events of `command` at the revision it was decided on. Whether it wins or another
 * writer (the reactor, a retried task) moved the stream first, the caller's loop re-reads and
 * takes the next step from what was recorded: the ledger step taken before it is idempotent, and
 * a step already taken is a no-op. Used by AdvanceTransferOut and SettleTransfer.
 */
export async function appendTransferStep(
  commands: CommandStore,
  stream: string,
  loaded: LoadedStream<TransactionState>,
  command: TransactionCommand,
): Promise<void> {
  const events = TRANSFER_STREAM.decider.decide(command, loaded.state);
  if (events.length === 0) return;
  try {
    await commands.commit([{ type: TRANSFER_STREAM, state: loaded.state, streamName: stream, events, expectedRevision: loaded.revision }]);
  } catch (error) {
    if (!(error instanceof ConcurrencyError)) throw error;
  }
}
