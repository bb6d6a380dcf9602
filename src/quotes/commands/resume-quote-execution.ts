import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { QuoteExecutionSteps } from './quote-execution-steps';

/**
 * Finishes an execute whose request died after recording `QuoteExecutionRequested`: the
 * quote-process reactor schedules it (RESUME_EXECUTION_TASK) a little after the request.
 */
export class ResumeQuoteExecution extends Command<void> {
  constructor(readonly quoteId: string) {
    super();
  }
}

/** Holds the funds and records the outcome; whatever another process already recorded stands. */
@CommandHandler(ResumeQuoteExecution)
export class ResumeQuoteExecutionHandler implements ICommandHandler<ResumeQuoteExecution, void> {
  constructor(private readonly steps: QuoteExecutionSteps) {}

  async execute({ quoteId }: ResumeQuoteExecution): Promise<void> {
    await this.steps.advance(quoteId);
  }
}
