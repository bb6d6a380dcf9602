import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { PG_POOL } from '../../infra/postgres/pool';
import { StablecoinProviderAccountWire, StablecoinOperationWire, StablecoinWire } from './stablecoin.views';

/** A list's table, its id column and the equality filters it was given (column -> value). */
interface ListSpec {
  table: 'stablecoin_provider_accounts' | 'stablecoins' | 'stablecoin_operations';
  idColumn: string;
  filters: Record<string, string | undefined>;
}

/**
 * Read side of stablecoins (the `stablecoins` projection). Every lookup filters on the platform:
 * another platform's id answers null, exactly like an unknown one. Lists are newest first, keyset
 * paginated on (created_at, id), with `totalCount`.
 */
@Injectable()
export class StablecoinsQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  findProviderAccount(platformId: string, id: string): Promise<StablecoinProviderAccountWire | null> {
    return this.findView('stablecoin_provider_accounts', 'link_id', platformId, id);
  }

  findStablecoin(platformId: string, id: string): Promise<StablecoinWire | null> {
    return this.findView('stablecoins', 'stablecoin_id', platformId, id);
  }

  findOperation(platformId: string, id: string): Promise<StablecoinOperationWire | null> {
    return this.findView('stablecoin_operations', 'operation_id', platformId, id);
  }

  listProviderAccounts(platformId: string, filters: { provider?: string; status?: string }, page: PageRequest): Promise<Page<StablecoinProviderAccountWire>> {
    return this.list(platformId, { table: 'stablecoin_provider_accounts', idColumn: 'link_id', filters: { provider: filters.provider, status: filters.status } }, page);
  }

  listStablecoins(
    platformId: string,
    filters: { issuanceStatus?: string; gridOperationsStatus?: string; provider?: string },
    page: PageRequest,
  ): Promise<Page<StablecoinWire>> {
    return this.list(
      platformId,
      {
        table: 'stablecoins',
        idColumn: 'stablecoin_id',
        filters: { issuance_status: filters.issuanceStatus, grid_operations_status: filters.gridOperationsStatus, provider: filters.provider },
      },
      page,
    );
  }

  listOperations(platformId: string, stablecoinId: string, filters: { operationType?: string }, page: PageRequest): Promise<Page<StablecoinOperationWire>> {
    return this.list(
      platformId,
      { table: 'stablecoin_operations', idColumn: 'operation_id', filters: { stablecoin_id: stablecoinId, operation_type: filters.operationType } },
      page,
    );
  }

  /** The platform's ACTIVE links of `provider`, oldest first (the read model; the chosen one is re-checked on its stream). */
  async activeProviderAccountIds(platformId: string, provider: string): Promise<string[]> {
    const result = await this.pool.query<{ link_id: string }>(
      `SELECT link_id FROM stablecoin_provider_accounts WHERE platform_id = $1 AND provider = $2 AND status = 'ACTIVE' ORDER BY created_at, link_id`,
      [platformId, provider],
    );
    return result.rows.map((row) => row.link_id);
  }

  private async findView<T>(table: ListSpec['table'], idColumn: string, platformId: string, id: string): Promise<T | null> {
    const result = await this.pool.query<{ view: string }>(`SELECT view FROM ${table} WHERE platform_id = $1 AND ${idColumn} = $2`, [platformId, id]);
    const row = result.rows[0];
    return row ? (JSON.parse(row.view) as T) : null;
  }

  private async list<T>(platformId: string, spec: ListSpec, page: PageRequest): Promise<Page<T>> {
    const conditions = ['platform_id = $1'];
    const params: unknown[] = [platformId];
    for (const [column, value] of Object.entries(spec.filters)) {
      if (value === undefined) continue;
      params.push(value);
      conditions.push(`${column} = $${params.length}`);
    }
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM ${spec.table} WHERE ${conditions.join(' AND ')}`, params);
    if (page.cursor) {
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, ${spec.idColumn}) < ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const rows = await this.pool.query<{ view: string; created_at: Date; id: string }>(
      `SELECT view, created_at, ${spec.idColumn} AS id FROM ${spec.table} WHERE ${conditions.join(' AND ')}
        ORDER BY created_at DESC, ${spec.idColumn} DESC LIMIT $${params.length}`,
      params,
    );
    return toPage(
      rows.rows,
      page.limit,
      (row) => JSON.parse(row.view) as T,
      (row) => ({ createdAt: row.created_at.toISOString(), id: row.id }),
      Number(total.rows[0].count),
    );
  }
}
