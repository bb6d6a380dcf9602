import { Projection } from '../../src/infra/projections/projection';
import { QuoteEvent } from '../../src/quotes';
import { QUOTE_ROW_EVENT_TYPES, createdQuoteRow, quoteRowChange } from './quote-row';

/**
 * `quotes`: one row per quote, the read model's row of quote-row.ts: the GET body as
 * `QuoteCreated` made it (`view`), the current `status` and `sca_challenge`. A row is written by
 * its creation and each later event is one pipelined UPDATE with no read back (a change never
 * depends on the row before it), which keeps the projector (and so every read-your-writes
 * answer) fast.
 */
export const quotesProjection: Projection = {
  name: 'quotes',
  // 3: views show `destination.paymentRail` under the contract's rail names (issue 20).
  // 4: rows made by the read model's own evolve (quote-row.ts), no longer the write side's fold.
  version: 4,
  tables: ['quotes'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('quotes')} (
       platform_id text NOT NULL,
       quote_id text NOT NULL,
       transaction_id text NOT NULL,
       customer_id text,
       status text NOT NULL,
       view text NOT NULL,
       sca_challenge text,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, quote_id)
     )`,
    `CREATE INDEX ON ${t('quotes')} (platform_id, created_at DESC, quote_id DESC)`,
    `CREATE INDEX ON ${t('quotes')} (platform_id, customer_id, created_at DESC)`,
  ],
  handles: QUOTE_ROW_EVENT_TYPES,
  async apply(event, tx) {
    const typed = { type: event.type, data: event.data } as unknown as QuoteEvent;
    if (typed.type === 'QuoteCreated') {
      const row = createdQuoteRow(typed.data);
      tx.execute(
        `INSERT INTO ${tx.table('quotes')} (platform_id, quote_id, transaction_id, customer_id, status, view, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (platform_id, quote_id) DO NOTHING`,
        [row.platformId, row.quoteId, row.transactionId, row.customerId, row.status, JSON.stringify(row.view), row.createdAt, row.updatedAt],
      );
      return;
    }
    const change = quoteRowChange(typed);
    if (change === null) return;
    tx.execute(`UPDATE ${tx.table('quotes')} SET status = $3, updated_at = $4, sca_challenge = $5 WHERE platform_id = $1 AND quote_id = $2`, [
      typed.data.platformId,
      typed.data.quoteId,
      change.status,
      change.updatedAt,
      change.scaChallenge ? JSON.stringify(change.scaChallenge) : null,
    ]);
  },
};
