import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { DomainError } from '../../infra/domain/domain-error';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { Page } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { Idempotent } from '../../infra/http/route-metadata';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { ApiBody } from '@nestjs/swagger';
import { lockedAsConflict } from '../../sca';
import { requirePathId } from '../../shared/validation/path-ids';
import { CreateQuote } from '../commands/create-quote';
import { ExecuteQuote } from '../commands/execute-quote';
import { QuoteView } from '../queries/quote.view';
import { QuotesQuery } from '../queries/quotes.query';
import { parseQuoteRequest } from './quote-request';
import { ExecuteQuoteDto } from './quotes.dto';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

const STATUSES = ['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;

/** `POST /quotes`, `GET /quotes`, `GET /quotes/{quoteId}`, `POST /quotes/{quoteId}/execute`. */
@Controller('quotes')
export class QuotesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: QuotesQuery,
  ) {}

  @Post()
  @RequiresPermission('TRANSACT')
  @Idempotent()
  // parseQuoteRequest validates the source and destination variants on top of this DTO.
  @ApiBody({
    schema: { $ref: '#/components/schemas/CreateQuoteDto' },
    examples: {
      accountToExternalAccount: {
        summary: 'USD from a customer account to a euro bank account, sending amount locked',
        value: {
          source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:019a2a17-5758-7f90-b3a2-0c6d8e1f4b57' },
          destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:019a2a1c-0f3b-7e44-9a61-d27c5b80e3f9', paymentRail: 'SEPA_INSTANT' },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 100000,
          description: 'November rent',
          purposeOfPayment: 'REAL_ESTATE_PURCHASE',
        },
      },
    },
  })
  async create(@Req() request: PlatformRequest, @Body() body: unknown): Promise<QuoteView | HttpResult<QuoteView>> {
    const quote = await this.commandBus.execute(new CreateQuote(request.platform.platformId, parseQuoteRequest(body)));
    // A quote waiting for SCA authorization is accepted, not yet created for good (DECISIONS.md section 3).
    return quote.status === 'PENDING_AUTHORIZATION' ? withStatus(202, quote) : quote;
  }

  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<QuoteView>> {
    const reader = new QueryReader(query, ['customerId', 'status', 'transactionId', 'createdAfter', 'createdBefore']);
    const filters = {
      customerId: reader.id('customerId', 'Customer'),
      status: reader.oneOf('status', STATUSES),
      transactionId: reader.id('transactionId', 'Transaction'),
      createdAfter: reader.dateTime('createdAfter'),
      createdBefore: reader.dateTime('createdBefore'),
    };
    const page = reader.page('Quote');
    reader.done();
    return this.query.list(request.platform.platformId, filters, page);
  }

  @Get(':quoteId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('quoteId') quoteId: string): Promise<QuoteView> {
    // The operation declares no 400: an id that cannot name a quote names none (404).
    const view = parseId('Quote', quoteId) ? await this.query.findById(request.platform.platformId, quoteId) : null;
    if (!view) throw new DomainError('QUOTE_NOT_FOUND', 'Quote not found');
    return view;
  }

  @Post(':quoteId/execute')
  @RequiresPermission('TRANSACT')
  @HttpCode(200)
  @Idempotent()
  async execute(
    @Req() request: PlatformRequest,
    @Param('quoteId') quoteId: string,
    @Body() body: unknown,
  ): Promise<QuoteView> {
    requirePathId('Quote', 'quoteId', quoteId);
    const scaFactor = parseExecuteBody(body);
    try {
      return await this.commandBus.execute(new ExecuteQuote(request.platform.platformId, quoteId, request.headers['service-wallet-signature'], scaFactor));
    } catch (error) {
      // No 423 is declared for execute: the SCA lock is a 409 there.
      throw lockedAsConflict(error);
    }
  }
}

/**
 * The optional `{scaFactor}` body: absent, null or `{}` is no preference. Which factors may
 * authorize a transfer is ExecuteQuote's rule (TOTP is refused there).
 */
function parseExecuteBody(body: unknown): string | null {
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) return null;
  const { value, errors } = checkBody(ExecuteQuoteDto, body);
  throwIfAny(errors);
  return value.scaFactor ?? null;
}
