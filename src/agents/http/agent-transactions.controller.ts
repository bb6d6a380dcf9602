import { Controller, Get, Param, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { TRANSACTION_STATUS_FILTERS, TRANSACTION_TYPE_FILTERS, TransactionOneOf } from '../../accounts';
import { DomainError } from '../../infra/domain/domain-error';
import { Page, SORT_ORDERS } from '../../infra/http/pagination';
import { QueryReader } from '../../infra/http/query-params';
import { Public } from '../../infra/http/route-metadata';
import { parseId } from '../../infra/ids';
import { AgentTransactionsQuery } from '../queries/agent-transactions.query';
import { AgentAuthGuard, AgentRequest } from './agent-auth.guard';
import { AgentScopes } from './agent-scope';


/**
 * The agent's customer's transactions (AgentAuth, VIEW_TRANSACTIONS), within the account
 * restrictions: the reference's filters of `GET /transactions` without any customer filter, card
 * transactions included.
 */
@Controller('agents/me/transactions')
@Public()
@UseGuards(AgentAuthGuard)
@ApiBearerAuth('AgentAuth')
export class AgentTransactionsController {
  constructor(
    private readonly scopes: AgentScopes,
    private readonly query: AgentTransactionsQuery,
  ) {}

  /** Newest first unless `sortOrder=asc`; `startDate` and `endDate` are inclusive. */
  @Get()
  async list(@Req() request: AgentRequest, @Query() query: Record<string, unknown>): Promise<Page<TransactionOneOf>> {
    const scope = await this.scopes.require(request.agent, 'VIEW_TRANSACTIONS', 'READ');
    const reader = new QueryReader(query, [
      'accountIdentifier', 'senderAccountIdentifier', 'receiverAccountIdentifier', 'status', 'type', 'reference', 'startDate', 'endDate', 'sortOrder',
    ]);
    const filters = {
      accountIdentifier: reader.string('accountIdentifier'),
      senderAccountIdentifier: reader.string('senderAccountIdentifier'),
      receiverAccountIdentifier: reader.string('receiverAccountIdentifier'),
      status: reader.oneOf('status', TRANSACTION_STATUS_FILTERS),
      type: reader.oneOf('type', TRANSACTION_TYPE_FILTERS),
      reference: reader.string('reference'),
      createdFrom: reader.dateTime('startDate'),
      createdUntil: reader.dateTime('endDate'),
      sortOrder: reader.oneOf('sortOrder', SORT_ORDERS),
    };
    const page = reader.page('Transaction', 'CardTransaction');
    reader.done();
    return this.query.list(scope, filters, page);
  }

  /** The operation declares no 400: an id that cannot name a transaction names none (404). */
  @Get(':transactionId')
  async get(@Req() request: AgentRequest, @Param('transactionId') transactionId: string): Promise<TransactionOneOf> {
    const scope = await this.scopes.require(request.agent, 'VIEW_TRANSACTIONS', 'READ');
    const transaction = parseId('Transaction', transactionId) || parseId('CardTransaction', transactionId) ? await this.query.findById(scope, transactionId) : null;
    if (!transaction) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
    return transaction;
  }
}

