import { Injectable } from '@nestjs/common';
import { AccountsLedger, INSUFFICIENT_FUNDS, insufficientFunds, isInsufficientFunds } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { ExistingQuote, QuoteCommand, quoteExpiredConflict } from '../domain/quote/quote.decider';
import { foldQuote } from '../queries/quote.view';
import { QuoteStore } from '../quote-store';

const MAX_STEP_ATTEMPTS = 20;

/**
 * Steps 2-3 of an execute (see ExecuteQuoteHandler), shared by ExecuteQuote,
 * ReleaseQuoteAuthorization (the SCA release of a prefunded quote), ResumeQuoteExecution (the
 * task that finishes an execute whose request died) and VoidRejectedQuoteHold.
 *
 * `advance` combines a ledger step with the quote's next event: a process across two streams, so
 * it keeps its own round loop (hold, then append at the revision it read; on a conflict read the
 * quote again), and every append goes through QuoteStore. A hold that lost the race against a
 * rejection is given back by whoever placed it, and a hold placed after its attempt was voided is
 * refused by the ledger's tombstone, so no hold is ever left behind.
 */
@Injectable()
export class QuoteExecutionSteps {
  constructor(
    private readonly store: QuoteStore,
    private readonly ledger: AccountsLedger,
  ) {}

  /**
   * Takes an EXECUTING quote to PROCESSING (funds held) or back to PENDING (hold refused).
   * Idempotent: whatever another process already recorded is the outcome. `attempt` (when given)
   * is the attempt the caller drives; the answer then carries the quote as that attempt left it.
   */
  async advance(
    quoteId: string,
    attempt?: number,
    known?: { state: ExistingQuote; revision: number | 'no_stream' },
  ): Promise<{ state: ExistingQuote; refusal: DomainError | null; asLeftByAttempt?: ExistingQuote }> {
    let refusal: DomainError | null = null;
    for (let round = 1; round <= MAX_STEP_ATTEMPTS; round++) {
      // The caller's own append is the first state to work from; after a conflict, the stream.
      const { state, revision, recorded } = round === 1 && known ? { ...known, recorded: [] } : await this.store.load(quoteId);
      if (state.status === 'none') throw new DomainError('QUOTE_NOT_FOUND', 'Quote not found');
      if (state.status === 'PENDING' && state.lastRejection) {
        await this.voidRejectedHold(state, state.lastRejection.holdId);
        return { state, refusal };
      }
      if (state.status !== 'EXECUTING') {
        return { state, refusal, asLeftByAttempt: attempt ? stateAfterFundsHeld(recorded, attempt) : undefined };
      }
      const execution = state.execution;
      let command: QuoteCommand;
      try {
        await this.ledger.hold({
          platformId: state.platformId,
          accountId: state.funding.sourceAccountId!,
          holdId: execution.holdId,
          amount: state.totalSendingAmount,
          reference: state.transactionId,
        });
        command = { type: 'RecordFundsHeld', attempt: execution.attempt, now: new Date().toISOString() };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // Voided: another process recorded this attempt's rejection first; read what it recorded.
        if (error.details?.reason === 'HOLD_VOIDED') continue;
        const short = isInsufficientFunds(error);
        refusal = short ? insufficientFunds(error.details as { accountId: string; requested: number; available?: number }, 'quote') : error;
        // The stored reason stays INSUFFICIENT_FUNDS whatever code the ledger answered with.
        command = { type: 'RejectExecution', attempt: execution.attempt, reason: short ? INSUFFICIENT_FUNDS : error.code, now: new Date().toISOString() };
      }
      try {
        const decided = await this.store.append(state, revision, command);
        if (decided.state.status === 'PROCESSING' && decided.state.execution?.attempt === attempt) {
          return { state: decided.state, refusal, asLeftByAttempt: decided.state };
        }
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
      }
    }
    throw new DomainError('CONFLICT', 'The quote was changed concurrently; retry');
  }

  /**
   * Gives back (or tombstones) the hold of a rejected attempt: a process that placed it after the
   * refusal, or is about to, must not leave money held for a quote that is PENDING again.
   */
  async voidRejectedHold(state: ExistingQuote, holdId: string): Promise<void> {
    if (!state.funding.sourceAccountId) return;
    await this.ledger.voidHold({ platformId: state.platformId, accountId: state.funding.sourceAccountId, holdId, reason: 'QUOTE_EXECUTION_REJECTED' });
  }

  /** Why this execute's attempt did not get its funds held (the quote is PENDING again or EXPIRED). */
  async rejection(state: ExistingQuote, refusal: DomainError | null): Promise<DomainError> {
    if (state.status === 'EXPIRED') return quoteExpiredConflict(state);
    if (refusal) return refusal;
    // Another process recorded the refusal first: report the balance as it is now.
    const reason = state.status === 'PENDING' ? state.lastRejection?.reason ?? INSUFFICIENT_FUNDS : INSUFFICIENT_FUNDS;
    if (reason !== INSUFFICIENT_FUNDS || !state.funding.sourceAccountId) return new DomainError(reason, 'The funds for this quote could not be held');
    const account = await this.ledger.snapshot({ platformId: state.platformId, accountId: state.funding.sourceAccountId });
    return insufficientFunds({ accountId: account.accountId, available: account.available, requested: state.totalSendingAmount }, 'quote');
  }
}

/** The quote right after the QuoteFundsHeld of `attempt`: the answer of the execute that drove it. */
function stateAfterFundsHeld(recorded: Array<{ type: string; data: Record<string, unknown> }>, attempt: number): ExistingQuote | undefined {
  const index = recorded.findIndex((event) => event.type === 'QuoteFundsHeld' && event.data.attempt === attempt);
  if (index < 0) return undefined;
  const state = foldQuote(recorded.slice(0, index + 1));
  return state.status === 'none' ? undefined : state;
}

