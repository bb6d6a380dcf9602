import { Projection } from '../../src/infra/projections/projection';
import { StoredTransactionRow, TRANSACTION_VIEW_REDUCERS } from './reducers';

/**
 * `transactions`: one row per transaction, keyed by (platform_id, transaction_id): payments
 * (OUTGOING, INCOMING) and card transactions (CARD). `view` is the GET body; the other columns
 * are copied from it for filters and ordering. `visible` hides rows GET must not show yet (or
 * ever). `record` is a kind's own fold state where the view alone does not carry it (card
 * transactions; null for payments). Rows are written only through reducers from events (every
 * event carries `transactionId` and `platformId`), so a rebuild reproduces them exactly.
 */
export const transactionsProjection: Projection = {
  name: 'transactions',
  // 4: card transactions' rows and the `record` column.
  version: 4,
  tables: ['transactions'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('transactions')} (
       platform_id text NOT NULL,
       transaction_id text NOT NULL,
       customer_id text,
       platform_customer_id text,
       type text NOT NULL,
       status text NOT NULL,
       source_account_id text,
       destination_account_id text,
       quote_id text,
       reference text,
       visible boolean NOT NULL,
       view text NOT NULL,
       record text,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, transaction_id)
     )`,
    `CREATE INDEX ON ${t('transactions')} (platform_id, created_at DESC, transaction_id DESC)`,
    `CREATE INDEX ON ${t('transactions')} (platform_id, customer_id, created_at DESC)`,
    `CREATE INDEX ON ${t('transactions')} (platform_id, source_account_id)`,
    `CREATE INDEX ON ${t('transactions')} (platform_id, destination_account_id)`,
    `CREATE INDEX ON ${t('transactions')} (platform_id, platform_customer_id)`,
    `CREATE INDEX ON ${t('transactions')} (platform_id, reference)`,
  ],
  handles: Object.keys(TRANSACTION_VIEW_REDUCERS),
  async apply(event, tx) {
    const reducer = TRANSACTION_VIEW_REDUCERS[event.type];
    const data = event.data as { transactionId: string; platformId: string };
    const key = `${tx.table('transactions')}:${event.streamName}`;
    const cached = recentRows.get(key);
    let current: StoredTransactionRow | null;
    if (event.revision === 0) {
      current = null;
    } else if (cached && cached.revision === event.revision - 1) {
      current = cached.row;
    } else {
      const existing = await tx.query<{ view: StoredTransactionRow['view']; visible: boolean; record: unknown }>(
        `SELECT view::json AS view, visible, record::json AS record FROM ${tx.table('transactions')} WHERE platform_id = $1 AND transaction_id = $2`,
        [data.platformId, data.transactionId],
      );
      const found = existing.rows[0];
      current = found ? ({ view: found.view, visible: found.visible, ...(found.record !== null ? { record: found.record } : {}) } as StoredTransactionRow) : null;
    }
    const next = reducer(current, event);
    rememberRow(key, event.revision, next);
    // A reducer answers the row it was given when the event changes nothing: no write.
    if (!next || next === current) return;
    const columns = columnsOf(next);
    tx.execute(
      `INSERT INTO ${tx.table('transactions')}
         (platform_id, transaction_id, customer_id, type, status, source_account_id, destination_account_id, quote_id,
          visible, view, created_at, updated_at, platform_customer_id, reference, record)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (platform_id, transaction_id) DO UPDATE SET
         customer_id = EXCLUDED.customer_id, type = EXCLUDED.type, status = EXCLUDED.status,
         source_account_id = EXCLUDED.source_account_id, destination_account_id = EXCLUDED.destination_account_id,
         quote_id = EXCLUDED.quote_id, visible = EXCLUDED.visible, view = EXCLUDED.view, updated_at = EXCLUDED.updated_at,
         platform_customer_id = EXCLUDED.platform_customer_id, reference = EXCLUDED.reference, record = EXCLUDED.record`,
      [
        data.platformId,
        next.view.id,
        columns.customerId,
        next.view.type,
        next.view.status,
        columns.sourceAccountId,
        columns.destinationAccountId,
        columns.quoteId,
        next.visible,
        JSON.stringify(next.view),
        next.view.createdAt,
        next.view.updatedAt,
        next.view.platformCustomerId,
        columns.reference,
        'record' in next ? JSON.stringify(next.record) : null,
      ],
    );
  },
};

interface FilterColumns {
  customerId: string | null;
  sourceAccountId: string | null;
  destinationAccountId: string | null;
  quoteId: string | null;
  reference: string | null;
}

/**
 * The filter columns of a row. A card transaction belongs to its cardholder; its funding account
 * is the source of a DEBIT (a purchase) and the destination of a CREDIT (money back to the card).
 */
function columnsOf(row: StoredTransactionRow): FilterColumns {
  const view = row.view;
  if (view.type === 'CARD') {
    const debit = view.direction === 'DEBIT';
    return { customerId: view.customerId, sourceAccountId: debit ? view.accountId : null, destinationAccountId: debit ? null : view.accountId, quoteId: null, reference: null };
  }
  return {
    customerId: view.customerId,
    sourceAccountId: identifierOf(view.source),
    destinationAccountId: identifierOf(view.destination),
    quoteId: view.quoteId,
    reference: view.reconciliationInstructions?.reference ?? null,
  };
}

/**
 * What the account identifier filters of `GET /transactions` match on one side: the account id,
 * or the UMA address of an UMA counterparty.
 */
function identifierOf(side: { accountId?: string; umaAddress?: unknown } | null): string | null {
  if (!side) return null;
  if (side.accountId) return side.accountId;
  return typeof side.umaAddress === 'string' ? side.umaAddress : null;
}

/**
 * The row each recently projected transaction had after its stream's revision `revision`. The
 * row is a pure fold of the stream (every event type of a transaction stream has a reducer), so
 * the row after revision r - 1 is exactly what the table holds, whoever wrote it: when the next
 * event is revision r, it need not be read back. Any gap falls back to the table.
 */
const recentRows = new Map<string, { revision: number; row: StoredTransactionRow | null }>();
const RECENT_ROWS_LIMIT = 20_000;

function rememberRow(key: string, revision: number, row: StoredTransactionRow | null): void {
  recentRows.delete(key);
  recentRows.set(key, { revision, row });
  if (recentRows.size > RECENT_ROWS_LIMIT) recentRows.delete(recentRows.keys().next().value!);
}
