import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../infra/domain/domain-error';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { ScaChallengeView } from '../../sca';
import { ChallengeFactor, SCA_NOT_COMPLETED, ScaChallenges, SequencePlan } from '../../sca';
import { ScaCustomers } from '../../sca';
import { scaNotRequired } from '../../sca';
import { ProofFields } from '../../sca';
import { sendChallengeSteps } from '../../sca';
import { AuthorizationRequest } from '../domain/quote/quote-authorization';
import { ExistingQuote, QuoteCommand, publicStatus, quoteExpiredConflict } from '../domain/quote/quote.decider';
import { QuoteScaChallenge, QuoteTerms } from '../domain/quote/quote.events';
import { ExecuteOptions, QuoteExecutionService } from '../execution/quote-execution.service';
import { QuoteView, quoteView } from '../queries/quote.view';
import { QuoteStore, holdIdFor } from '../quote-store';

export const QUOTE_SCA_SUBJECT = 'Quote';

/**
 * SCA for quotes (issue 6), on the SCA context's challenge engine: execute for a customer in an
 * SCA region records PENDING_AUTHORIZATION with the first challenge instead of holding funds (a
 * REALTIME_FUNDING quote of such a customer is created that way); `authorize` checks a proof and
 * shows the next challenge or releases the transfer (the normal execute path then holds the
 * funds); `resend` sends the SMS code again. The SCA reactor calls `recordChallenge`, `release`
 * and `fail` as well, so a request that died halfway is finished and an expired challenge fails
 * the quote. Every step is idempotent by sequence id.
 */
