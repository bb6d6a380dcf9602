import { Projection } from '../../src/infra/projections/projection';
import { QuoteState, quoteDecider } from '../../src/quotes/domain/quote/quote.decider';
import { QUOTE_EVENT_TYPES, QuoteEvent } from '../../src/quotes/domain/quote/quote.events';
import { quoteView } from '../../src/quotes/queries/quote.view';

/**
 * `quotes`: one row per quote. `state` is the decider's folded state (the next event evolves it),
 * `view` the GET body computed from it with the same function the API uses; the other columns are
 * copied from the view for filters and ordering. Everything derives from the events.
 */
export const quotesProjection: Projection = {
  name: 'quotes',
  version: 1,
  tables: ['quotes'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('quotes')} (
       platform_id text NOT NULL,
       quote_id text NOT NULL,
       transaction_id text NOT NULL,
       customer_id text,
       status text NOT NULL,
       state text NOT NULL,
       view text NOT NULL,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, quote_id)
     )`,
    `CREATE INDEX ON ${t('quotes')} (platform_id, created_at DESC, quote_id DESC)`,
    `CREATE INDEX ON ${t('quotes')} (platform_id, customer_id, created_at DESC)`,
  ],
  handles: QUOTE_EVENT_TYPES,
  async apply(event, tx) {
    const data = event.data as { quoteId: string; platformId: string };
    const table = tx.table('quotes');
    const key = `${table}:${data.quoteId}`;
    let previous: QuoteState;
    const cached = recentStates.get(key);
    if (event.type === 'QuoteCreated') {
      previous = quoteDecider.initialState();
    } else if (cached && cached.revision === event.revision - 1) {
      previous = cached.state;
    } else {
      const existing = await tx.query<{ state: QuoteState }>(
        `SELECT state::json AS state FROM ${table} WHERE platform_id = $1 AND quote_id = $2`,
        [data.platformId, data.quoteId],
      );
      if (!existing.rows[0]) return;
      previous = existing.rows[0].state;
    }
    const state = quoteDecider.evolve(previous, event as unknown as QuoteEvent);
    if (state.status === 'none') return;
    remember(key, event.revision, state);
    const view = quoteView(state);
    await tx.query(
      `INSERT INTO ${table} (platform_id, quote_id, transaction_id, customer_id, status, state, view, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (platform_id, quote_id) DO UPDATE SET
         status = EXCLUDED.status, state = EXCLUDED.state, view = EXCLUDED.view, updated_at = EXCLUDED.updated_at`,
      [data.platformId, state.quoteId, state.transactionId, state.customerId, view.status, JSON.stringify(state), JSON.stringify(view), state.createdAt, state.updatedAt],
    );
  },
};

/**
 * The state each recently projected quote had after its stream revision `revision`. A quote's
 * state is a pure fold of its stream, so the state after revision r - 1 is exactly the row's
 * state whoever wrote it (another process, a rolled-back batch that is being retried): when the
 * next event is revision r, the row need not be read back. Any gap falls back to the row.
 */
const recentStates = new Map<string, { revision: number; state: QuoteState }>();
const RECENT_STATES_LIMIT = 20_000;

function remember(key: string, revision: number, state: QuoteState): void {
  recentStates.delete(key);
  recentStates.set(key, { revision, state });
  if (recentStates.size > RECENT_STATES_LIMIT) recentStates.delete(recentStates.keys().next().value!);
}
