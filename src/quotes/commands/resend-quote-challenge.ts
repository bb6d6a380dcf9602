import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ScaChallenges } from '../../sca';
import { QuoteSca } from './quote-sca';

/** `POST /quotes/{quoteId}/authorize/resend`: the SMS code of the pending challenge again. */
export class ResendQuoteChallenge extends Command<void> {
  constructor(
    readonly platformId: string,
    readonly quoteId: string,
  ) {
    super();
  }
}

/** 409 for a quote not waiting for authorization; a challenge found expired fails the quote (409). */
@CommandHandler(ResendQuoteChallenge)
export class ResendQuoteChallengeHandler implements ICommandHandler<ResendQuoteChallenge, void> {
  constructor(
    private readonly sca: QuoteSca,
    private readonly challenges: ScaChallenges,
  ) {}

  async execute({ platformId, quoteId }: ResendQuoteChallenge): Promise<void> {
    await this.sca.answering(async () => {
      const { sequenceId } = await this.sca.pendingChallenge(platformId, quoteId);
      await this.sca.failingOnExpiry(quoteId, sequenceId, () => this.challenges.resend(platformId, sequenceId));
    });
  }
}
