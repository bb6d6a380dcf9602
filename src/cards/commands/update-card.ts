import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { streamNameFor } from '../../infra/ids';
import { cardNotFound } from '../domain/cards.errors';
import { CardChanges, ExistingCard, assertMutable } from '../domain/card/card.decider';

export type { CardChanges };
import { CardView, cardView } from '../queries/card.view';
import { CARD_STREAM } from '../streams';
import { CardFundingSources } from './card-funding-sources';

/** `PATCH /cards/{id}`: state, funding sources, spend limit. */
export class UpdateCard extends Command<CardView> {
  constructor(
    readonly platformId: string,
    readonly cardId: string,
    readonly changes: CardChanges,
  ) {
    super();
  }
}

/**
 * Checks the card is this platform's and mutable and the new funding sources usable, then
 * re-decides on the fresh stream on every concurrent write, so an update is never lost and never
 * applied to a stale state.
 */
@CommandHandler(UpdateCard)
export class UpdateCardHandler implements ICommandHandler<UpdateCard, CardView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly fundingSources: CardFundingSources,
  ) {}

  async execute({ platformId, cardId, changes }: UpdateCard): Promise<CardView> {
    const stream = streamNameFor(cardId);
    const { state } = await this.commands.load(CARD_STREAM, stream);
    if (state.status === 'none' || state.platformId !== platformId) throw cardNotFound();
    // A closed card answers 409 whatever else is wrong with the request.
    assertMutable(state, changes);
    if (changes.fundingSources !== undefined) await this.fundingSources.assertUsable(platformId, state.cardholderId, changes.fundingSources);
    const result = await this.commands.handle(CARD_STREAM, stream, { type: 'UpdateCard', platformId, changes, now: new Date().toISOString() });
    return cardView(result.state as ExistingCard);
  }
}