@Injectable()
export class QuoteAuthorizationService {
  constructor(
    private readonly store: QuoteStore,
    private readonly execution: QuoteExecutionService,
    private readonly scaCustomers: ScaCustomers,
    private readonly challenges: ScaChallenges,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  /** `POST /quotes/{id}/execute`: SCA customers get a challenge, the others the plain execute. */
  async execute(platformId: string, quoteId: string, options: ExecuteOptions): Promise<QuoteView> {
    const loaded = await this.store.loadRecentFor(platformId, quoteId);
    if (!(await this.scaCustomers.appliesTo(platformId, loaded.state.customerId))) return this.execution.execute(platformId, quoteId, options);
    return this.answering(async () => {
      await this.execution.checkWalletSignature(platformId, loaded.state, options.signatureHeader);
      const factor = (options.scaFactor ?? 'SMS_OTP') as ChallengeFactor;
      const request = await this.plan(loaded.state, factor);
      const { state } = await this.store.handle(platformId, quoteId, { type: 'RequestAuthorization', ...request, now: new Date().toISOString() }, loaded);
      if (state.status === 'EXPIRED') throw quoteExpiredConflict(state);
      if (state.status !== 'PENDING_AUTHORIZATION' || state.authorization.sequenceId !== request.sequenceId) {
        throw new DomainError('CONFLICT', 'The quote is not executable');
      }
      await this.challenges.open(request.scaPlan as unknown as SequencePlan);
      return quoteView(state);
    });
  }

  /**
   * For `POST /quotes`: the authorization a REALTIME_FUNDING quote of an SCA customer starts with,
   * on the request's `scaFactor` (SMS_OTP when none).
   */
  async planForCreation(terms: QuoteTerms, scaFactor: string | null = null): Promise<AuthorizationRequest | null> {
    if (terms.source.sourceType !== 'REALTIME_FUNDING' || !(await this.scaCustomers.appliesTo(terms.platformId, terms.customerId))) return null;
    return this.plan(terms, (scaFactor ?? 'SMS_OTP') as ChallengeFactor);
  }

  /** Opens the sequence of a recorded authorization (no-op when open). */
  async open(request: Pick<AuthorizationRequest, 'scaPlan'>): Promise<void> {
    await this.challenges.open(request.scaPlan as unknown as SequencePlan);
  }

  /** `POST /quotes/{id}/authorize`: the quote with the next challenge, or as the release left it. */
  async authorize(platformId: string, quoteId: string, proof: ProofFields, endUserIpAddress: string | null): Promise<QuoteView> {
    return this.answering(async () => {
      const { sequenceId, challengeId } = await this.pendingChallenge(platformId, quoteId);
      const outcome = await this.failingOnExpiry(quoteId, sequenceId, () =>
        this.challenges.authorize({ platformId, sequenceId, proof, endUserIpAddress, requireSession: true, expectedChallengeId: challengeId }),
      );
      if (outcome.kind === 'NEXT_CHALLENGE') return quoteView(await this.recordChallenge(quoteId, sequenceId, outcome.challenge));
      return this.release(quoteId, sequenceId);
    });
  }

  /** `POST /quotes/{id}/authorize/resend`. */
  async resend(platformId: string, quoteId: string): Promise<void> {
    await this.answering(async () => {
      const sequenceId = await this.pendingSequence(platformId, quoteId);
      await this.failingOnExpiry(quoteId, sequenceId, () => this.challenges.resend(platformId, sequenceId));
    });
  }

  async recordChallenge(quoteId: string, sequenceId: string, challenge: ScaChallengeView): Promise<ExistingQuote> {
    const command: QuoteCommand = { type: 'RecordScaChallenge', sequenceId, scaChallenge: challenge as QuoteScaChallenge, now: new Date().toISOString() };
    return (await this.store.handle(null, quoteId, command)).state;
  }

  /**
   * The last challenge was satisfied: a prefunded quote is executed (its funds held by the
   * execute path), a REALTIME_FUNDING quote is PENDING with its payment instructions.
   */
  async release(quoteId: string, sequenceId: string): Promise<QuoteView> {
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
        throw await this.execution.rejection(state, null);
      }
      return quoteView(state);
    }
    const attempt = state.execution.attempt;
    const outcome = await this.execution.advance(quoteId, attempt, { state, revision: released.revision });
    if (outcome.asLeftByAttempt) return quoteView(outcome.asLeftByAttempt);
    throw await this.execution.rejection(outcome.state, outcome.refusal);
  }

  /** A challenge expired unsatisfied: the quote fails, nothing was held. */
  async fail(quoteId: string, sequenceId: string, failureReason: string): Promise<void> {
    await this.store.handle(null, quoteId, { type: 'FailAuthorization', sequenceId, failureReason, now: new Date().toISOString() });
  }

  private async plan(quote: Pick<ExistingQuote, 'quoteId' | 'platformId' | 'customerId' | 'destination' | 'sendingCurrency' | 'receivingCurrency' | 'totalSendingAmount' | 'totalReceivingAmount'>, factor: ChallengeFactor): Promise<AuthorizationRequest> {
    const payee = quote.destination.destinationType === 'ACCOUNT' ? quote.destination.accountId : quote.destination.umaAddress;
    const plan = await this.challenges.plan({
      platformId: quote.platformId,
      customerId: quote.customerId!,
      subject: { type: QUOTE_SCA_SUBJECT, id: quote.quoteId },
      factor,
      steps: sendChallengeSteps({ ...quote, payee }),
      requireSession: true,
    });
    return {
      sequenceId: plan.sequenceId,
      scaFactor: factor,
      scaChallenge: this.challenges.planChallengeView(plan) as QuoteScaChallenge,
      scaPlan: plan as unknown as Record<string, unknown>,
    };
  }

  /** The sequence of a PENDING_AUTHORIZATION quote, or the 409 for any other. */
  private async pendingSequence(platformId: string, quoteId: string): Promise<string> {
    return (await this.pendingChallenge(platformId, quoteId)).sequenceId;
  }

  /** The sequence and the challenge a PENDING_AUTHORIZATION quote shows, or the 409 for any other. */
  private async pendingChallenge(platformId: string, quoteId: string): Promise<{ sequenceId: string; challengeId: string }> {
    const { state } = await this.store.loadFor(platformId, quoteId);
    if (state.status === 'PENDING_AUTHORIZATION') return { sequenceId: state.authorization.sequenceId, challengeId: state.authorization.scaChallenge.id };
    if (!(await this.scaCustomers.appliesTo(platformId, state.customerId))) throw scaNotRequired();
    throw new DomainError('CONFLICT', 'The quote is not waiting for SCA authorization', { reason: 'QUOTE_NOT_PENDING_AUTHORIZATION', status: publicStatus(state) });
  }

  /** A challenge found expired (and recorded so by the engine) fails the quote before the 409 goes out. */
  private async failingOnExpiry<T>(quoteId: string, sequenceId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof DomainError && error.details?.reason === 'SCA_CHALLENGE_EXPIRED') await this.fail(quoteId, sequenceId, SCA_NOT_COMPLETED);
      throw error;
    }
  }

  /** Refusals may follow appends (an expiry, a refused hold): answer once the read models show them. */
  private async answering<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await awaitOwnWrites(this.waiter);
      throw error;
    }
  }
}
