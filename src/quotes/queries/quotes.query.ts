import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { PG_POOL } from '../../infra/postgres/pool';
import { QuoteScaChallenge } from '../domain/quote/quote.events';
import { QuoteView, presentStoredQuote } from './quote.view';

export interface QuoteFilters {
  customerId?: string;
  status?: string;
  transactionId?: string;
  createdAfter?: string;
  createdBefore?: string;
}

interface Row {
  view: QuoteView;
  status: QuoteView['status'];
  sca_challenge: QuoteScaChallenge | null;
}

/** The stored view is the quote as created; the status and challenge columns say where it is now. */
function viewOf(row: Row): QuoteView {
  return presentStoredQuote(row.view, row.status, row.sca_challenge);
}

/** Read side of the `quotes` projection, newest first. Every query filters on the platform. */
@Injectable()
export class QuotesQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async findById(platformId: string, quoteId: string): Promise<QuoteView | null> {
    const result = await this.pool.query<Row>({
      name: 'quotes_find_by_id',
      text: `SELECT view::json AS view, status, sca_challenge::json AS sca_challenge FROM quotes WHERE platform_id = $1 AND quote_id = $2`,
      values: [platformId, quoteId],
    });
    return result.rows[0] ? viewOf(result.rows[0]) : null;
  }

  async list(platformId: string, filters: QuoteFilters, page: PageRequest): Promise<Page<QuoteView>> {
    const conditions = ['platform_id = $1'];
    const params: unknown[] = [platformId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      conditions.push(sql.replace('?', `$${params.length}`));
    };
    if (filters.customerId !== undefined) add('customer_id = ?', filters.customerId);
    if (filters.status !== undefined) add('status = ?', filters.status);
    if (filters.transactionId !== undefined) add('transaction_id = ?', filters.transactionId);
    if (filters.createdAfter !== undefined) add('created_at >= ?::timestamptz', filters.createdAfter);
    if (filters.createdBefore !== undefined) add('created_at < ?::timestamptz', filters.createdBefore);
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM quotes WHERE ${conditions.join(' AND ')}`, params);
    if (page.cursor) {
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, quote_id) < ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const rows = await this.pool.query<Row & { created_at: Date; quote_id: string }>(
      `SELECT view::json AS view, status, sca_challenge::json AS sca_challenge, created_at, quote_id FROM quotes WHERE ${conditions.join(' AND ')}
        ORDER BY created_at DESC, quote_id DESC LIMIT $${params.length}`,
      params,
    );
    return toPage(
      rows.rows,
      page.limit,
      viewOf,
      (row) => ({ createdAt: row.created_at.toISOString(), id: row.quote_id }),
      Number(total.rows[0].count),
    );
  }
}
