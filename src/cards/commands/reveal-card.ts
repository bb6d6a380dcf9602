import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandStore } from '../../infra/commands/command-store';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { parseId, streamNameFor } from '../../infra/ids';
import { SandboxCardSecrets, sandboxCardSecrets } from '../../sandbox';
import { isRevealable } from '../domain/card/card.decider';
import { cardNotFound, cardRevealNotAvailable } from '../domain/cards.errors';
import { CARD_STREAM } from '../streams';
import { CardRevealTokens } from './card-reveal-token';

/** Where the sandbox card processor's reveal page is served, below the API version (card-embed.controller.ts). */
export const CARD_EMBED_PAGE_PATH = 'sandbox/cards/embed';

/**
 * `POST /cards/{id}/reveal`: the URL of the page showing the card's full details, and when it stops loading.
 * @example
 * {
 *   "panEmbedUrl": "https://api.example.com/2025-10-13/sandbox/cards/embed?t=eyJjYXJkSWQiOiJDYXJkOjAxOWE0YTE5LTE4NzQtN2M2ZC04ZTJhLTRiOWYwYTNkMWM1OCJ9.q3Vh0Yk2pQe7mJ1wXr9sLbT4nC8dF6aZ0uK5yG2hE1o",
 *   "expiresAt": "2025-11-03T14:27:30.004Z"
 * }
 */
export interface CardRevealView {
  panEmbedUrl: string;
  expiresAt: string;
}

export class RevealCard extends Command<CardRevealView> {
  constructor(
    readonly platformId: string,
    readonly cardId: string,
    /** The request's origin: the URL's base unless PUBLIC_BASE_URL is set (as for hosted KYC links). */
    readonly requestOrigin: string,
    readonly apiVersion: string,
  ) {
    super();
  }
}

/**
 * Records the reveal (`CardRevealed`, with the requesting actor) before minting the URL, so no URL
 * exists that the audit history does not show. Outside the sandbox there is no card processor to
 * show the details: 501, whatever the card.
 */
@CommandHandler(RevealCard)
export class RevealCardHandler implements ICommandHandler<RevealCard, CardRevealView> {
  constructor(
    private readonly commands: CommandStore,
    private readonly tokens: CardRevealTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ platformId, cardId, requestOrigin, apiVersion }: RevealCard): Promise<CardRevealView> {
    if (this.config.mode !== 'sandbox') throw cardRevealNotAvailable();
    if (!parseId('Card', cardId)) throw cardNotFound();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.config.cardReveal.lifetimeMs).toISOString();
    await this.commands.handle(CARD_STREAM, streamNameFor(cardId), { type: 'RevealCard', platformId, expiresAt, now: now.toISOString() });
    const token = await this.tokens.mint({ cardId, platformId, expiresAt });
    const base = this.config.kycLinks.publicBaseUrl ?? requestOrigin;
    return { panEmbedUrl: `${base}/${apiVersion}/${CARD_EMBED_PAGE_PATH}?t=${token}`, expiresAt };
  }
}

/** What the reveal page shows: derived now, held only while the page renders. */
export interface RevealedCard extends SandboxCardSecrets {
  expMonth: number;
  expYear: number;
}

/**
 * Opens a reveal token for the page: null (the page's 404) for a token that is expired, tampered
 * with or not the service's, outside the sandbox, and for a card that has no details to show any
 * more (closed since the reveal). Reads the card stream, not the read model: a card closed a
 * moment ago is closed here.
 */
@Injectable()
export class CardRevealPages {
  constructor(
    private readonly commands: CommandStore,
    private readonly tokens: CardRevealTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async open(token: string): Promise<RevealedCard | null> {
    if (this.config.mode !== 'sandbox') return null;
    const claims = await this.tokens.open(token, new Date());
    if (!claims) return null;
    const { state } = await this.commands.load(CARD_STREAM, streamNameFor(claims.cardId));
    if (state.status === 'none' || !isRevealable(state.status)) return null;
    if (state.platformId !== claims.platformId || !state.last4 || !state.expMonth || !state.expYear) return null;
    return { ...sandboxCardSecrets(state.cardId, state.last4), expMonth: state.expMonth, expYear: state.expYear };
  }
}
