import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { insufficientFunds, isInsufficientFunds } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { uuidv7 } from '../../infra/ids';
import { SimulationAnswer } from './card-transaction-authorize';
import { CardTransactionWriter } from './card-transaction-commit';

/** A sandbox AUTHORIZATION_ADVICE: the open authorization's new total is `amountCents`. */
export class AdviseCardAuthorization extends Command<SimulationAnswer> {
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
 * The hold is adjusted to the new total less what is cleared already. An increase the account
 * cannot cover records nothing and answers as every request path answers a short balance: 400
 * INVALID_AMOUNT, `details.reason` INSUFFICIENT_FUNDS (the reference's 400 has no
 * INSUFFICIENT_FUNDS code).
 */
@CommandHandler(AdviseCardAuthorization)
export class AdviseCardAuthorizationHandler implements ICommandHandler<AdviseCardAuthorization, SimulationAnswer> {
  constructor(private readonly writer: CardTransactionWriter) {}

  async execute({ platformId, cardId, transactionId, amountCents }: AdviseCardAuthorization): Promise<SimulationAnswer> {
    await this.writer.card(platformId, cardId);
    const token = uuidv7();
    try {
      await this.writer.step(
        platformId,
        transactionId,
        () => ({ type: 'Resize', platformId, cardId, adviceId: token, issuerTransactionToken: token, amountCents, now: new Date().toISOString() }),
        false,
      );
    } catch (error) {
      if (!isInsufficientFunds(error)) throw error;
      const details = (error as DomainError).details as { accountId: string; requested: number; available?: number };
      throw insufficientFunds({ accountId: details.accountId, requested: details.requested, available: details.available });
    }
    return { issuerTransactionToken: token };
  }
}
