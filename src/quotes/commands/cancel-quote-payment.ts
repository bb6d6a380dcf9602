import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountsLedger, CancelQuotePayment, USER_CANCELLATION, WireTransaction, isCancellableRail } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { ExistingQuote, QuoteCommand } from '../domain/quote/quote.decider';
import { QuoteEvent } from '../domain/quote/quote.events';
import { QuoteStore } from '../quote-store';
import { quotePaymentAnswer } from './quote-payment-answer';

const MAX_ROUNDS = 20;

/**
 * The accounts context's CancelQuotePayment (`POST /transactions/{id}/cancel` on a quote's
 * payment). The ledger decides the race with the settlement: the hold is settled or released,
 * never both. The release and the quote's `QuoteFailed` (cancelled) are one commit at the revision
 * the decision read; a settlement that moved the quote first makes the cancel decide again
 * (409 TRANSACTION_NOT_CANCELLABLE once it completed). A hold already released (a failing
 * settlement between its release and its record) is the cancellation's refund too: whichever
 * record lands first is the outcome. SettleQuoteStep re-reads the quote when its hold is gone.
 */
@CommandHandler(CancelQuotePayment)
export class CancelQuotePaymentHandler implements ICommandHandler<CancelQuotePayment, WireTransaction> {
  constructor(
    private readonly store: QuoteStore,
    private readonly ledger: AccountsLedger,
  ) {}

  async execute({ platformId, quoteId, reason }: CancelQuotePayment): Promise<WireTransaction> {
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      const { state, revision, recorded } = await this.store.loadFor(platformId, quoteId);
      const now = new Date().toISOString();
      const command: QuoteCommand = { type: 'Cancel', cancellableRail: isCancellableRail(state.paymentRail), reason, now };
      const { state: cancelled, events } = this.store.decideAll(state, [command]);
      if (events.length === 0) return quotePaymentAnswer(platformId, recorded);
      const outcome = await this.releaseAndRecord(state, revision, cancelled, events, command, now);
      if (outcome === 'conflict') continue;
      return quotePaymentAnswer(platformId, [...recorded, ...events]);
    }
    throw new DomainError('CONFLICT', 'The transaction was changed concurrently; retry');
  }

  private async releaseAndRecord(
    state: ExistingQuote,
    revision: number | 'no_stream',
    cancelled: ExistingQuote,
    events: QuoteEvent[],
    command: QuoteCommand,
    now: string,
  ): Promise<'recorded' | 'conflict'> {
    // The decider let only a quote with a held execution through.
    const execution = (state as { execution: { holdId: string } }).execution;
    const hold = { platformId: state.platformId, accountId: state.funding.sourceAccountId!, holdId: execution.holdId, reason: USER_CANCELLATION, now };
    const recordedAt = await this.ledger.releaseHoldRecording(
      hold,
      { streamName: streamNameFor(state.quoteId), events, expectedRevision: revision },
      async () => (await this.store.append(state, revision, command)).revision as number,
      alreadySettled,
    );
    if (recordedAt === null) {
      this.store.forget(state.quoteId);
      return 'conflict';
    }
    this.store.recordAppended(cancelled, recordedAt);
    return 'recorded';
  }
}

function alreadySettled(): DomainError {
  return new DomainError('TRANSACTION_NOT_CANCELLABLE', 'The payment has already settled', { reason: 'ALREADY_SETTLED' });
}
