import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProofFields, ScaChallenges } from '../../sca';
import { QuoteView } from '../queries/quote.view';
import { QuoteSca } from './quote-sca';
import { RecordQuoteChallenge } from './record-quote-challenge';
import { ReleaseQuoteAuthorization } from './release-quote-authorization';

export type { ProofFields };

/** `POST /quotes/{quoteId}/authorize` with a proof (`code`, or `passkeyAssertion` and `origin`). */
export class AuthorizeQuote extends Command<QuoteView> {
  constructor(
    readonly platformId: string,
    readonly quoteId: string,
    readonly proof: ProofFields,
    readonly endUserIpAddress: string | null,
  ) {
    super();
  }
}

/**
 * The SCA engine checks the proof against the challenge the quote shows; the quote then shows the
 * next challenge (RecordQuoteChallenge) or is released (ReleaseQuoteAuthorization). A challenge
 * found expired fails the quote (409). 409 too for a quote not waiting for authorization.
 */
@CommandHandler(AuthorizeQuote)
export class AuthorizeQuoteHandler implements ICommandHandler<AuthorizeQuote, QuoteView> {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly sca: QuoteSca,
    private readonly challenges: ScaChallenges,
  ) {}

  execute({ platformId, quoteId, proof, endUserIpAddress }: AuthorizeQuote): Promise<QuoteView> {
    return this.sca.answering(async () => {
      const { sequenceId, challengeId } = await this.sca.pendingChallenge(platformId, quoteId);
      const outcome = await this.sca.failingOnExpiry(quoteId, sequenceId, () =>
        this.challenges.authorize({ platformId, sequenceId, proof, endUserIpAddress, requireSession: true, expectedChallengeId: challengeId }),
      );
      if (outcome.kind === 'NEXT_CHALLENGE') return this.commandBus.execute(new RecordQuoteChallenge(quoteId, sequenceId, outcome.challenge));
      return this.commandBus.execute(new ReleaseQuoteAuthorization(quoteId, sequenceId));
    });
  }
}
