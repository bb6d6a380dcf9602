import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { PG_POOL } from '../../infra/postgres/pool';
import { InternalAccountStatus, InternalAccountType } from '../domain/internal-account/internal-account.events';
import { InternalAccountRecord, InternalAccountView, internalAccountView } from './internal-account.view';

export interface InternalAccountFilters {
  customerId?: string;
  type?: InternalAccountType;
  currency?: string;
}

/** For other contexts: the view plus the raw facts a payment needs. */
export interface InternalAccountDetails extends InternalAccountRecord {
  view: InternalAccountView;
}

interface Row {
  platform_id: string;
  account_id: string;
  customer_id: string | null;
  account_type: InternalAccountType;
  currency: string;
  status: InternalAccountStatus;
  available_minor: string;
  held_minor: string;
  private_enabled: boolean | null;
  created_at: Date;
  updated_at: Date;
}

function recordOf(row: Row): InternalAccountRecord {
  return {
    accountId: row.account_id,
    platformId: row.platform_id,
    customerId: row.customer_id,
    accountType: row.account_type,
    currency: row.currency,
    status: row.status,
    available: Number(row.available_minor),
    held: Number(row.held_minor),
    openedAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    privateEnabled: row.private_enabled,
  };
}

/**
 * Read side of internal accounts (the `internal-accounts` projection). Exported: `findById`
 * answers the account as GET shows it (`customerId`, `type`, `balance.currency.code` is the
 * currency) or null for an unknown id or another platform's account; `findDetails` adds the raw
 * currency code, balances and `status` (a payment to or from an account that is not ACTIVE is
 * refused where it starts: docs/accounts.md). For a balance that must be exact (before moving
 * money) use `AccountsLedger.snapshot`, which reads the ledger stream.
 */
@Injectable()
export class InternalAccountsQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async findById(platformId: string, accountId: string): Promise<InternalAccountView | null> {
    const details = await this.findDetails(platformId, accountId);
    return details?.view ?? null;
  }

  async findDetails(platformId: string, accountId: string): Promise<InternalAccountDetails | null> {
    const result = await this.pool.query<Row>(`SELECT * FROM internal_accounts WHERE platform_id = $1 AND account_id = $2`, [platformId, accountId]);
    const row = result.rows[0];
    if (!row) return null;
    const record = recordOf(row);
    return { ...record, view: internalAccountView(record) };
  }

  /** The customer's accounts, oldest first (at most a handful per customer). */
  async listForCustomer(platformId: string, customerId: string): Promise<InternalAccountDetails[]> {
    const result = await this.pool.query<Row>(
      `SELECT * FROM internal_accounts WHERE platform_id = $1 AND customer_id = $2 ORDER BY created_at, account_id`,
      [platformId, customerId],
    );
    return result.rows.map((row) => {
      const record = recordOf(row);
      return { ...record, view: internalAccountView(record) };
    });
  }

  /**
   * The platform's own accounts (no customer: one per supported currency), oldest first, unpaged
   * like the reference's answer: a handful per platform.
   */
  async listForPlatform(platformId: string, filters: Omit<InternalAccountFilters, 'customerId'>): Promise<InternalAccountView[]> {
    const conditions = ['platform_id = $1', 'customer_id IS NULL'];
    const params: unknown[] = [platformId];
    if (filters.type !== undefined) {
      params.push(filters.type);
      conditions.push(`account_type = $${params.length}`);
    }
    if (filters.currency !== undefined) {
      params.push(filters.currency);
      conditions.push(`currency = $${params.length}`);
    }
    const result = await this.pool.query<Row>(`SELECT * FROM internal_accounts WHERE ${conditions.join(' AND ')} ORDER BY created_at, account_id`, params);
    return result.rows.map((row) => internalAccountView(recordOf(row)));
  }

  async list(platformId: string, filters: InternalAccountFilters, page: PageRequest): Promise<Page<InternalAccountView>> {
    const conditions = ['platform_id = $1'];
    const params: unknown[] = [platformId];
    if (filters.customerId !== undefined) {
      params.push(filters.customerId);
      conditions.push(`customer_id = $${params.length}`);
    }
    if (filters.type !== undefined) {
      params.push(filters.type);
      conditions.push(`account_type = $${params.length}`);
    }
    if (filters.currency !== undefined) {
      params.push(filters.currency);
      conditions.push(`currency = $${params.length}`);
    }
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM internal_accounts WHERE ${conditions.join(' AND ')}`, params);
    if (page.cursor) {
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, account_id) > ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const rows = await this.pool.query<Row>(
      `SELECT * FROM internal_accounts WHERE ${conditions.join(' AND ')} ORDER BY created_at, account_id LIMIT $${params.length}`,
      params,
    );
    return toPage(
      rows.rows,
      page.limit,
      (row) => internalAccountView(recordOf(row)),
      (row) => ({ createdAt: row.created_at.toISOString(), id: row.account_id }),
      Number(total.rows[0].count),
    );
  }
}
