import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { QuoteView, quoteView } from '../queries/quote.view';
import { QuoteStore, holdIdFor } from '../quote-store';
import { QuoteExecutionSteps } from './quote-execution-steps';

/**
 * The last challenge of the quote's SCA sequence was satisfied: AuthorizeQuote sends it, the SCA
 * reactor (`onCompleted`) too, so a request that died halfway is finished.
 */
export class ReleaseQuoteAuthorization extends Command<QuoteView> {
  constructor(
    readonly quoteId: string,
    readonly sequenceId: string,
  ) {
    super();
  }
}

/**
 * A prefunded quote is executed (its funds held by the execute steps), a REALTIME_FUNDING quote is
 * PENDING with its payment instructions. Answers the quote as this release left it, or the hold's
 * refusal (400).
 */
@CommandHandler(ReleaseQuoteAuthorization)
export class ReleaseQuoteAuthorizationHandler implements ICommandHandler<ReleaseQuoteAuthorization, QuoteView> {
  constructor(
    private readonly store: QuoteStore,
    private readonly steps: QuoteExecutionSteps,
  ) {}

  async execute({ quoteId, sequenceId }: ReleaseQuoteAuthorization): Promise<QuoteView> {
    const released = await this.store.handle(null, quoteId, (state) => ({
      type: 'ReleaseAuthorized',
      sequenceId,
      holdId: holdIdFor(quoteId, state.attempts + 1),
      now: new Date().toISOString(),
    }));
    const state = released.state;
    if (state.status !== 'EXECUTING') {
      // The SCA reactor released this quote first and its hold was refused: answer that refusal
      // (400), as the request that drove the release would have, never a 200 with a PENDING quote.
      if (released.events.length === 0 && state.status === 'PENDING' && state.lastRejection && state.source.sourceType === 'ACCOUNT') {
        throw await this.steps.rejection(state, null);
      }
      return quoteView(state);
    }
    const attempt = state.execution.attempt;
    const outcome = await this.steps.advance(quoteId, attempt, { state, revision: released.revision });
    if (outcome.asLeftByAttempt) return quoteView(outcome.asLeftByAttempt);
    throw await this.steps.rejection(outcome.state, outcome.refusal);
  }
}
