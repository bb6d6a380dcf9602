import { Body, Controller, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Page } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { requirePathId } from '../../shared/validation/path-ids';
import { cardNotFound } from '../cards.errors';
import { CardsService } from '../cards.service';
import { CardChanges } from '../domain/card/card.decider';
import { CARD_STATES } from '../domain/card/card.events';
import { CardView } from '../queries/card.view';
import { CardsQuery } from '../queries/cards.query';
import { CreateCardDto, UpdateCardDto, checkFundingSourceIds } from './cards.dto';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** `POST /cards`, `GET /cards`, `GET /cards/{id}`, `PATCH /cards/{id}` (DECISIONS.md section 7). */
@Controller('cards')
export class CardsController {
  constructor(
    private readonly cards: CardsService,
    private readonly query: CardsQuery,
  ) {}

  /** Honours Idempotency-Key: a retried issuance returns the first card instead of a second one. */
  @Post()
  @Idempotent()
  async issue(@Req() request: PlatformRequest, @Body() body: unknown): Promise<CardView> {
    const { value, errors } = checkBody(CreateCardDto, body);
    if (hasErrorAt(errors, 'body')) throwIfAny(errors);
    if (!hasErrorAt(errors, 'cardholderId') && !parseId('Customer', value.cardholderId)) {
      errors.push({ field: 'cardholderId', constraint: 'FORMAT', message: 'cardholderId must be a Customer:<uuid> id' });
    }
    checkFundingSourceIds(value.fundingSources, errors);
    throwIfAny(errors);
    return this.cards.issue(request.platform.platformId, {
      cardholderId: value.cardholderId,
      form: value.form,
      fundingSources: value.fundingSources as string[],
      platformCardId: value.platformCardId ?? null,
      maxSpendPerTransaction: value.maxSpendPerTransaction ?? null,
    });
  }

  @Get()
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<CardView>> {
    const reader = new QueryReader(query, ['cardholderId', 'state', 'platformCardId']);
    const filters = {
      cardholderId: reader.id('cardholderId', 'Customer'),
      state: reader.oneOf('state', CARD_STATES),
      platformCardId: reader.string('platformCardId', 128),
    };
    const page = reader.page('Card');
    reader.done();
    return this.query.list(request.platform.platformId, filters, page);
  }

  @Get(':cardId')
  async get(@Req() request: PlatformRequest, @Param('cardId') cardId: string): Promise<CardView> {
    requirePathId('Card', 'cardId', cardId);
    const view = await this.query.findById(request.platform.platformId, cardId);
    if (!view) throw cardNotFound();
    return view;
  }

  @Patch(':cardId')
  async update(@Req() request: PlatformRequest, @Param('cardId') cardId: string, @Body() body: unknown): Promise<CardView> {
    requirePathId('Card', 'cardId', cardId);
    const { value, errors } = checkBody(UpdateCardDto, body);
    if (hasErrorAt(errors, 'body')) throwIfAny(errors);
    checkFundingSourceIds(value.fundingSources, errors);
    if (errors.length === 0 && value.state === undefined && value.fundingSources === undefined && value.maxSpendPerTransaction === undefined) {
      errors.push({ field: 'body', constraint: 'REQUIRED', message: 'Give at least one of state, fundingSources, maxSpendPerTransaction' });
    }
    throwIfAny(errors);
    const changes: CardChanges = {};
    if (value.state !== undefined) changes.state = value.state;
    if (value.fundingSources !== undefined) changes.fundingSources = value.fundingSources as string[];
    if (value.maxSpendPerTransaction !== undefined) changes.maxSpendPerTransaction = value.maxSpendPerTransaction;
    return this.cards.update(request.platform.platformId, cardId, changes);
  }
}
