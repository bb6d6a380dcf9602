import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ScaChallengeView } from '../../sca';
import { QuoteScaChallenge } from '../domain/quote/quote.events';
import { QuoteView, quoteView } from '../queries/quote.view';
import { QuoteStore } from '../quote-store';

/**
 * The SCA engine issued the next challenge of the quote's sequence: AuthorizeQuote sends it after
 * a satisfied step, the SCA reactor (`onChallengeIssued`) too, so a request that died is finished.
 */
export class RecordQuoteChallenge extends Command<QuoteView> {
  constructor(
    readonly quoteId: string,
    readonly sequenceId: string,
    readonly challenge: ScaChallengeView,
  ) {
    super();
  }
}

/** The quote shows the new challenge; a challenge already shown, or of another sequence, is a no-op. */
@CommandHandler(RecordQuoteChallenge)
export class RecordQuoteChallengeHandler implements ICommandHandler<RecordQuoteChallenge, QuoteView> {
  constructor(private readonly store: QuoteStore) {}

  async execute({ quoteId, sequenceId, challenge }: RecordQuoteChallenge): Promise<QuoteView> {
    const scaChallenge = challenge as QuoteScaChallenge;
    const { state } = await this.store.handle(null, quoteId, { type: 'RecordScaChallenge', sequenceId, scaChallenge, now: new Date().toISOString() });
    return quoteView(state);
  }
}
