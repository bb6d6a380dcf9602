import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError, FieldError } from '../../infra/domain/domain-error';
import { throwIfAny } from '../../infra/http/validation';
import { Page } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { requirePathId } from '../../shared/validation/path-ids';
import { TransactionView } from '../queries/transaction.view';
import { TransactionsQuery } from '../queries/transactions.query';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

const STATUSES = ['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
const TYPES = ['OUTGOING', 'INCOMING'] as const;

/**
 * `GET /transactions` (filters, newest first), `GET /transactions/{id}`, and
 * `POST /transactions/{id}/approve` (platform approval of an agent-initiated transaction).
 */
@Controller('transactions')
export class TransactionsController {
  constructor(private readonly query: TransactionsQuery) {}

  @Get()
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<TransactionView>> {
    const reader = new QueryReader(query, ['customerId', 'accountId', 'status', 'type', 'quoteId', 'createdAfter', 'createdBefore']);
    const accountId = reader.string('accountId');
    if (accountId !== undefined && !/^(InternalAccount|ExternalAccount):[0-9a-f-]{36}$/.test(accountId)) {
      reader.errors.push({ field: 'accountId', constraint: 'FORMAT', message: 'accountId must be an InternalAccount or ExternalAccount id' });
    }
    const filters = {
      customerId: reader.id('customerId', 'Customer'),
      accountId,
      status: reader.oneOf('status', STATUSES),
      type: reader.oneOf('type', TYPES),
      quoteId: reader.id('quoteId', 'Quote'),
      createdAfter: reader.dateTime('createdAfter'),
      createdBefore: reader.dateTime('createdBefore'),
    };
    const page = reader.page('Transaction');
    reader.done();
    return this.query.list(request.platform.platformId, filters, page);
  }

  @Get(':transactionId')
  async get(@Req() request: PlatformRequest, @Param('transactionId') transactionId: string): Promise<TransactionView> {
    requirePathId('Transaction', 'transactionId', transactionId);
    const view = await this.query.findById(request.platform.platformId, transactionId);
    if (!view) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
    return view;
  }

  /**
   * Only agent-initiated transactions wait for the platform's approval, and this service starts
   * none (agents are not offered), so no transaction is ever in that state: a known one answers
   * 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL, an unknown or foreign one 404.
   */
  @Post(':transactionId/approve')
  @HttpCode(200)
  async approve(@Req() request: PlatformRequest, @Param('transactionId') transactionId: string, @Body() body: unknown): Promise<TransactionView> {
    requirePathId('Transaction', 'transactionId', transactionId);
    const errors: FieldError[] = [];
    if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      errors.push({ field: 'body', constraint: 'TYPE', message: 'Expected no body or a JSON object' });
    } else if (body) {
      for (const name of Object.keys(body)) errors.push({ field: name, constraint: 'UNKNOWN_FIELD', message: `Unknown field ${name}` });
    }
    throwIfAny(errors);
    const view = await this.query.findById(request.platform.platformId, transactionId);
    if (!view) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
    throw new DomainError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', 'The transaction is not waiting for platform approval', { status: view.status });
  }
}
