import { Inject, Injectable } from '@nestjs/common';
import { AccountsLedger } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { ConcurrencyError } from '../../infra/event-store/event-store.port';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { streamNameFor } from '../../infra/ids';
import { ExistingQuote, QuoteCommand, quoteExpiredConflict } from '../domain/quote/quote.decider';
import { QuoteEvent } from '../domain/quote/quote.events';
import { QuoteView, foldQuote, quoteView } from '../queries/quote.view';
import { LoadedQuote, QuoteStore, holdIdFor } from '../quote-store';
import { INSUFFICIENT_FUNDS, insufficientFunds, isInsufficientFunds } from '../../accounts';
import { QUOTE_EXECUTION_SIGNATURE_VERIFIER, QuoteExecutionSignatureVerifier } from './quote-execution-signature';

export interface ExecuteOptions {
  signatureHeader: string | string[] | undefined;
  scaFactor: string | null;
}

const MAX_STEP_ATTEMPTS = 20;

/**
 * `POST /quotes/{quoteId}/execute`, crash-safe and race-free. Commonly in one commit (see
 * `executeAtomically`) where the event store allows it; otherwise, and for every refusal or
 * race, in three steps:
 *  1. record `QuoteExecutionRequested` at the revision read: of many concurrent executes exactly
 *     one wins, the others re-decide on what it recorded (409);
 *  2. hold the sending amount on the source account under the attempt's deterministic hold id;
 *  3. record `QuoteFundsHeld` (PROCESSING), or `QuoteExecutionRejected` when the hold is refused
 *     (400 INVALID_AMOUNT, reason INSUFFICIENT_FUNDS; the quote is PENDING again) and void that hold id.
 * Steps 2-3 (`advance`) are idempotent and also run from the quote-process reactor, which
 * finishes an execute whose request died after step 1. A hold that lost the race against a
 * rejection is given back by whoever placed it, and a hold placed after its attempt was voided
 * is refused by the ledger's tombstone, so no hold is ever left behind.
 */
