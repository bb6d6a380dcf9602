import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { PG_POOL, lookup } from '../../infra/postgres/pool';
import { ExternalAccountDetails, ExternalAccountView, externalAccountDetails } from './external-account.view';

export interface ExternalAccountFilters {
  customerId?: string;
  currency?: string;
  /** Only the platform's own accounts (`customer_id` null). */
  platformOwned?: boolean;
}

/**
 * Read side of external accounts (the `external-accounts` projection, which keeps each account's
 * GET view). Exported: `findById` answers the GET view plus `accountType`, `primaryIdentifier`,
 * `supportedRails` and `defaultPaymentRail`, or null for an unknown, deleted or other platform's
 * account. The platform's own accounts have no `customerId`.
 */
@Injectable()
export class ExternalAccountsQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async findById(platformId: string, externalAccountId: string): Promise<ExternalAccountDetails | null> {
    const result = await lookup<{ view: ExternalAccountView; primary_identifier: string }>(
      this.pool,
      `SELECT view::json AS view, primary_identifier FROM external_accounts
        WHERE platform_id = $1 AND external_account_id = $2 AND NOT is_deleted`,
      [platformId, externalAccountId],
    );
    const row = result.rows[0];
    return row ? externalAccountDetails(row.view, row.primary_identifier) : null;
  }

  /** The GET view only; with `platformOwned`, of the platform's own account only. */
  async findView(platformId: string, externalAccountId: string, platformOwned = false): Promise<ExternalAccountView | null> {
    const result = await lookup<{ view: ExternalAccountView }>(
      this.pool,
      `SELECT view::json AS view FROM external_accounts
        WHERE platform_id = $1 AND external_account_id = $2 AND NOT is_deleted${platformOwned ? ' AND customer_id IS NULL' : ''}`,
      [platformId, externalAccountId],
    );
    return result.rows[0]?.view ?? null;
  }

  async list(platformId: string, filters: ExternalAccountFilters, page: PageRequest): Promise<Page<ExternalAccountView>> {
    const conditions = ['platform_id = $1', 'NOT is_deleted'];
    const params: unknown[] = [platformId];
    if (filters.customerId !== undefined) {
      params.push(filters.customerId);
      conditions.push(`customer_id = $${params.length}`);
    }
    if (filters.currency !== undefined) {
      params.push(filters.currency);
      conditions.push(`currency = $${params.length}`);
    }
    if (filters.platformOwned) conditions.push('customer_id IS NULL');
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM external_accounts WHERE ${conditions.join(' AND ')}`, params);
    if (page.cursor) {
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, external_account_id) > ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const rows = await this.pool.query<{ view: ExternalAccountView; created_at: Date; external_account_id: string }>(
      `SELECT view::json AS view, created_at, external_account_id FROM external_accounts WHERE ${conditions.join(' AND ')}
        ORDER BY created_at, external_account_id LIMIT $${params.length}`,
      params,
    );
    return toPage(
      rows.rows,
      page.limit,
      (row) => row.view,
      (row) => ({ createdAt: row.created_at.toISOString(), id: row.external_account_id }),
      Number(total.rows[0].count),
    );
  }
}
