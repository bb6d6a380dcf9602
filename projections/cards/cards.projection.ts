import { Projection } from '../../src/infra/projections/projection';
import { CARD_EVENT_TYPES, CardEvent, cardView } from '../../src/cards';
import { CardRecord, evolveCardRecord } from './card-record';

/**
 * `cards`: one row per card with the read model's record of it (`record`, card-record.ts) and its
 * GET view (`view`, the document `GET /cards` and `GET /cards/{id}` return), plus indexed columns
 * for the list filters. Every column comes from the events, so a rebuild reproduces the rows exactly.
 */
export const cardsProjection: Projection = {
  name: 'cards',
  // 2: `record` is the read model's own record, no longer the write side's state.
  version: 2,
  tables: ['cards'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('cards')} (
       platform_id text NOT NULL,
       card_id text NOT NULL,
       cardholder_id text NOT NULL,
       platform_card_id text NOT NULL,
       state text NOT NULL,
       record text NOT NULL,
       view text NOT NULL,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, card_id)
     )`,
    `CREATE INDEX ON ${t('cards')} (platform_id, created_at, card_id)`,
    `CREATE INDEX ON ${t('cards')} (platform_id, cardholder_id, created_at, card_id)`,
    `CREATE INDEX ON ${t('cards')} (platform_id, platform_card_id)`,
  ],
  handles: CARD_EVENT_TYPES,
  async apply(event, tx) {
    const typed = { type: event.type, data: event.data } as unknown as CardEvent;
    const existing = await tx.query<{ record: string }>(
      `SELECT record FROM ${tx.table('cards')} WHERE platform_id = $1 AND card_id = $2`,
      [typed.data.platformId, typed.data.cardId],
    );
    const previous: CardRecord | null = existing.rows[0] ? JSON.parse(existing.rows[0].record) : null;
    const card = evolveCardRecord(previous, typed);
    if (card === null) return;
    await tx.query(
      `INSERT INTO ${tx.table('cards')}
         (platform_id, card_id, cardholder_id, platform_card_id, state, record, view, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (platform_id, card_id) DO UPDATE SET
         state = EXCLUDED.state, record = EXCLUDED.record, view = EXCLUDED.view, updated_at = EXCLUDED.updated_at`,
      [
        card.platformId,
        card.cardId,
        card.cardholderId,
        card.platformCardId,
        card.status,
        JSON.stringify(card),
        JSON.stringify(cardView(card)),
        card.createdAt,
        card.updatedAt,
      ],
    );
  },
};