@Injectable()
export class QuoteExecutionService {
  constructor(
    private readonly store: QuoteStore,
    private readonly ledger: AccountsLedger,
    @Inject(QUOTE_EXECUTION_SIGNATURE_VERIFIER) private readonly signatures: QuoteExecutionSignatureVerifier,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  async execute(platformId: string, quoteId: string, options: ExecuteOptions): Promise<QuoteView> {
    try {
      return await this.executeSteps(platformId, quoteId, options);
    } catch (error) {
      // A refusal may follow an append (the expiry the clock decided, a refused attempt): answer
      // only once the read models show it too, like a success does.
      await awaitOwnWrites(this.waiter);
      throw error;
    }
  }

  private async executeSteps(platformId: string, quoteId: string, options: ExecuteOptions): Promise<QuoteView> {
    const loaded = await this.store.loadRecentFor(platformId, quoteId);
    await this.checkWalletSignature(platformId, loaded.state, options.signatureHeader);
    const atomic = await this.executeAtomically(loaded, options.scaFactor);
    if (atomic.kind === 'executed') return quoteView(atomic.state);
    const requested = await this.store.handle(
      platformId,
      quoteId,
      (state) => ({ type: 'RequestExecution', holdId: holdIdFor(quoteId, state.attempts + 1), scaFactor: options.scaFactor, now: new Date().toISOString() }),
      // After a conflict what was loaded is stale: the sequential path starts from the stream.
      atomic.kind === 'conflict' ? undefined : loaded,
    );
    if (requested.state.status === 'EXPIRED') throw quoteExpiredConflict(requested.state);
    if (requested.state.status !== 'EXECUTING') throw new DomainError('CONFLICT', 'The quote is not executable');
    const attempt = requested.state.execution.attempt;
    const outcome = await this.advance(quoteId, attempt, { state: requested.state, revision: requested.revision });
    if (outcome.asLeftByAttempt) return quoteView(outcome.asLeftByAttempt);
    throw await this.rejection(outcome.state, outcome.refusal);
  }

  /**
   * The common case in one commit: `QuoteExecutionRequested` and `QuoteFundsHeld` on the quote
   * with `FundsHeld` on the source account (the attempt's deterministic hold id), when the quote
   * is PENDING and the account accepts the hold as this process knows them. Nothing is written
   * otherwise: `sequential` (a refusal, to be recorded and answered by the three-step path) or
   * `conflict` (another writer moved the quote or the account: that path starts from the stream).
   */
  private async executeAtomically(
    loaded: LoadedQuote & { state: ExistingQuote },
    scaFactor: string | null,
  ): Promise<{ kind: 'executed'; state: ExistingQuote } | { kind: 'sequential' | 'conflict' }> {
    const { state, revision } = loaded;
    const accountId = state.funding.sourceAccountId;
    if (!this.ledger.supportsAtomicSteps || state.status !== 'PENDING' || state.source.sourceType !== 'ACCOUNT' || !accountId) {
      return { kind: 'sequential' };
    }
    const now = new Date().toISOString();
    const attempt = state.attempts + 1;
    const holdId = holdIdFor(state.quoteId, attempt);
    let decided: { state: ExistingQuote; events: QuoteEvent[] };
    try {
      decided = this.store.decideAll(state, [
        { type: 'RequestExecution', holdId, scaFactor, now },
        { type: 'RecordFundsHeld', attempt, now },
      ]);
    } catch (error) {
      if (error instanceof DomainError) return { kind: 'sequential' };
      throw error;
    }
    // Anything but the two events (the clock passed expiresAt: QuoteExpired) is the sequential path's.
    if (decided.state.status !== 'PROCESSING' || decided.events.length !== 2) return { kind: 'sequential' };
    const outcome = await this.ledger.holdWith(
      { platformId: state.platformId, accountId, holdId, amount: state.totalSendingAmount, reference: state.transactionId, now },
      { streamName: streamNameFor(state.quoteId), events: decided.events, expectedRevision: revision },
    );
    if (outcome.kind === 'applied') {
      this.store.recordAppended(decided.state, outcome.companion.nextExpectedRevision);
      return { kind: 'executed', state: decided.state };
    }
    if (outcome.reason === 'COMPANION_CONFLICT') this.store.forget(state.quoteId);
    return { kind: outcome.reason === 'REFUSED' || outcome.reason === 'UNSUPPORTED' ? 'sequential' : 'conflict' };
  }

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

  async checkWalletSignature(platformId: string, state: ExistingQuote, header: string | string[] | undefined): Promise<void> {
    if (state.funding.sourceAccountType !== 'EMBEDDED_WALLET' || state.source.sourceType !== 'ACCOUNT') return;
    const info = state.paymentInstructions?.[0]?.accountOrWalletInfo;
    const payloadToSign = info?.accountType === 'EMBEDDED_WALLET' ? (info.payloadToSign as string) : null;
    if (!payloadToSign) throw new DomainError('INTERNAL_ERROR', 'The embedded-wallet quote has no payloadToSign');
    const result = await this.signatures.verify({
      platformId,
      quote: { quoteId: state.quoteId, walletAccountId: state.source.accountId, payloadToSign },
      header,
    });
    if (!result.ok) throw new DomainError(result.code, result.reason, { reason: result.reason });
  }
}

/** The quote right after the QuoteFundsHeld of `attempt`: the answer of the execute that drove it. */
function stateAfterFundsHeld(recorded: Array<{ type: string; data: Record<string, unknown> }>, attempt: number): ExistingQuote | undefined {
  const index = recorded.findIndex((event) => event.type === 'QuoteFundsHeld' && event.data.attempt === attempt);
  if (index < 0) return undefined;
  const state = foldQuote(recorded.slice(0, index + 1));
  return state.status === 'none' ? undefined : state;
}

