import { Inject, Injectable } from '@nestjs/common';
import { InternalAccountsQuery } from '../accounts';
import { CustomersQuery } from '../customers';
import { APP_CONFIG, AppConfig } from '../infra/config';
import { FieldError } from '../infra/domain/domain-error';
import { ConcurrencyError } from '../infra/event-store/event-store.port';
import { EventStoreService } from '../infra/event-store/event-store.service';
import { newId, streamNameFor, uuidv5 } from '../infra/ids';
import { cardIssuanceScenario, sandboxCardDetails } from '../sandbox';
import { cardCardholderNotApproved, cardNotFound, cardholderRefused, fundingSourcesRefused, platformCardIdTaken } from './domain/cards.errors';
import { cardClaimDecider } from './domain/card-claim/card-claim.decider';
import { CardChanges, CardCommand, ExistingCard, IssuerDecision, assertMutable, cardDecider } from './domain/card/card.decider';
import { CardForm } from './domain/card/card.events';
import { CardView, cardView } from './queries/card.view';
import { CommandStore } from '../infra/commands/command-store';
import { CARD_CLAIM_STREAM, CARD_STREAM } from './streams';

export interface IssueCardInput {
  cardholderId: string;
  form: CardForm;
  fundingSources: string[];
  /** Null: the service generates one (`card-<12 hex>`). */
  platformCardId: string | null;
  maxSpendPerTransaction: number | null;
  /**
   * The static 3-D Secure password the platform chose, or null for one generated on the
   * cardholder's behalf. Forwarded to the issuer and discarded: it never enters an event, so no
   * read of the card can return it (the sandbox issuer has nothing to forward it to).
   */
  threeDSecurePassword: string | null;
}

/**
 * The sandbox card program transacts in US dollars: funding sources are the cardholder's
 * internal accounts in USD or a dollar stablecoin (spent 1:1), and `maxSpendPerTransaction` is
 * in US cents.
 */
export const CARD_CURRENCY = 'USD';
export const CARD_ELIGIBLE_FUNDING_CURRENCIES = ['USD', 'USDC', 'USDT', 'USDB'];

/** A claim whose card never got created (a request that died in between) is taken over after this. */
const ORPHAN_CLAIM_AFTER_MS = 30_000;

/**
 * Card use cases. Issuance checks the cardholder (KYC APPROVED) and the funding sources, claims
 * the `platformCardId`, then records the request (PROCESSING); the issuer's answer arrives later
 * through a task the `card-issuance` reactor schedules. PATCH re-decides on the fresh stream on
 * every concurrent write, so an update is never lost and never applied to a stale state.
 */
