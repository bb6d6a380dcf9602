import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { PG_POOL } from '../../infra/postgres/pool';
import { StoredTransactionView, TransactionOneOf, WireTransaction, storedTransactionOnWire, transactionOnWire } from './transaction-wire';
import { TransactionView } from './transaction.view';

/**
 * The reference's TransactionStatus, the `status` filter's values. CREATED matches nothing here;
 * REFUNDED matches the card transactions in that status (a row's `status` is its own kind's).
 */
export const TRANSACTION_STATUS_FILTERS = ['CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'] as const;
export const TRANSACTION_TYPE_FILTERS = ['OUTGOING', 'INCOMING'] as const;

export interface TransactionFilters {
  /** A customer id; null: the platform's own transactions (the reference filters them by the platform id). */
  customerId?: string | null;
  platformCustomerId?: string;
  /** Source or destination account id. */
  accountId?: string;
  /** Source or destination: account id or UMA address. */
  accountIdentifier?: string;
  senderAccountIdentifier?: string;
  receiverAccountIdentifier?: string;
  status?: string;
  type?: 'OUTGOING' | 'INCOMING';
  quoteId?: string;
  /** The reconciliation reference (a transfer-out's remittance information). */
  reference?: string;
  /** Inclusive lower bound on creation. */
  createdFrom?: string;
  /** Exclusive upper bound on creation. */
  createdBefore?: string;
  /** Inclusive upper bound on creation. */
  createdUntil?: string;
  /** Newest first (default) or oldest first. */
  sortOrder?: 'asc' | 'desc';
}

/**
 * Read side of the `transactions` projection (visible rows only), answered as the API shows
 * transactions (transaction-wire.ts). The rows hold payments and card transactions (type CARD,
 * written by the cards context's reducers): `GET /transactions` reads both
 * (`findIncludingCards`, `listIncludingCards`); `findById` and `list` read payments only, for
 * what acts on payments (approve, cancel, confirm, the agents' reads).
 */
@Injectable()
export class TransactionsQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async findById(platformId: string, transactionId: string): Promise<WireTransaction | null> {
    const view = await this.findView(platformId, transactionId, false);
    return view ? transactionOnWire(view as TransactionView, platformId) : null;
  }

  async findIncludingCards(platformId: string, transactionId: string): Promise<TransactionOneOf | null> {
    const view = await this.findView(platformId, transactionId, true);
    return view ? storedTransactionOnWire(view, platformId) : null;
  }

  async list(platformId: string, filters: TransactionFilters, page: PageRequest): Promise<Page<WireTransaction>> {
    const views = await this.listViews(platformId, filters, page, false);
    return { ...views, data: views.data.map((view) => transactionOnWire(view as TransactionView, platformId)) };
  }

  async listIncludingCards(platformId: string, filters: TransactionFilters, page: PageRequest): Promise<Page<TransactionOneOf>> {
    const views = await this.listViews(platformId, filters, page, true);
    return { ...views, data: views.data.map((view) => storedTransactionOnWire(view, platformId)) };
  }

  private async findView(platformId: string, transactionId: string, withCards: boolean): Promise<StoredTransactionView | null> {
    const result = await this.pool.query<{ view: StoredTransactionView }>(
      `SELECT view::json AS view FROM transactions WHERE platform_id = $1 AND transaction_id = $2 AND visible${withCards ? '' : ` AND type <> 'CARD'`}`,
      [platformId, transactionId],
    );
    return result.rows[0]?.view ?? null;
  }

  private async listViews(platformId: string, filters: TransactionFilters, page: PageRequest, withCards: boolean): Promise<Page<StoredTransactionView>> {
    const conditions = ['platform_id = $1', 'visible'];
    if (!withCards) conditions.push(`type <> 'CARD'`);
    const params: unknown[] = [platformId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      conditions.push(sql.replace(/\?/g, `$${params.length}`));
    };
    if (filters.customerId === null) conditions.push('customer_id IS NULL');
    else if (filters.customerId !== undefined) add('customer_id = ?', filters.customerId);
    if (filters.platformCustomerId !== undefined) add('platform_customer_id = ?', filters.platformCustomerId);
    if (filters.accountId !== undefined) add('(source_account_id = ? OR destination_account_id = ?)', filters.accountId);
    if (filters.accountIdentifier !== undefined) add('(source_account_id = ? OR destination_account_id = ?)', filters.accountIdentifier);
    if (filters.senderAccountIdentifier !== undefined) add('source_account_id = ?', filters.senderAccountIdentifier);
    if (filters.receiverAccountIdentifier !== undefined) add('destination_account_id = ?', filters.receiverAccountIdentifier);
    if (filters.status !== undefined) add('status = ?', filters.status);
    if (filters.type !== undefined) add('type = ?', filters.type);
    if (filters.quoteId !== undefined) add('quote_id = ?', filters.quoteId);
    if (filters.reference !== undefined) add('reference = ?', filters.reference);
    if (filters.createdFrom !== undefined) add('created_at >= ?::timestamptz', filters.createdFrom);
    if (filters.createdBefore !== undefined) add('created_at < ?::timestamptz', filters.createdBefore);
    if (filters.createdUntil !== undefined) add('created_at <= ?::timestamptz', filters.createdUntil);
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM transactions WHERE ${conditions.join(' AND ')}`, params);
    const ascending = filters.sortOrder === 'asc';
    if (page.cursor) {
      // The cursor is the last row of the previous page; the next page continues in the same order.
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, transaction_id) ${ascending ? '>' : '<'} ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const direction = ascending ? 'ASC' : 'DESC';
    const rows = await this.pool.query<{ view: StoredTransactionView; created_at: Date; transaction_id: string }>(
      `SELECT view::json AS view, created_at, transaction_id FROM transactions WHERE ${conditions.join(' AND ')}
        ORDER BY created_at ${direction}, transaction_id ${direction} LIMIT $${params.length}`,
      params,
    );
    return toPage(
      rows.rows,
      page.limit,
      (row) => row.view,
      (row) => ({ createdAt: row.created_at.toISOString(), id: row.transaction_id }),
      Number(total.rows[0].count),
    );
  }
}
