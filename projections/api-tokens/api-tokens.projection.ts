import { Projection } from '../../src/infra/projections/projection';
import { TOKEN_EVENT_TYPES, TokenEvent } from '../../src/platforms';
import { ApiTokenRecord, evolveApiTokenRecord } from './api-token-record';

/**
 * `api_tokens`: one row per API token with the columns its view and the list filters read; a
 * revoked token keeps its row with `revoked_at` (queries leave it out). Never the secret: it is
 * not in the events. Every column comes from the events.
 */
export const apiTokensProjection: Projection = {
  name: 'api-tokens',
  version: 1,
  tables: ['api_tokens'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('api_tokens')} (
       token_id text PRIMARY KEY,
       platform_id text NOT NULL,
       name text NOT NULL,
       permissions text[] NOT NULL,
       client_id text NOT NULL,
       record text NOT NULL,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       revoked_at timestamptz
     )`,
    `CREATE INDEX ON ${t('api_tokens')} (platform_id, created_at, token_id)`,
  ],
  handles: TOKEN_EVENT_TYPES,
  async apply(event, tx) {
    const typed = { type: event.type, data: event.data } as unknown as TokenEvent;
    const existing = await tx.query<{ record: string }>(`SELECT record FROM ${tx.table('api_tokens')} WHERE token_id = $1`, [typed.data.tokenId]);
    const previous: ApiTokenRecord | null = existing.rows[0] ? JSON.parse(existing.rows[0].record) : null;
    const token = evolveApiTokenRecord(previous, typed);
    if (token === null) return;
    tx.execute(
      `INSERT INTO ${tx.table('api_tokens')} (token_id, platform_id, name, permissions, client_id, record, created_at, updated_at, revoked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (token_id) DO UPDATE SET record = EXCLUDED.record, updated_at = EXCLUDED.updated_at, revoked_at = EXCLUDED.revoked_at`,
      [token.tokenId, token.platformId, token.name, token.permissions, token.clientId, JSON.stringify(token), token.createdAt, token.updatedAt, token.revokedAt],
    );
  },
};
