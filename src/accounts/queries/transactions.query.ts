import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { PG_POOL } from '../../infra/postgres/pool';
import { TransactionView } from './transaction.view';

export interface TransactionFilters {
  customerId?: string;
  /** Source or destination. */
  accountId?: string;
  status?: string;
  type?: 'OUTGOING' | 'INCOMING';
  quoteId?: string;
  createdAfter?: string;
  createdBefore?: string;
}

/** Read side of the `transactions` projection (visible rows only), newest first. */
@Injectable()
export class TransactionsQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async findById(platformId: string, transactionId: string): Promise<TransactionView | null> {
    const result = await this.pool.query<{ view: TransactionView }>(
      `SELECT view::json AS view FROM transactions WHERE platform_id = $1 AND transaction_id = $2 AND visible`,
      [platformId, transactionId],
    );
    return result.rows[0]?.view ?? null;
  }

  async list(platformId: string, filters: TransactionFilters, page: PageRequest): Promise<Page<TransactionView>> {
    const conditions = ['platform_id = $1', 'visible'];
    const params: unknown[] = [platformId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      conditions.push(sql.replace(/\?/g, `$${params.length}`));
    };
    if (filters.customerId !== undefined) add('customer_id = ?', filters.customerId);
    if (filters.accountId !== undefined) add('(source_account_id = ? OR destination_account_id = ?)', filters.accountId);
    if (filters.status !== undefined) add('status = ?', filters.status);
    if (filters.type !== undefined) add('type = ?', filters.type);
    if (filters.quoteId !== undefined) add('quote_id = ?', filters.quoteId);
    if (filters.createdAfter !== undefined) add('created_at >= ?::timestamptz', filters.createdAfter);
    if (filters.createdBefore !== undefined) add('created_at < ?::timestamptz', filters.createdBefore);
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM transactions WHERE ${conditions.join(' AND ')}`, params);
    if (page.cursor) {
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, transaction_id) < ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const rows = await this.pool.query<{ view: TransactionView; created_at: Date; transaction_id: string }>(
      `SELECT view::json AS view, created_at, transaction_id FROM transactions WHERE ${conditions.join(' AND ')}
        ORDER BY created_at DESC, transaction_id DESC LIMIT $${params.length}`,
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
