import { Controller, Get, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HttpResult } from '../../infra/http/http-result';
import { Public } from '../../infra/http/route-metadata';
import { CARD_EMBED_PAGE_PATH, CardRevealPages } from '../commands/reveal-card';
import { cardDetailsPage, notFoundPage } from './card-embed-page';

/**
 * The sandbox card processor's reveal page, the iframe a `panEmbedUrl` opens (docs/cards.md
 * "Reveal"). Public: the `t` token is the credential. HTML, not part of the API: left out of the
 * OpenAPI document. The token travels in the query string, which the request log leaves out (it
 * logs the path only); nothing here logs it or the card number.
 */
@Controller(CARD_EMBED_PAGE_PATH)
@Public()
@ApiExcludeController()
export class CardEmbedController {
  constructor(private readonly pages: CardRevealPages) {}

  @Get()
  async show(@Query('t') token: unknown): Promise<HttpResult<string>> {
    const card = typeof token === 'string' ? await this.pages.open(token) : null;
    return card ? cardDetailsPage(card) : notFoundPage();
  }
}
