import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { QuoteStore } from '../quote-store';

/**
 * A challenge of the quote's SCA sequence expired unsatisfied: the SCA reactor (`onFailed`) sends
 * it, and so does an authorize or resend that finds the challenge expired.
 */
export class FailQuoteAuthorization extends Command<void> {
  constructor(
    readonly quoteId: string,
    readonly sequenceId: string,
    readonly failureReason: string,
  ) {
    super();
  }
}

/** The quote fails (SCA_NOT_COMPLETED), nothing was held; a step of another sequence is a no-op. */
@CommandHandler(FailQuoteAuthorization)
export class FailQuoteAuthorizationHandler implements ICommandHandler<FailQuoteAuthorization, void> {
  constructor(private readonly store: QuoteStore) {}

  async execute({ quoteId, sequenceId, failureReason }: FailQuoteAuthorization): Promise<void> {
    await this.store.handle(null, quoteId, { type: 'FailAuthorization', sequenceId, failureReason, now: new Date().toISOString() });
  }
}
