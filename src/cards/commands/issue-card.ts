import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CustomersQuery } from '../../customers';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { DomainError } from '../../infra/domain/domain-error';
import { EventStoreService } from '../../infra/event-store/event-store.service';
import { newId, streamNameFor, uuidv5 } from '../../infra/ids';
import { cardIssuanceScenario } from '../../sandbox';
import { cardCardholderNotApproved, cardholderRefused, platformCardIdTaken } from '../domain/cards.errors';
import { ExistingCard } from '../domain/card/card.decider';
import { CardForm } from '../domain/card/card.events';
import { CardView, cardView } from '../queries/card.view';
import { CARD_CLAIM_STREAM, CARD_STREAM } from '../streams';
import { CardFundingSources } from './card-funding-sources';

/** The sandbox card program transacts in US dollars; `maxSpendPerTransaction` is in US cents. */
export const CARD_CURRENCY = 'USD';

/** A claim whose card never got created (a request that died in between) is taken over after this. */
const ORPHAN_CLAIM_AFTER_MS = 30_000;

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

/** `POST /cards`: answers the card, PROCESSING until the issuer's decision. */
export class IssueCard extends Command<CardView> {
  constructor(
    readonly platformId: string,
    readonly input: IssueCardInput,
  ) {
    super();
  }
}

/**
 * Issuance checks the cardholder (KYC APPROVED) and the funding sources, claims the
 * `platformCardId` (unique per platform), then records the request (PROCESSING); the issuer's
 * answer arrives later through RecordIssuerDecision, scheduled by the `card-issuance` reactor.
 */
@CommandHandler(IssueCard)
export class IssueCardHandler implements ICommandHandler<IssueCard, CardView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly events: EventStoreService,
    private readonly customers: CustomersQuery,
    private readonly fundingSources: CardFundingSources,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, input }: IssueCard): Promise<CardView> {
    await this.assertCardholderApproved(platformId, input.cardholderId);
    await this.fundingSources.assertUsable(platformId, input.cardholderId, input.fundingSources);
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

  /** Claims the identifier; a claim whose card never got created is taken over after a while. */
  private async claimPlatformCardId(platformId: string, platformCardId: string, cardId: string, now: string): Promise<void> {
    const stream = `cardClaim-${uuidv5(`card-claim:${platformId}:${platformCardId}`)}`;
    try {
      await this.commands.handle(CARD_CLAIM_STREAM, stream, async (state) => {
        const orphaned = state.status === 'held' && state.cardId !== cardId && !(await this.holderStillCounts(state.cardId, state.claimedAt, now));
        return { type: 'ClaimPlatformCardId', platformId, platformCardId, cardId, takeOverFrom: orphaned ? (state as { cardId: string }).cardId : null, now };
      });
    } catch (error) {
      // Every attempt lost a race: another request keeps claiming this identifier, so it is taken.
      if (error instanceof DomainError && error.code === 'CONFLICT') throw platformCardIdTaken(platformCardId, null);
      throw error;
    }
  }

  /** A claim blocks while its card exists, or while that card's creation may still be in flight. */
  private async holderStillCounts(holderCardId: string, claimedAt: string, now: string): Promise<boolean> {
    const holder = await this.events.readStream(streamNameFor(holderCardId));
    if (holder.length > 0) return true;
    return Date.parse(now) - Date.parse(claimedAt) < ORPHAN_CLAIM_AFTER_MS;
  }
}
