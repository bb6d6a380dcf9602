import { Projection } from '../../src/infra/projections/projection';
import { ExternalAccountState, externalAccountDecider } from '../../src/accounts';
import { EXTERNAL_ACCOUNT_EVENT_TYPES, ExternalAccountEvent } from '../../src/accounts';

/**
 * `external_accounts`: one row per external account with its folded state (the views are
 * computed from it) and indexed columns for the list filters. Deleted accounts keep their row
 * (`is_deleted`) so transfers that used them still resolve their details.
 */
export const externalAccountsProjection: Projection = {
  name: 'external-accounts',
  version: 1,
  tables: ['external_accounts'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('external_accounts')} (
       platform_id text NOT NULL,
       external_account_id text NOT NULL,
       customer_id text NOT NULL,
       currency text NOT NULL,
       account_type text NOT NULL,
       is_deleted boolean NOT NULL,
       state text NOT NULL,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, external_account_id)
     )`,
    `CREATE INDEX ON ${t('external_accounts')} (platform_id, customer_id, created_at, external_account_id)`,
    `CREATE INDEX ON ${t('external_accounts')} (platform_id, created_at, external_account_id)`,
  ],
  handles: EXTERNAL_ACCOUNT_EVENT_TYPES,
  async apply(event, tx) {
    const typed = { type: event.type, data: event.data } as unknown as ExternalAccountEvent;
    const data = event.data as { externalAccountId: string; platformId: string };
    const existing = await tx.query<{ state: ExternalAccountState }>(
      `SELECT state::json AS state FROM ${tx.table('external_accounts')} WHERE platform_id = $1 AND external_account_id = $2`,
      [data.platformId, data.externalAccountId],
    );
    const state = externalAccountDecider.evolve(existing.rows[0]?.state ?? externalAccountDecider.initialState(), typed);
    if (state.status === 'none') return;
    await tx.query(
      `INSERT INTO ${tx.table('external_accounts')}
         (platform_id, external_account_id, customer_id, currency, account_type, is_deleted, state, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (platform_id, external_account_id) DO UPDATE SET
         is_deleted = EXCLUDED.is_deleted, state = EXCLUDED.state, updated_at = EXCLUDED.updated_at`,
      [
        state.platformId,
        state.externalAccountId,
        state.customerId,
        state.currency,
        state.accountInfo.accountType,
        state.status === 'deleted',
        JSON.stringify(state),
        state.createdAt,
        state.updatedAt,
      ],
    );
  },
};
