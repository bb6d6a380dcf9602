import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { PG_POOL, lookup } from '../../infra/postgres/pool';
import { ApiTokenView } from './token.view';

export interface TokenFilters {
  /** Exact name. */
  name?: string;
  /** Inclusive bounds, ISO instants. */
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}

interface Row {
  token_id: string;
  name: string;
  permissions: ApiTokenView['permissions'];
  client_id: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'token_id, name, permissions, client_id, created_at, updated_at';

/**
 * Read side of API tokens (the `api_tokens` projection). Revoked tokens are gone: `findById`
 * answers null for them, for an unknown id and for another platform's token alike, and lists
 * leave them out.
 */
@Injectable()
export class TokensQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async findById(platformId: string, tokenId: string): Promise<ApiTokenView | null> {
    const result = await lookup<Row>(this.pool, `SELECT ${COLUMNS} FROM api_tokens WHERE platform_id = $1 AND token_id = $2 AND revoked_at IS NULL`, [
      platformId,
      tokenId,
    ]);
    return result.rows[0] ? tokenView(result.rows[0]) : null;
  }

  /** Oldest first, keyset-paginated on (created_at, token_id); `totalCount` counts every match. */
  async list(platformId: string, filters: TokenFilters, page: PageRequest): Promise<Page<ApiTokenView>> {
    const conditions = ['platform_id = $1', 'revoked_at IS NULL'];
    const params: unknown[] = [platformId];
    const add = (condition: string, value: unknown) => {
      params.push(value);
      conditions.push(condition.replace('?', `$${params.length}`));
    };
    if (filters.name !== undefined) add('name = ?', filters.name);
    if (filters.createdAfter !== undefined) add('created_at >= ?::timestamptz', filters.createdAfter);
    if (filters.createdBefore !== undefined) add('created_at <= ?::timestamptz', filters.createdBefore);
    if (filters.updatedAfter !== undefined) add('updated_at >= ?::timestamptz', filters.updatedAfter);
    if (filters.updatedBefore !== undefined) add('updated_at <= ?::timestamptz', filters.updatedBefore);
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM api_tokens WHERE ${conditions.join(' AND ')}`, params);
    if (page.cursor) {
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, token_id) > ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const rows = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM api_tokens WHERE ${conditions.join(' AND ')} ORDER BY created_at, token_id LIMIT $${params.length}`,
      params,
    );
    return toPage(rows.rows, page.limit, tokenView, (row) => ({ createdAt: row.created_at.toISOString(), id: row.token_id }), Number(total.rows[0].count));
  }
}

function tokenView(row: Row): ApiTokenView {
  return {
    id: row.token_id,
    name: row.name,
    permissions: row.permissions,
    clientId: row.client_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
