import { Projection } from '../../src/infra/projections/projection';
import { QuoteEvent } from '../../src/quotes';
import { quoteDecider } from '../../src/quotes';
import { quoteView } from '../../src/quotes';

/**
 * `quotes`: one row per quote. Everything a quote shows is fixed at creation except its status,
 * so `view` holds the GET body as `QuoteCreated` made it (computed with the same quoteView the
 * API uses) and `status` the current status; the query puts the two together. Each later event
 * is then one pipelined UPDATE with no read back, which keeps the projector (and so every
 * read-your-writes answer) fast. Execute attempts that change no status are not projected.
 *
 * The one field that changes after creation, the SCA challenge of a PENDING_AUTHORIZATION quote,
 * has a column of its own (`sca_challenge`, null otherwise).
 */
const STATUS_BY_EVENT: Readonly<Record<string, string>> = {
  QuoteFundsHeld: 'PROCESSING',
  QuoteFunded: 'PROCESSING',
  QuoteCompleted: 'COMPLETED',
  QuoteFailed: 'FAILED',
  QuoteExpired: 'EXPIRED',
  QuoteAuthorizationRequested: 'PENDING_AUTHORIZATION',
  QuoteScaChallengeIssued: 'PENDING_AUTHORIZATION',
  // Released: a prefunded quote is executing (shown PENDING), a REALTIME_FUNDING one PENDING.
  QuoteAuthorized: 'PENDING',
  QuoteAuthorizationFailed: 'FAILED',
};

const TIME_FIELD: Readonly<Record<string, string>> = {
  QuoteFundsHeld: 'heldAt',
  QuoteFunded: 'fundedAt',
  QuoteCompleted: 'completedAt',
  QuoteFailed: 'failedAt',
  QuoteExpired: 'expiredAt',
  QuoteAuthorizationRequested: 'requestedAt',
  QuoteScaChallengeIssued: 'issuedAt',
  QuoteAuthorized: 'authorizedAt',
  QuoteAuthorizationFailed: 'failedAt',
};

export const quotesProjection: Projection = {
  name: 'quotes',
  // 3: views show `destination.paymentRail` under the contract's rail names (issue 20).
  version: 3,
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
  handles: ['QuoteCreated', ...Object.keys(STATUS_BY_EVENT)],
  async apply(event, tx) {
    const data = event.data as Record<string, unknown> & { quoteId: string; platformId: string };
    if (event.type === 'QuoteCreated') {
      const state = quoteDecider.evolve(quoteDecider.initialState(), event as unknown as QuoteEvent);
      if (state.status === 'none') return;
      const view = quoteView(state);
      tx.execute(
        `INSERT INTO ${tx.table('quotes')} (platform_id, quote_id, transaction_id, customer_id, status, view, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (platform_id, quote_id) DO NOTHING`,
        [state.platformId, state.quoteId, state.transactionId, state.customerId, view.status, JSON.stringify(view), state.createdAt],
      );
      return;
    }
    const scaChallenge = (data as { scaChallenge?: unknown }).scaChallenge;
    tx.execute(`UPDATE ${tx.table('quotes')} SET status = $3, updated_at = $4, sca_challenge = $5 WHERE platform_id = $1 AND quote_id = $2`, [
      data.platformId,
      data.quoteId,
      STATUS_BY_EVENT[event.type],
      data[TIME_FIELD[event.type]],
      scaChallenge ? JSON.stringify(scaChallenge) : null,
    ]);
  },
};
