import { Body, Controller, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { Page, SORT_ORDERS } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, hasErrorAt, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { requirePathId } from '../../shared/validation/path-ids';
import { cardNotFound } from '../domain/cards.errors';
import { IssueCard } from '../commands/issue-card';
import { UpdateCard } from '../commands/update-card';
import { CardChanges } from '../commands/update-card';
import { CARD_STATES } from '../domain/card/card.events';
import { CardWire, cardWire } from '../queries/card.view';
import { CardsQuery } from '../queries/cards.query';
import { CreateCardDto, UpdateCardDto, checkFundingSourceIds } from './cards.dto';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** `POST /cards`, `GET /cards`, `GET /cards/{id}`, `PATCH /cards/{id}` (DECISIONS.md section 7). */
@Controller('cards')
export class CardsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: CardsQuery,
  ) {}

  /** Honours Idempotency-Key: a retried issuance returns the first card instead of a second one. */
  @Post()
  @RequiresPermission('MANAGE')
  @Idempotent()
  @ApiBody({
    schema: { $ref: '#/components/schemas/CreateCardDto' },
    examples: {
      virtualUsd: {
        summary: 'A virtual card funded by a USD account, at most $500.00 a payment',
        value: {
          cardholderId: 'Customer:019a2a17-5758-7d2e-8b1f-6c3e9a0d4f21',
          form: 'VIRTUAL',
          fundingSources: ['InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57'],
          platformCardId: 'card-48213-1',
          maxSpendPerTransaction: 50000,
        },
      },
    },
  })
  async issue(@Req() request: PlatformRequest, @Body() body: unknown): Promise<CardWire> {
    const { value, errors } = checkBody(CreateCardDto, body);
    if (hasErrorAt(errors, 'body')) throwIfAny(errors);
    if (!hasErrorAt(errors, 'cardholderId') && !parseId('Customer', value.cardholderId)) {
      errors.push({ field: 'cardholderId', constraint: { format: 'Customer-id' }, message: 'cardholderId must be a Customer:<uuid> id' });
    }
    checkFundingSourceIds(value.fundingSources, errors);
    throwIfAny(errors);
    const card = await this.commandBus.execute(new IssueCard(request.platform.platformId, {
      cardholderId: value.cardholderId,
      form: value.form,
      fundingSources: value.fundingSources as string[],
      platformCardId: value.platformCardId ?? null,
      maxSpendPerTransaction: value.maxSpendPerTransaction ?? null,
      threeDSecurePassword: value.threeDSecurePassword ?? null,
    }));
    return cardWire(card);
  }

  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<CardWire>> {
    const reader = new QueryReader(query, ['cardholderId', 'accountId', 'state', 'platformCardId', 'sortOrder']);
    const filters = {
      cardholderId: reader.id('cardholderId', 'Customer'),
      accountId: reader.id('accountId', 'InternalAccount'),
      state: reader.oneOf('state', CARD_STATES),
      platformCardId: reader.string('platformCardId', 128),
    };
    // Newest first unless asked otherwise, as the contract's default says.
    const sortOrder = reader.oneOf('sortOrder', SORT_ORDERS) ?? 'desc';
    const page = reader.page('Card');
    reader.done();
    const found = await this.query.list(request.platform.platformId, filters, page, sortOrder);
    return { ...found, data: found.data.map(cardWire) };
  }

  /** GET declares no 400: an id that cannot name a card is a card that does not exist. */
  @Get(':cardId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('cardId') cardId: string): Promise<CardWire> {
    if (!parseId('Card', cardId)) throw cardNotFound();
    const view = await this.query.findById(request.platform.platformId, cardId);
    if (!view) throw cardNotFound();
    return cardWire(view);
  }

  @Patch(':cardId')
  @RequiresPermission('MANAGE')
  async update(@Req() request: PlatformRequest, @Param('cardId') cardId: string, @Body() body: unknown): Promise<CardWire> {
    requirePathId('Card', 'cardId', cardId);
    const { value, errors } = checkBody(UpdateCardDto, body);
    if (hasErrorAt(errors, 'body')) throwIfAny(errors);
    checkFundingSourceIds(value.fundingSources, errors);
    if (errors.length === 0 && value.state === undefined && value.fundingSources === undefined && value.maxSpendPerTransaction === undefined) {
      errors.push({ field: 'body', constraint: {}, message: 'Give at least one of state, fundingSources, maxSpendPerTransaction' });
    }
    throwIfAny(errors);
    const changes: CardChanges = {};
    if (value.state !== undefined) changes.state = value.state;
    if (value.fundingSources !== undefined) changes.fundingSources = value.fundingSources as string[];
    if (value.maxSpendPerTransaction !== undefined) changes.maxSpendPerTransaction = value.maxSpendPerTransaction;
    return cardWire(await this.commandBus.execute(new UpdateCard(request.platform.platformId, cardId, changes)));
  }
}
