import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../../infra/postgres/pool';
import { DelegatedKeyStatus } from '../domain/delegated-key/delegated-key.events';
import { DelegatedKeyView } from './delegated-key.view';

export interface DelegatedKeyFilters {
  accountId?: string;
  fundingSourceId?: string;
}

export interface DelegatedKeyLocation {
  delegatedKeyId: string;
  fundingSourceId: string;
  view: DelegatedKeyView;
}

/** A card as the delegated-key flows need it: whether it is CLOSED and which accounts fund it. */
export interface CardFunding {
  cardId: string;
  state: string;
  fundingSources: string[];
}

/**
 * Read side of delegated keys (the `wallet-delegated-keys` projection): the keys, and the cards'
 * funding sources (from the cards context's events). Every query filters on the platform, so
 * another platform's ids are simply not found. Whether a key may sign is decided on its stream.
 */
@Injectable()
export class DelegatedKeysQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** Every status (PENDING, ACTIVE, REVOKED), oldest first; the filters combine. */
  async list(platformId: string, filters: DelegatedKeyFilters): Promise<DelegatedKeyView[]> {
    const conditions = ['platform_id = $1'];
    const params: unknown[] = [platformId];
    for (const [column, value] of [['account_id', filters.accountId], ['funding_source_id', filters.fundingSourceId]] as const) {
      if (value === undefined) continue;
      params.push(value);
      conditions.push(`${column} = $${params.length}`);
    }
    const result = await this.pool.query<{ view: string }>(
      `SELECT view FROM wallet_delegated_keys WHERE ${conditions.join(' AND ')} ORDER BY created_at, delegated_key_id`,
      params,
    );
    return result.rows.map((row) => JSON.parse(row.view) as DelegatedKeyView);
  }

  /** `platformId` null: any platform's (the audit CLI). */
  async find(platformId: string | null, delegatedKeyId: string): Promise<DelegatedKeyLocation | null> {
    const result = await this.pool.query<{ funding_source_id: string; view: string }>(
      `SELECT funding_source_id, view FROM wallet_delegated_keys WHERE delegated_key_id = $1 AND ($2::text IS NULL OR platform_id = $2)`,
      [delegatedKeyId, platformId],
    );
    const row = result.rows[0];
    return row ? { delegatedKeyId, fundingSourceId: row.funding_source_id, view: JSON.parse(row.view) } : null;
  }

  /** The status of the wallet's delegated key with this public key (compressed hex), or null when it is none. */
  async delegatedKeyStatus(platformId: string, accountId: string, publicKeyCompressedHex: string): Promise<DelegatedKeyStatus | null> {
    const result = await this.pool.query<{ status: DelegatedKeyStatus }>(
      `SELECT status FROM wallet_delegated_keys WHERE platform_id = $1 AND account_id = $2 AND public_key = $3 LIMIT 1`,
      [platformId, accountId, publicKeyCompressedHex],
    );
    return result.rows[0]?.status ?? null;
  }

  async cardFunding(platformId: string, cardId: string): Promise<CardFunding | null> {
    const result = await this.pool.query<{ state: string; funding_sources: string }>(
      `SELECT state, funding_sources FROM wallet_card_funding WHERE platform_id = $1 AND card_id = $2`,
      [platformId, cardId],
    );
    const row = result.rows[0];
    return row ? { cardId, state: row.state, fundingSources: JSON.parse(row.funding_sources) as string[] } : null;
  }
}
