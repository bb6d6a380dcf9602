import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '../../infra/domain/domain-error';
import { Page } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { requirePathId } from '../../shared/validation/path-ids';
import { TransactionView } from '../queries/transaction.view';
import { TransactionsQuery } from '../queries/transactions.query';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

const STATUSES = ['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
const TYPES = ['OUTGOING', 'INCOMING'] as const;

/** `GET /transactions` (filters, newest first) and `GET /transactions/{id}`. */
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
    const page = reader.page();
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
}