@Injectable()
export class CardsService {
  constructor(
    private readonly events: EventStoreService,
    private readonly commands: CommandStore,
    private readonly customers: CustomersQuery,
    private readonly internalAccounts: InternalAccountsQuery,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async issue(platformId: string, input: IssueCardInput): Promise<CardView> {
    await this.assertCardholderApproved(platformId, input.cardholderId);
    await this.assertFundingSources(platformId, input.cardholderId, input.fundingSources);
    const cardId = newId('Card');
    const now = new Date().toISOString();
    const platformCardId = input.platformCardId ?? `card-${cardId.replace(/-/g, '').slice(-12)}`;
    await this.claimPlatformCardId(platformId, platformCardId, cardId, now);
    const result = await this.commands.handle(CARD_STREAM, streamNameFor(cardId), {
      type: 'RequestCardIssuance',
      cardId,
      platformId,
      cardholderId: input.cardholderId,
      platformCardId,
      form: input.form,
      currency: CARD_CURRENCY,
      fundingSources: input.fundingSources,
      maxSpendPerTransaction: input.maxSpendPerTransaction,
      issuerScenario: cardIssuanceScenario(input.platformCardId, this.config.mode),
      now,
    });
    return cardView(result.state as ExistingCard);
  }

  async update(platformId: string, cardId: string, changes: CardChanges): Promise<CardView> {
    const stream = streamNameFor(cardId);
    const { state } = await this.commands.load(CARD_STREAM, stream);
    if (state.status === 'none' || state.platformId !== platformId) throw cardNotFound();
    // A closed card answers 409 whatever else is wrong with the request.
    assertMutable(state, changes);
    if (changes.fundingSources !== undefined) await this.assertFundingSources(platformId, state.cardholderId, changes.fundingSources);
    const result = await this.commands.handle(CARD_STREAM, stream, (): CardCommand => ({ type: 'UpdateCard', platformId, changes, now: new Date().toISOString() }));
    return cardView(result.state as ExistingCard);
  }

  /**
   * The (sandbox) issuer answers a PROCESSING card: issued (ACTIVE, with last4 and expiry) or
   * rejected (CLOSED, `ISSUER_REJECTED`). Runs as a task, at least once: a card already decided,
   * or one whose issuer never answers, is left as it is.
   */
  async applyIssuerDecision(cardId: string): Promise<void> {
    const stream = streamNameFor(cardId);
    const { state } = await this.commands.load(CARD_STREAM, stream);
    if (state.status !== 'PROCESSING' || state.issuerScenario === 'NO_ANSWER') return;
    const scenario = state.issuerScenario;
    await this.commands.handle(CARD_STREAM, stream, (): CardCommand => {
        const now = new Date().toISOString();
        const decision: IssuerDecision = scenario === 'REJECT' ? { outcome: 'REJECTED' } : { outcome: 'ISSUED', ...sandboxCardDetails(cardId, now) };
        return { type: 'RecordIssuerDecision', decision, now };
      });
  }

  /**
   * Cards go to individuals whose KYC is APPROVED. A business has no KYC status of its own, so it
   * is refused the same way. `POST /cards` declares no 404 nor 410: an unknown (or another
   * platform's) cardholder and a deleted one are a bad `cardholderId`, 400 INVALID_INPUT.
   */
  private async assertCardholderApproved(platformId: string, cardholderId: string): Promise<void> {
    const customer = await this.customers.findById(platformId, cardholderId);
    if (!customer) throw cardholderRefused('No customer with this id exists', 'CARDHOLDER_NOT_FOUND');
    if (customer.isDeleted) throw cardholderRefused('The cardholder was deleted', 'CARDHOLDER_DELETED');
    if (customer.customerType !== 'INDIVIDUAL') throw cardCardholderNotApproved({ customerType: customer.customerType, kycStatus: null });
    if (customer.kycStatus !== 'APPROVED') throw cardCardholderNotApproved({ customerType: 'INDIVIDUAL', kycStatus: customer.kycStatus });
  }

  /**
   * Funding sources must be the cardholder's own internal accounts in a card-eligible currency.
   * Every misfit is a field error (400 INVALID_INPUT): ids this platform does not know (including
   * other platforms' accounts) too, as `POST /cards` declares no 404 and on PATCH a 404 would
   * read as "no such card".
   */
  private async assertFundingSources(platformId: string, cardholderId: string, accountIds: string[]): Promise<void> {
    const accounts = await Promise.all(accountIds.map((accountId) => this.internalAccounts.findDetails(platformId, accountId)));
    const errors: FieldError[] = [];
    accounts.forEach((account, index) => {
      const field = `fundingSources.${index}`;
      if (account === null) {
        errors.push({ field, constraint: {}, message: `${accountIds[index]} is not an internal account of this platform` });
      } else if (account!.customerId === null) {
        errors.push({ field, constraint: {}, message: `${account!.accountId} is a platform account, not an account of the cardholder` });
      } else if (account!.customerId !== cardholderId) {
        errors.push({ field, constraint: {}, message: `${account!.accountId} belongs to another customer` });
      } else if (!CARD_ELIGIBLE_FUNDING_CURRENCIES.includes(account!.currency)) {
        errors.push({
          field,
          constraint: {},
          message: `${account!.accountId} holds ${account!.currency}; cards are funded from ${CARD_ELIGIBLE_FUNDING_CURRENCIES.join(', ')} accounts`,
        });
      }
    });
    if (errors.length > 0) throw fundingSourcesRefused(errors);
  }

  private async claimPlatformCardId(platformId: string, platformCardId: string, cardId: string, now: string): Promise<void> {
    const stream = `cardClaim-${uuidv5(`card-claim:${platformId}:${platformCardId}`)}`;
    for (let attempt = 0; attempt < 5; attempt++) {
      const { state, revision } = await this.commands.load(CARD_CLAIM_STREAM, stream);
      let takeOverFrom: string | null = null;
      if (state.status === 'held' && state.cardId !== cardId && !(await this.holderStillCounts(state.cardId, state.claimedAt, now))) {
        takeOverFrom = state.cardId;
      }
      const decided = cardClaimDecider.decide({ type: 'ClaimPlatformCardId', platformId, platformCardId, cardId, takeOverFrom, now }, state);
      try {
        if (decided.length > 0) await this.events.append(stream, decided, revision);
        return;
      } catch (error) {
        if (error instanceof ConcurrencyError) continue;
        throw error;
      }
    }
    // Five lost races in a row: another request keeps claiming this identifier, so it is taken.
    throw platformCardIdTaken(platformCardId, null);
  }

  /** A claim blocks while its card exists, or while that card's creation may still be in flight. */
  private async holderStillCounts(holderCardId: string, claimedAt: string, now: string): Promise<boolean> {
    const holder = await this.events.readStream(streamNameFor(holderCardId));
    if (holder.length > 0) return true;
    return Date.parse(now) - Date.parse(claimedAt) < ORPHAN_CLAIM_AFTER_MS;
  }
}
