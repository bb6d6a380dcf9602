import { Projection } from '../../src/infra/projections/projection';
import { EXTERNAL_ACCOUNT_EVENT_TYPES, ExternalAccountEvent, externalAccountView } from '../../src/accounts';
import { ExternalAccountRecord, evolveExternalAccountRecord } from './external-account-record';

/**
 * `external_accounts`: one row per external account with the read model's record of it (`state`,
 * external-account-record.ts), its GET view (`view`) and its primary identifier (which payments
 * need and the view does not show), plus indexed columns for the list filters (`customer_id` null:
 * the platform's own account). Deleted accounts keep their row (`is_deleted`); the queries answer
 * only the others.
 */
export const externalAccountsProjection: Projection = {
  name: 'external-accounts',
  // 2: `state` is the read model's own record, no longer the write side's state; `view` and
  // `primary_identifier` are stored rather than computed at each read. 3: the account's status.
  // 4: the platform's own accounts (no customer: `customer_id` null).
  version: 4,
  tables: ['external_accounts'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('external_accounts')} (
       platform_id text NOT NULL,
       external_account_id text NOT NULL,
       customer_id text,
       currency text NOT NULL,
       account_type text NOT NULL,
       is_deleted boolean NOT NULL,
       state text NOT NULL,
       view text NOT NULL,
       primary_identifier text NOT NULL,
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
    const existing = await tx.query<{ state: ExternalAccountRecord }>(
      `SELECT state::json AS state FROM ${tx.table('external_accounts')} WHERE platform_id = $1 AND external_account_id = $2`,
      [typed.data.platformId, typed.data.externalAccountId],
    );
    const previous = existing.rows[0]?.state ?? null;
    const record = evolveExternalAccountRecord(previous, typed);
    if (record === null || record === previous) return;
    await tx.query(
      `INSERT INTO ${tx.table('external_accounts')}
         (platform_id, external_account_id, customer_id, currency, account_type, is_deleted, state, view, primary_identifier, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (platform_id, external_account_id) DO UPDATE SET
         is_deleted = EXCLUDED.is_deleted, state = EXCLUDED.state, view = EXCLUDED.view, updated_at = EXCLUDED.updated_at`,
      [
        record.platformId,
        record.externalAccountId,
        record.customerId,
        record.currency,
        record.accountInfo.accountType,
        record.status === 'deleted',
        JSON.stringify(record),
        JSON.stringify(externalAccountView(record)),
        record.primaryIdentifier,
        record.createdAt,
        record.updatedAt,
      ],
    );
  },
};
