import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { WireTransaction } from '../queries/transaction-wire';
import { TRANSFER_STREAM } from '../streams';
import { TransferAnswers } from './transfer-answers';
import { recordedTransfer } from './transfer-out';
import { TransferPartiesResolver, TransferRequest } from './transfer-parties';

/** `POST /transfer-in` (external -> internal): answers the transaction, PENDING until settled. */
export class TransferIn extends Command<WireTransaction> {
  constructor(
    readonly platformId: string,
    readonly request: TransferRequest,
    /** Fixed by a caller that may send it again (an agent's action): a second send answers the first transfer. */
    readonly transactionId?: string,
  ) {
    super();
  }
}

/** Records the pull (`TransferInRequested`); the `transfer-process` reactor schedules its settlement. */
@CommandHandler(TransferIn)
export class TransferInHandler implements ICommandHandler<TransferIn, WireTransaction> {
  constructor(
    private readonly commands: CommandStore,
    private readonly parties: TransferPartiesResolver,
    private readonly answers: TransferAnswers,
  ) {}

  async execute({ platformId, request, transactionId: fixedId }: TransferIn): Promise<WireTransaction> {
    const recorded = fixedId ? await recordedTransfer(this.commands, platformId, fixedId) : null;
    if (recorded) return this.answers.asOf(platformId, recorded.transactionId, 'no_stream');
    const parties = await this.parties.resolve(platformId, request, 'IN', fixedId);
    const requested = await this.commands.handle(TRANSFER_STREAM, streamNameFor(parties.transactionId), {
      type: 'RequestTransferIn',
      parties,
      now: new Date().toISOString(),
    });
    return this.answers.asOf(platformId, parties.transactionId, requested.revision);
  }
}
