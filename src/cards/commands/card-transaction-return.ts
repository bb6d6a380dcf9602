import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { uuidv7 } from '../../infra/ids';
import { SimulationAnswer } from './card-transaction-authorize';
import { CardTransactionWriter } from './card-transaction-commit';

/** A sandbox merchant RETURN of `amountCents` of a transaction's cleared amount. */
export class ReturnCardTransaction extends Command<SimulationAnswer> {
  constructor(
    readonly platformId: string,
    readonly cardId: string,
    readonly transactionId: string,
    readonly amountCents: number,
  ) {
    super();
  }
}

/** Credits the returned amount back to the transaction's account (REFUNDED once a SETTLED transaction is returned in full). */
@CommandHandler(ReturnCardTransaction)
export class ReturnCardTransactionHandler implements ICommandHandler<ReturnCardTransaction, SimulationAnswer> {
  constructor(private readonly writer: CardTransactionWriter) {}

  async execute({ platformId, cardId, transactionId, amountCents }: ReturnCardTransaction): Promise<SimulationAnswer> {
    await this.writer.card(platformId, cardId);
    const token = uuidv7();
    await this.writer.step(
      platformId,
      transactionId,
      () => ({ type: 'Return', platformId, cardId, returnId: token, issuerTransactionToken: token, amountCents, now: new Date().toISOString() }),
      false,
    );
    return { issuerTransactionToken: token };
  }
}
