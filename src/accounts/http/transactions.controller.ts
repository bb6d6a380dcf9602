import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Request } from 'express';
import { DomainError } from '../../infra/domain/domain-error';
import { checkBody, throwIfAny } from '../../infra/http/validation';
import { Page, SORT_ORDERS } from '../../infra/http/pagination';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { QueryReader } from '../../infra/http/query-params';
import { requirePathId } from '../../shared/validation/path-ids';
import { ApproveTransaction, RejectTransaction } from '../commands/approve-transaction';
import { CancelTransaction } from '../commands/cancel-transaction';
import { ConfirmReceiptDelivery } from '../commands/confirm-receipt-delivery';
import { CARD_TRANSACTION_STATUS_FILTERS } from '../queries/card-transaction-wire';
import { TransactionOneOf, WireTransaction } from '../queries/transaction-wire';
import { ApproveTransactionDto, CancelTransactionDto, ConfirmReceiptDeliveryDto, RejectTransactionDto } from './accounts.dto';
import { TRANSACTION_STATUS_FILTERS, TRANSACTION_TYPE_FILTERS, TransactionFilters, TransactionsQuery } from '../queries/transactions.query';
import { parseId } from '../../infra/ids';
import { RequiresPermission } from '../../infra/http/permissions';

type PlatformRequest = Request & { platform: AuthenticatedPlatform };

const ACCOUNT_ID = /^(InternalAccount|ExternalAccount):[0-9a-f-]{36}$/;

/** A payment's statuses and a card transaction's (REFUNDED is both). */
const STATUS_FILTERS = [...new Set([...TRANSACTION_STATUS_FILTERS, ...CARD_TRANSACTION_STATUS_FILTERS])];

/**
 * `GET /transactions` (filters, newest first unless `sortOrder=asc`), `GET /transactions/{id}`,
 * `POST /transactions/{id}/approve` and `/reject` (the platform's decision on an incoming payment
 * it deferred), `/cancel` (a bank transfer before it settles) and `/confirm` (receipt delivery).
 */
