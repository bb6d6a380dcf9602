import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { uuidv7 } from '../../infra/ids';
import { SimulationAnswer } from './card-transaction-authorize';
import { CardTransactionWriter } from './card-transaction-commit';

/** A sandbox RETURN_REVERSAL: the latest return of a REFUNDED transaction is taken back. */
export class ReverseCardReturn extends Command<SimulationAnswer> {
  constructor(
    readonly platformId: string,
    readonly cardId: string,
    readonly transactionId: string,
  ) {
    super();
  }
}

/**
 * Debits the returned amount from the account again (SETTLED); when the account can no longer
 * cover it, the reversal is recorded with its pull FAILED (EXCEPTION) and nothing moves.
 */
@CommandHandler(ReverseCardReturn)
export class ReverseCardReturnHandler implements ICommandHandler<ReverseCardReturn, SimulationAnswer> {
  constructor(private readonly writer: CardTransactionWriter) {}

  async execute({ platformId, cardId, transactionId }: ReverseCardReturn): Promise<SimulationAnswer> {
    await this.writer.card(platformId, cardId);
    const token = uuidv7();
    await this.writer.step(
      platformId,
      transactionId,
      (pullRefused) => ({ type: 'ReverseReturn', platformId, cardId, reversalId: token, issuerTransactionToken: token, pullRefused, now: new Date().toISOString() }),
      true,
    );
    return { issuerTransactionToken: token };
  }
}
