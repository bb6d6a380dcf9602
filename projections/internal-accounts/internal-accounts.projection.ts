import { Projection } from '../../src/infra/projections/projection';
import { INTERNAL_ACCOUNT_EVENT_TYPES, InternalAccountEvent } from '../../src/accounts';
import { movementTime } from '../../src/accounts';

/** The wallet context's event (stream `walletAuth-<account uuid>`) that sets an embedded wallet's privacy. */
const WALLET_PRIVACY_UPDATED = 'WalletPrivacyUpdated';

/**
 * `internal_accounts`: one row per internal account with its balances after the latest ledger
 * event (each event carries them) and its status (ACTIVE at the opening, then as each
 * `InternalAccountStatusChanged` sets it), for `GET /internal-accounts` and the checks of other
 * contexts. The GET view is computed from the row (internal-account.view.ts). An embedded
 * wallet also carries its privacy setting (`private_enabled`, false until a signed `PATCH
 * /internal-accounts/{id}` changes it; null for other accounts). The setting is a wallet
 * preference, not a balance change, so it leaves `updated_at` alone: GET, the fund response and
 * balance webhooks (built from the ledger stream) keep the same `updatedAt`.
 */
export const internalAccountsProjection: Projection = {
  name: 'internal-accounts',
  // 3: the status column.
  version: 3,
  tables: ['internal_accounts'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('internal_accounts')} (
       platform_id text NOT NULL,
       account_id text NOT NULL,
       customer_id text,
       account_type text NOT NULL,
       currency text NOT NULL,
       status text NOT NULL,
       available_minor bigint NOT NULL,
       held_minor bigint NOT NULL,
       private_enabled boolean,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, account_id)
     )`,
    `CREATE INDEX ON ${t('internal_accounts')} (platform_id, customer_id, created_at, account_id)`,
    `CREATE INDEX ON ${t('internal_accounts')} (platform_id, created_at, account_id)`,
  ],
  handles: [...INTERNAL_ACCOUNT_EVENT_TYPES, WALLET_PRIVACY_UPDATED],
  async apply(event, tx) {
    if (event.type === WALLET_PRIVACY_UPDATED) {
      const data = event.data as { platformId: string; accountId: string; privateEnabled: boolean };
      tx.execute(`UPDATE ${tx.table('internal_accounts')} SET private_enabled = $3 WHERE platform_id = $1 AND account_id = $2`, [
        data.platformId,
        data.accountId,
        data.privateEnabled,
      ]);
      return;
    }
    const typed = { type: event.type, data: event.data } as unknown as InternalAccountEvent;
    if (typed.type === 'InternalAccountOpened') {
      const data = typed.data;
      tx.execute(
        `INSERT INTO ${tx.table('internal_accounts')}
           (platform_id, account_id, customer_id, account_type, currency, status, available_minor, held_minor, private_enabled, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'ACTIVE', 0, 0, $7, $6, $6) ON CONFLICT (platform_id, account_id) DO NOTHING`,
        [data.platformId, data.accountId, data.customerId, data.accountType, data.currency, data.openedAt, data.accountType === 'EMBEDDED_WALLET' ? false : null],
      );
      return;
    }
    if (typed.type === 'HoldVoided') return;
    if (typed.type === 'InternalAccountStatusChanged') {
      tx.execute(`UPDATE ${tx.table('internal_accounts')} SET status = $3, updated_at = $4 WHERE platform_id = $1 AND account_id = $2`, [
        typed.data.platformId,
        typed.data.accountId,
        typed.data.status,
        typed.data.changedAt,
      ]);
      return;
    }
    tx.execute(
      `UPDATE ${tx.table('internal_accounts')} SET available_minor = $3, held_minor = $4, updated_at = $5
        WHERE platform_id = $1 AND account_id = $2`,
      [typed.data.platformId, typed.data.accountId, typed.data.available, typed.data.held, movementTime(typed)],
    );
  },
};
