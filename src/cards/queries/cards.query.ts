import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Page, PageRequest, toPage, SortOrder } from '../../infra/http/pagination';
import { PG_POOL } from '../../infra/postgres/pool';
import { CardLifecycleState } from '../domain/card/card.events';
import { CardView } from './card.view';


export interface CardFilters {
  cardholderId?: string;
  /** Cards one of whose funding sources is this internal account. */
  accountId?: string;
  state?: CardLifecycleState;
  platformCardId?: string;
}

interface Row {
  view: string;
  created_at: Date;
  card_id: string;
}

/**
 * Read side of cards (the `cards` projection): the documents `GET /cards` and `GET /cards/{id}`
 * return. `findById` answers null for an unknown id and for another platform's card alike.
 */
@Injectable()
export class CardsQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async findById(platformId: string, cardId: string): Promise<CardView | null> {
    const result = await this.pool.query<{ view: string }>(`SELECT view FROM cards WHERE platform_id = $1 AND card_id = $2`, [platformId, cardId]);
    const row = result.rows[0];
    return row ? (JSON.parse(row.view) as CardView) : null;
  }

  /**
   * Keyset-paginated on (created_at, card_id) in `sortOrder` (a cursor continues in the order of
   * the request that carries it); `totalCount` counts every match.
   */
  async list(platformId: string, filters: CardFilters, page: PageRequest, sortOrder: SortOrder = 'asc'): Promise<Page<CardView>> {
    const conditions = ['platform_id = $1'];
    const params: unknown[] = [platformId];
    const add = (column: string, value: unknown) => {
      params.push(value);
      conditions.push(`${column} = $${params.length}`);
    };
    if (filters.cardholderId !== undefined) add('cardholder_id', filters.cardholderId);
    if (filters.state !== undefined) add('state', filters.state);
    if (filters.platformCardId !== undefined) add('platform_card_id', filters.platformCardId);
    if (filters.accountId !== undefined) {
      params.push(filters.accountId);
      conditions.push(`(view::jsonb -> 'fundingSources') ? $${params.length}`);
    }
    const total = await this.pool.query<{ count: string }>(`SELECT count(*) FROM cards WHERE ${conditions.join(' AND ')}`, params);
    if (page.cursor) {
      params.push(String(page.cursor.createdAt), String(page.cursor.id));
      conditions.push(`(created_at, card_id) ${sortOrder === 'asc' ? '>' : '<'} ($${params.length - 1}::timestamptz, $${params.length})`);
    }
    params.push(page.limit + 1);
    const direction = sortOrder === 'asc' ? 'ASC' : 'DESC';
    const rows = await this.pool.query<Row>(
      `SELECT view, created_at, card_id FROM cards WHERE ${conditions.join(' AND ')} ORDER BY created_at ${direction}, card_id ${direction} LIMIT $${params.length}`,
      params,
    );
    return toPage(
      rows.rows,
      page.limit,
      (row) => JSON.parse(row.view) as CardView,
      (row) => ({ createdAt: row.created_at.toISOString(), id: row.card_id }),
      Number(total.rows[0].count),
    );
  }
}
