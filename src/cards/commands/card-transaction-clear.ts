import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { uuidv7 } from '../../infra/ids';
import { SimulationAnswer } from './card-transaction-authorize';
import { CardTransactionWriter } from './card-transaction-commit';

/** A sandbox clearing of `amountCents` (0: the authorization expired) against one of the card's transactions. */
export class ClearCardTransaction extends Command<SimulationAnswer> {
  constructor(
    readonly platformId: string,
    readonly cardId: string,
    readonly transactionId: string,
    readonly amountCents: number,
  ) {
    super();
  }
}

/**
 * Captures from the hold what it covers and pulls the rest from the account (a post-hoc pull);
 * when the account cannot cover that rest, the capture alone is recorded with the pull FAILED
 * (EXCEPTION). A clearing of 0 releases what is still held.
 */
@CommandHandler(ClearCardTransaction)
export class ClearCardTransactionHandler implements ICommandHandler<ClearCardTransaction, SimulationAnswer> {
  constructor(private readonly writer: CardTransactionWriter) {}

  async execute({ platformId, cardId, transactionId, amountCents }: ClearCardTransaction): Promise<SimulationAnswer> {
    await this.writer.card(platformId, cardId);
    const token = uuidv7();
    await this.writer.step(
      platformId,
      transactionId,
      (pullRefused) => ({ type: 'Clear', platformId, cardId, clearingId: token, issuerTransactionToken: token, amountCents, pullRefused, now: new Date().toISOString() }),
      true,
    );
    return { issuerTransactionToken: token };
  }
}
