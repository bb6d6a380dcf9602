import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { isOpen } from '../domain/card-transaction/card-transaction.decider';
import { CardTransactionWriter } from './card-transaction-commit';

/** The (sandbox) funding pull's confirmation; a task sends it (CARD_PULL_CONFIRMATION_TASK). */
export class ConfirmCardPull extends Command<void> {
  constructor(readonly transactionId: string) {
    super();
  }
}

/**
 * `CardPullConfirmed`, or `CardPullFailed` (EXCEPTION) for a `006` authorization, as fixed in the
 * authorization's `pullScenario`. At least once: a pull already resolved is left as it is. A
 * failed pull leaves the money held: an operator reconciles the transaction.
 */
@CommandHandler(ConfirmCardPull)
export class ConfirmCardPullHandler implements ICommandHandler<ConfirmCardPull, void> {
  constructor(private readonly writer: CardTransactionWriter) {}

  async execute({ transactionId }: ConfirmCardPull): Promise<void> {
    const { state } = await this.writer.load(transactionId);
    if (!isOpen(state)) return;
    const { platformId, cardId } = state;
    await this.writer.step(platformId, transactionId, () => ({ type: 'ResolvePull', platformId, cardId, now: new Date().toISOString() }), false);
  }
}
