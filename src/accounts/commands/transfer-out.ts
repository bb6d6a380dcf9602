import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { DomainError } from '../../infra/domain/domain-error';
import { TransferParties } from '../domain/transaction/transaction.events';
import { insufficientFunds } from '../ledger/insufficient-funds';
import { WireTransaction } from '../queries/transaction-wire';
import { TRANSFER_STREAM } from '../streams';
import { AdvanceTransferOut } from './advance-transfer-out';
import { TransferAnswers } from './transfer-answers';
import { TransferPartiesResolver, TransferRequest } from './transfer-parties';

export type { TransferRequest };

/** `POST /transfer-out` (internal -> external): answers the transaction, PENDING once the funds are held. */
export class TransferOut extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly request: TransferRequest,
    /** Fixed by a caller that may send it again (an agent's action): a second send answers the first transfer. */
    readonly transactionId?: string,
  ) {
    super();
  }
}

/**
 * Records the request first (`TransferOutRequested`), then has the funds held (AdvanceTransferOut,
 * which the `transfer-process` reactor sends too when this request dies in between); a refusal is
 * 400 INSUFFICIENT_FUNDS, or ACCOUNT_NOT_ACTIVE for a closed source. The settlement follows later,
 * by a task.
 */
@CommandHandler(TransferOut)
export class TransferOutHandler implements ICommandHandler<TransferOut, WireTransaction> {
  constructor(
    private readonly commands: CommandStore,
    private readonly commandBus: CommandBus,
    private readonly parties: TransferPartiesResolver,
    private readonly answers: TransferAnswers,
  ) {}

  async execute({ platformId, request, transactionId: fixedId }: TransferOut): Promise<WireTransaction> {
    // A transfer already recorded under a fixed id is not resolved again: it is advanced (idempotent) and answered.
    const recorded = fixedId ? await recordedTransfer(this.commands, platformId, fixedId) : null;
    const parties = recorded ?? (await this.parties.resolve(platformId, request, 'OUT', fixedId));
    const transactionId = parties.transactionId;
    if (!recorded) await this.commands.handle(TRANSFER_STREAM, streamNameFor(transactionId), { type: 'RequestTransferOut', parties, now: new Date().toISOString() });
    const outcome = await this.commandBus.execute(new AdvanceTransferOut(transactionId));
    if (outcome.state.status === 'REJECTED') {
      throw outcome.refusal ?? insufficientFunds({
        accountId: parties.sourceAccountId,
        requested: parties.amount,
        ...(outcome.available !== undefined ? { available: outcome.available } : {}),
      });
    }
    return this.answers.asOf(platformId, transactionId, outcome.revision);
  }
}

/** The parties of the transfer recorded under `transactionId` for this platform, or null when none is. */
export async function recordedTransfer(commands: CommandStore, platformId: string, transactionId: string): Promise<TransferParties | null> {
  const { state } = await commands.load(TRANSFER_STREAM, streamNameFor(transactionId));
  if (state.status === 'none') return null;
  if (state.platformId !== platformId) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
  return state;
}
