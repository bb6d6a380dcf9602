import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { isExpiredAt } from '../domain/quote/quote.decider';
import { QuoteStore } from '../quote-store';

/** A task that fired before its time: BullMQ retries it (with backoff) rather than losing it. */
export class NotDueYetError extends Error {}

/** The expiry task (EXPIRE_QUOTE_TASK) of a quote, scheduled at its `expiresAt`. */
export class ExpireQuote extends Command<void> {
  constructor(readonly quoteId: string) {
    super();
  }
}

/** A PENDING quote past `expiresAt` becomes EXPIRED; anything else is left alone. */
@CommandHandler(ExpireQuote)
export class ExpireQuoteHandler implements ICommandHandler<ExpireQuote, void> {
  constructor(private readonly store: QuoteStore) {}

  async execute({ quoteId }: ExpireQuote): Promise<void> {
    const now = new Date().toISOString();
    const { state } = await this.store.handle(null, quoteId, { type: 'Expire', now }, await this.store.loadRecent(quoteId));
    if (state.status === 'PENDING' && !isExpiredAt(state, now)) throw new NotDueYetError(`Quote ${quoteId} expires at ${state.expiresAt}`);
  }
}
