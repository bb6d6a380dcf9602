import { CardEvent } from '../../src/cards';
import { Projection, ProjectionTransaction } from '../../src/infra/projections/projection';
import { DELEGATED_KEY_EVENT_TYPES, DelegatedKeyEvent, delegatedKeyView } from '../../src/wallet-auth';
import { CARD_FUNDING_EVENT_TYPES, CardFundingRecord, DelegatedKeyRecord, evolveCardFundingRecord, evolveDelegatedKeyRecord } from './delegated-key-record';

/**
 * `wallet-delegated-keys`: delegated signing keys as `GET /auth/delegated-keys[/{id}]` answers
 * them (`view`), with the lookup columns of the list filters and of "is this public key a
 * delegated key of the wallet"; and every card's state and funding accounts, which the
 * delegated-key flows check without reaching into the cards context. Public keys only: the
 * private keys are in the KeyVault.
 */
export const delegatedKeysProjection: Projection = {
  name: 'wallet-delegated-keys',
  version: 1,
  tables: ['wallet_delegated_keys', 'wallet_card_funding'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('wallet_delegated_keys')} (
       delegated_key_id text PRIMARY KEY,
       platform_id text NOT NULL,
       account_id text NOT NULL,
       funding_source_id text NOT NULL,
       public_key text NOT NULL,
       status text NOT NULL,
       record text NOT NULL,
       view text NOT NULL,
       created_at timestamptz NOT NULL
     )`,
    `CREATE INDEX ON ${t('wallet_delegated_keys')} (platform_id, account_id, created_at)`,
    `CREATE INDEX ON ${t('wallet_delegated_keys')} (platform_id, funding_source_id, created_at)`,
    `CREATE TABLE IF NOT EXISTS ${t('wallet_card_funding')} (
       card_id text PRIMARY KEY,
       platform_id text NOT NULL,
       state text NOT NULL,
       funding_sources text NOT NULL
     )`,
  ],
  handles: [...DELEGATED_KEY_EVENT_TYPES, ...CARD_FUNDING_EVENT_TYPES],
  async apply(event, tx) {
    if ((DELEGATED_KEY_EVENT_TYPES as string[]).includes(event.type)) {
      await applyKeyEvent({ type: event.type, data: event.data } as unknown as DelegatedKeyEvent, tx);
    } else {
      await applyCardEvent({ type: event.type, data: event.data } as unknown as CardEvent, tx);
    }
  },
};

async function applyKeyEvent(event: DelegatedKeyEvent, tx: ProjectionTransaction): Promise<void> {
  const existing = await tx.query<{ record: string }>(`SELECT record FROM ${tx.table('wallet_delegated_keys')} WHERE delegated_key_id = $1`, [event.data.delegatedKeyId]);
  const previous: DelegatedKeyRecord | null = existing.rows[0] ? JSON.parse(existing.rows[0].record) : null;
  const key = evolveDelegatedKeyRecord(previous, event);
  if (key === null) return;
  tx.execute(
    `INSERT INTO ${tx.table('wallet_delegated_keys')}
       (delegated_key_id, platform_id, account_id, funding_source_id, public_key, status, record, view, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (delegated_key_id) DO UPDATE SET status = EXCLUDED.status, record = EXCLUDED.record, view = EXCLUDED.view`,
    [key.delegatedKeyId, key.platformId, key.accountId, key.fundingSourceId, key.publicKey, key.status, JSON.stringify(key), JSON.stringify(delegatedKeyView(key)), key.createdAt],
  );
}

async function applyCardEvent(event: CardEvent, tx: ProjectionTransaction): Promise<void> {
  const existing = await tx.query<{ platform_id: string; state: string; funding_sources: string }>(
    `SELECT platform_id, state, funding_sources FROM ${tx.table('wallet_card_funding')} WHERE card_id = $1`,
    [event.data.cardId],
  );
  const row = existing.rows[0];
  const previous: CardFundingRecord | null = row ? { platformId: row.platform_id, cardId: event.data.cardId, state: row.state, fundingSources: JSON.parse(row.funding_sources) } : null;
  const card = evolveCardFundingRecord(previous, event);
  if (card === null) return;
  tx.execute(
    `INSERT INTO ${tx.table('wallet_card_funding')} (card_id, platform_id, state, funding_sources) VALUES ($1, $2, $3, $4)
     ON CONFLICT (card_id) DO UPDATE SET state = EXCLUDED.state, funding_sources = EXCLUDED.funding_sources`,
    [card.cardId, card.platformId, card.state, JSON.stringify(card.fundingSources)],
  );
}