@Controller('transactions')
export class TransactionsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly query: TransactionsQuery,
  ) {}

  /**
   * The reference's filters, and ours from before it (`accountId`, `quoteId`, `createdAfter`,
   * `createdBefore`), kept for existing clients. `customerId` also takes the platform's own id,
   * which lists the platform's own transactions (no customer). Card transactions are listed too
   * (type CARD): their cardholder is the customer, their funding account the sender of a DEBIT
   * and the receiver of a CREDIT, and `status` also takes their statuses.
   */
  @Get()
  @RequiresPermission('VIEW')
  async list(@Req() request: PlatformRequest, @Query() query: Record<string, unknown>): Promise<Page<TransactionOneOf>> {
    const platformId = request.platform.platformId;
    const reader = new QueryReader(query, [
      'customerId', 'platformCustomerId', 'accountIdentifier', 'senderAccountIdentifier', 'receiverAccountIdentifier',
      'status', 'type', 'reference', 'startDate', 'endDate', 'sortOrder',
      'accountId', 'quoteId', 'createdAfter', 'createdBefore',
    ]);
    const accountId = reader.string('accountId');
    if (accountId !== undefined && !ACCOUNT_ID.test(accountId)) {
      reader.errors.push({ field: 'accountId', constraint: { pattern: ACCOUNT_ID.source }, message: 'accountId must be an InternalAccount or ExternalAccount id' });
    }
    const customerId = query.customerId === platformId ? null : reader.id('customerId', 'Customer');
    const startDate = reader.dateTime('startDate');
    const createdAfter = reader.dateTime('createdAfter');
    const filters: TransactionFilters = {
      customerId,
      platformCustomerId: reader.string('platformCustomerId', 128),
      accountId,
      accountIdentifier: reader.string('accountIdentifier'),
      senderAccountIdentifier: reader.string('senderAccountIdentifier'),
      receiverAccountIdentifier: reader.string('receiverAccountIdentifier'),
      status: reader.oneOf('status', STATUS_FILTERS),
      type: reader.oneOf('type', TRANSACTION_TYPE_FILTERS),
      quoteId: reader.id('quoteId', 'Quote'),
      reference: reader.string('reference'),
      // Both lower bounds are inclusive: the later one wins.
      createdFrom: [startDate, createdAfter].filter((value): value is string => value !== undefined).sort().pop(),
      createdBefore: reader.dateTime('createdBefore'),
      createdUntil: reader.dateTime('endDate'),
      sortOrder: reader.oneOf('sortOrder', SORT_ORDERS),
    };
    // Card transactions are listed with the payments: the last row of a page may be either.
    const page = reader.page('Transaction', 'CardTransaction');
    reader.done();
    return this.query.listIncludingCards(platformId, filters, page);
  }

  /**
   * A payment or a card transaction. The operation declares no 400: an id that cannot name a
   * transaction names none (404).
   */
  @Get(':transactionId')
  @RequiresPermission('VIEW')
  async get(@Req() request: PlatformRequest, @Param('transactionId') transactionId: string): Promise<TransactionOneOf> {
    const named = parseId('Transaction', transactionId) ?? parseId('CardTransaction', transactionId);
    const view = named ? await this.query.findIncludingCards(request.platform.platformId, transactionId) : null;
    if (!view) throw new DomainError('TRANSACTION_NOT_FOUND', 'Transaction not found');
    return view;
  }

  /**
   * The body (ApprovePaymentRequest) may carry `receiverCustomerInfo`, an object of the
   * receiver's details; ApproveTransaction answers whether the transaction waits for approval.
   */
  @Post(':transactionId/approve')
  @RequiresPermission('TRANSACT')
  @HttpCode(200)
  async approve(@Req() request: PlatformRequest, @Param('transactionId') transactionId: string, @Body() body: unknown): Promise<WireTransaction> {
    requirePathId('Transaction', 'transactionId', transactionId);
    const { receiverCustomerInfo } = optionalBody(ApproveTransactionDto, body);
    return this.commandBus.execute(new ApproveTransaction(request.platform.platformId, transactionId, receiverCustomerInfo ?? null));
  }

  /** The body (RejectPaymentRequest) is optional; its `reason` is kept with the rejection. */
  @Post(':transactionId/reject')
  @RequiresPermission('TRANSACT')
  @HttpCode(200)
  async reject(@Req() request: PlatformRequest, @Param('transactionId') transactionId: string, @Body() body: unknown): Promise<WireTransaction> {
    requirePathId('Transaction', 'transactionId', transactionId);
    const { reason } = optionalBody(RejectTransactionDto, body);
    return this.commandBus.execute(new RejectTransaction(request.platform.platformId, transactionId, reason ?? null));
  }

  /** The body (CancelTransactionRequest) is optional; its `reason` is kept with the cancellation. */
  @Post(':transactionId/cancel')
  @RequiresPermission('TRANSACT')
  @HttpCode(200)
  async cancel(@Req() request: PlatformRequest, @Param('transactionId') transactionId: string, @Body() body: unknown): Promise<WireTransaction> {
    requirePathId('Transaction', 'transactionId', transactionId);
    const { reason } = optionalBody(CancelTransactionDto, body);
    return this.commandBus.execute(new CancelTransaction(request.platform.platformId, transactionId, reason ?? null));
  }

  /** The body (ConfirmReceiptDeliveryRequest) is optional: without a time, the confirmation is now. */
  @Post(':transactionId/confirm')
  @RequiresPermission('TRANSACT')
  @HttpCode(200)
  async confirm(@Req() request: PlatformRequest, @Param('transactionId') transactionId: string, @Body() body: unknown): Promise<WireTransaction> {
    requirePathId('Transaction', 'transactionId', transactionId);
    const { receiptDeliveryConfirmedAt } = optionalBody(ConfirmReceiptDeliveryDto, body);
    const at = receiptDeliveryConfirmedAt === undefined ? new Date().toISOString() : new Date(receiptDeliveryConfirmedAt).toISOString();
    return this.commandBus.execute(new ConfirmReceiptDelivery(request.platform.platformId, transactionId, at));
  }
}

/** An optional request body: absent, null or `{}` is an empty one; anything else must fit `dto`. */
function optionalBody<T extends object>(dto: new () => T, body: unknown): T {
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) return new dto();
  const { value, errors } = checkBody(dto, body);
  throwIfAny(errors);
  return value;
}
