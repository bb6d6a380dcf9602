import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../infra/domain/domain-error';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { ChallengeFactor, SCA_NOT_COMPLETED, ScaChallenges, ScaCustomers, SequencePlan, scaNotRequired, sendChallengeSteps } from '../../sca';
import { AuthorizationRequest } from '../domain/quote/quote-authorization';
import { ExistingQuote, publicStatus } from '../domain/quote/quote.decider';
import { QuoteScaChallenge, QuoteTerms } from '../domain/quote/quote.events';
import { QuoteStore } from '../quote-store';
import { FailQuoteAuthorization } from './fail-quote-authorization';

export const QUOTE_SCA_SUBJECT = 'Quote';

type PlannedQuote = Pick<
  ExistingQuote,
  'quoteId' | 'platformId' | 'customerId' | 'destination' | 'sendingCurrency' | 'receivingCurrency' | 'totalSendingAmount' | 'totalReceivingAmount'
>;

/**
 * SCA for quotes (issue 6), on the SCA context's challenge engine: what CreateQuote, ExecuteQuote,
 * AuthorizeQuote, ResendQuoteChallenge and OpenQuoteChallenges share. A customer in an SCA region
 * authorizes each transfer: the quote records PENDING_AUTHORIZATION with the first challenge of a
 * planned sequence (dynamic linking: the amounts and the payee), and the engine checks the proofs.
 */
@Injectable()
export class QuoteSca {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly store: QuoteStore,
    private readonly scaCustomers: ScaCustomers,
    private readonly challenges: ScaChallenges,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  /** Whether the customer's transfers need SCA (an SCA region); platform quotes never do. */
  appliesTo(platformId: string, customerId: string | null): Promise<boolean> {
    return this.scaCustomers.appliesTo(platformId, customerId);
  }

  /**
   * For `POST /quotes`: the authorization a REALTIME_FUNDING quote of an SCA customer starts with,
   * on the request's `scaFactor` (SMS_OTP when none); null for any other quote.
   */
  async planForCreation(terms: QuoteTerms, scaFactor: string | null): Promise<AuthorizationRequest | null> {
    if (terms.source.sourceType !== 'REALTIME_FUNDING' || !(await this.appliesTo(terms.platformId, terms.customerId))) return null;
    return this.plan(terms, (scaFactor ?? 'SMS_OTP') as ChallengeFactor);
  }

  /** The challenge sequence for this quote's transfer, its first challenge included. */
  async plan(quote: PlannedQuote, factor: ChallengeFactor): Promise<AuthorizationRequest> {
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

  /** Opens the sequence of a recorded authorization (no-op when open). */
  async open(request: Pick<AuthorizationRequest, 'scaPlan'>): Promise<void> {
    await this.challenges.open(request.scaPlan as unknown as SequencePlan);
  }

  /** The sequence and the challenge a PENDING_AUTHORIZATION quote shows, or the 409 for any other. */
  async pendingChallenge(platformId: string, quoteId: string): Promise<{ sequenceId: string; challengeId: string }> {
    const { state } = await this.store.loadFor(platformId, quoteId);
    if (state.status === 'PENDING_AUTHORIZATION') return { sequenceId: state.authorization.sequenceId, challengeId: state.authorization.scaChallenge.id };
    if (!(await this.appliesTo(platformId, state.customerId))) throw scaNotRequired();
    throw new DomainError('CONFLICT', 'The quote is not waiting for SCA authorization', { reason: 'QUOTE_NOT_PENDING_AUTHORIZATION', status: publicStatus(state) });
  }

  /** A challenge found expired (and recorded so by the engine) fails the quote before the 409 goes out. */
  async failingOnExpiry<T>(quoteId: string, sequenceId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof DomainError && error.details?.reason === 'SCA_CHALLENGE_EXPIRED') {
        await this.commandBus.execute(new FailQuoteAuthorization(quoteId, sequenceId, SCA_NOT_COMPLETED));
      }
      throw error;
    }
  }

  /** Refusals may follow appends (an expiry, a refused hold): answer once the read models show them. */
  async answering<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await awaitOwnWrites(this.waiter);
      throw error;
    }
  }
}
