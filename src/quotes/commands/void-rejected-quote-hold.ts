import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ExistingQuote } from '../domain/quote/quote.decider';
import { QuoteExecutionSteps } from './quote-execution-steps';

/**
 * After `QuoteExecutionRejected` (the quote-process reactor sends it): the rejected attempt's hold
 * id is given back, or tombstoned so that a late hold under it is refused.
 */
export class VoidRejectedQuoteHold extends Command<void> {
  constructor(
    readonly quote: ExistingQuote,
    readonly holdId: string,
  ) {
    super();
  }
}

@CommandHandler(VoidRejectedQuoteHold)
export class VoidRejectedQuoteHoldHandler implements ICommandHandler<VoidRejectedQuoteHold, void> {
  constructor(private readonly steps: QuoteExecutionSteps) {}

  async execute({ quote, holdId }: VoidRejectedQuoteHold): Promise<void> {
    await this.steps.voidRejectedHold(quote, holdId);
  }
}
