import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountsLedger } from '../../accounts';
import { DomainError, ValidationError } from '../../infra/domain/domain-error';
import { streamNameFor } from '../../infra/ids';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { ChallengeFactor } from '../../sca';
import { perTransactionFactorError } from '../domain/quote/quote-authorization';
import { ExistingQuote, quoteExpiredConflict } from '../domain/quote/quote.decider';
import { QuoteEvent } from '../domain/quote/quote.events';
import { QUOTE_EXECUTION_SIGNATURE_VERIFIER, QuoteExecutionSignatureVerifier } from '../execution/quote-execution-signature';
import { QuoteView, quoteView } from '../queries/quote.view';
import { LoadedQuote, QuoteStore, holdIdFor } from '../quote-store';
import { QuoteExecutionSteps } from './quote-execution-steps';
import { QuoteSca } from './quote-sca';

/**
 * `POST /quotes/{quoteId}/execute`, and `POST /quotes` with `immediatelyExecute`. `signatureHeader`
 * is the raw `Service-Wallet-Signature` header (EMBEDDED_WALLET sources); `scaFactor` the
 * customer's preferred per-transaction factor (null: SMS_OTP; ignored outside SCA regions).
 */
export class ExecuteQuote extends Command<QuoteView> {
  constructor(
    readonly platformId: string,
    readonly quoteId: string,
    readonly signatureHeader: string | string[] | undefined,
    readonly scaFactor: string | null,
  ) {
    super();
  }
}

type LoadedExistingQuote = LoadedQuote & { state: ExistingQuote };

/**
 * Customers in an SCA region get a challenge (PENDING_AUTHORIZATION; AuthorizeQuote releases the
 * transfer later), the others the execute itself, crash-safe and race-free. Commonly in one commit
 * (see `executeAtomically`) where the event store allows it; otherwise, and for every refusal or
 * race, in three steps:
 *  1. record `QuoteExecutionRequested` at the revision read: of many concurrent executes exactly
 *     one wins, the others re-decide on what it recorded (409);
 *  2. hold the sending amount on the source account under the attempt's deterministic hold id;
 *  3. record `QuoteFundsHeld` (PROCESSING), or `QuoteExecutionRejected` when the hold is refused
 *     (400 INVALID_AMOUNT, reason INSUFFICIENT_FUNDS; the quote is PENDING again) and void that hold id.
 * Steps 2-3 (QuoteExecutionSteps.advance) are idempotent and also run from ResumeQuoteExecution,
 * which finishes an execute whose request died after step 1.
 */
@CommandHandler(ExecuteQuote)
export class ExecuteQuoteHandler implements ICommandHandler<ExecuteQuote, QuoteView> {
  constructor(
    private readonly store: QuoteStore,
    private readonly ledger: AccountsLedger,
    private readonly steps: QuoteExecutionSteps,
    private readonly sca: QuoteSca,
    @Inject(QUOTE_EXECUTION_SIGNATURE_VERIFIER) private readonly signatures: QuoteExecutionSignatureVerifier,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  async execute(command: ExecuteQuote): Promise<QuoteView> {
    // A factor that cannot authorize a transfer is refused before the quote is looked at (400, not 404).
    const factorError = command.scaFactor !== null ? perTransactionFactorError(command.scaFactor) : null;
    if (factorError) throw new ValidationError([factorError]);
    const loaded = await this.store.loadRecentFor(command.platformId, command.quoteId);
    if (await this.sca.appliesTo(command.platformId, loaded.state.customerId)) return this.requestAuthorization(command, loaded);
    try {
      return await this.executeSteps(command);
    } catch (error) {
      // A refusal may follow an append (the expiry the clock decided, a refused attempt): answer
      // only once the read models show it too, like a success does.
      await awaitOwnWrites(this.waiter);
      throw error;
    }
  }

  /** SCA region: PENDING_AUTHORIZATION with the first challenge of a new sequence, nothing held. */
  private requestAuthorization({ platformId, quoteId, signatureHeader, scaFactor }: ExecuteQuote, loaded: LoadedExistingQuote): Promise<QuoteView> {
    return this.sca.answering(async () => {
      await this.checkWalletSignature(platformId, loaded.state, signatureHeader);
      const request = await this.sca.plan(loaded.state, (scaFactor ?? 'SMS_OTP') as ChallengeFactor);
      const { state } = await this.store.handle(platformId, quoteId, { type: 'RequestAuthorization', ...request, now: new Date().toISOString() }, loaded);
      if (state.status === 'EXPIRED') throw quoteExpiredConflict(state);
      if (state.status !== 'PENDING_AUTHORIZATION' || state.authorization.sequenceId !== request.sequenceId) {
        throw new DomainError('CONFLICT', 'The quote is not executable');
      }
      await this.sca.open(request);
      return quoteView(state);
    });
  }

  private async executeSteps({ platformId, quoteId, signatureHeader, scaFactor }: ExecuteQuote): Promise<QuoteView> {
    const loaded = await this.store.loadRecentFor(platformId, quoteId);
    await this.checkWalletSignature(platformId, loaded.state, signatureHeader);
    const atomic = await this.executeAtomically(loaded, scaFactor);
    if (atomic.kind === 'executed') return quoteView(atomic.state);
    const requested = await this.store.handle(
      platformId,
      quoteId,
      (state) => ({ type: 'RequestExecution', holdId: holdIdFor(quoteId, state.attempts + 1), scaFactor, now: new Date().toISOString() }),
      // After a conflict what was loaded is stale: the sequential path starts from the stream.
      atomic.kind === 'conflict' ? undefined : loaded,
    );
    if (requested.state.status === 'EXPIRED') throw quoteExpiredConflict(requested.state);
    if (requested.state.status !== 'EXECUTING') throw new DomainError('CONFLICT', 'The quote is not executable');
    const attempt = requested.state.execution.attempt;
    const outcome = await this.steps.advance(quoteId, attempt, { state: requested.state, revision: requested.revision });
    if (outcome.asLeftByAttempt) return quoteView(outcome.asLeftByAttempt);
    throw await this.steps.rejection(outcome.state, outcome.refusal);
  }

  /**
   * The common case in one commit: `QuoteExecutionRequested` and `QuoteFundsHeld` on the quote
   * with `FundsHeld` on the source account (the attempt's deterministic hold id), when the quote
   * is PENDING and the account accepts the hold as this process knows them. Nothing is written
   * otherwise: `sequential` (a refusal, to be recorded and answered by the three-step path) or
   * `conflict` (another writer moved the quote or the account: that path starts from the stream).
   * The two streams' events go through the ledger's atomic step, the quote's decided by QuoteStore.
   */
  private async executeAtomically(
    loaded: LoadedExistingQuote,
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

  /** An EMBEDDED_WALLET source needs a signature over the quote's payloadToSign by a live session key. */
  private async checkWalletSignature(platformId: string, state: ExistingQuote, header: string | string[] | undefined): Promise<void> {
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
