import { Projection, ProjectionTransaction } from '../../src/infra/projections/projection';
import {
  PROVIDER_ACCOUNT_EVENT_TYPES,
  STABLECOIN_EVENT_TYPES,
  STABLECOIN_OPERATION_EVENT_TYPES,
  StablecoinEvent,
  StablecoinOperationEvent,
  StablecoinProviderAccountEvent,
  providerAccountWire,
  stablecoinOperationWire,
  stablecoinWire,
} from '../../src/stablecoins';
import { evolveOperationRecord, evolveProviderAccountRecord, evolveStablecoinRecord } from './stablecoin-records';

const LINK_EVENTS = new Set<string>(PROVIDER_ACCOUNT_EVENT_TYPES);
const COIN_EVENTS = new Set<string>(STABLECOIN_EVENT_TYPES);

/**
 * `stablecoins`: one row per provider account link, per registered coin and per operation, each
 * with the read model's record and its GET view, plus the columns the list filters use. Every
 * column comes from the events, so a rebuild reproduces the rows exactly.
 */
export const stablecoinsProjection: Projection = {
  name: 'stablecoins',
  version: 1,
  tables: ['stablecoin_provider_accounts', 'stablecoins', 'stablecoin_operations'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('stablecoin_provider_accounts')} (
       platform_id text NOT NULL,
       link_id text NOT NULL,
       provider text NOT NULL,
       status text NOT NULL,
       record text NOT NULL,
       view text NOT NULL,
       created_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, link_id)
     )`,
    `CREATE INDEX ON ${t('stablecoin_provider_accounts')} (platform_id, created_at, link_id)`,
    `CREATE TABLE IF NOT EXISTS ${t('stablecoins')} (
       platform_id text NOT NULL,
       stablecoin_id text NOT NULL,
       issuance_status text NOT NULL,
       grid_operations_status text NOT NULL,
       provider text NOT NULL,
       record text NOT NULL,
       view text NOT NULL,
       created_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, stablecoin_id)
     )`,
    `CREATE INDEX ON ${t('stablecoins')} (platform_id, created_at, stablecoin_id)`,
    `CREATE TABLE IF NOT EXISTS ${t('stablecoin_operations')} (
       platform_id text NOT NULL,
       operation_id text NOT NULL,
       stablecoin_id text NOT NULL,
       operation_type text NOT NULL,
       record text NOT NULL,
       view text NOT NULL,
       created_at timestamptz NOT NULL,
       PRIMARY KEY (platform_id, operation_id)
     )`,
    `CREATE INDEX ON ${t('stablecoin_operations')} (platform_id, stablecoin_id, created_at, operation_id)`,
  ],
  handles: [...PROVIDER_ACCOUNT_EVENT_TYPES, ...STABLECOIN_EVENT_TYPES, ...STABLECOIN_OPERATION_EVENT_TYPES],
  async apply(event, tx) {
    if (LINK_EVENTS.has(event.type)) return applyLink(event as unknown as StablecoinProviderAccountEvent, tx);
    if (COIN_EVENTS.has(event.type)) return applyCoin(event as unknown as StablecoinEvent, tx);
    return applyOperation(event as unknown as StablecoinOperationEvent, tx);
  },
};

async function previousRecord<T>(tx: ProjectionTransaction, table: string, idColumn: string, platformId: string, id: string): Promise<T | null> {
  const existing = await tx.query<{ record: string }>(`SELECT record FROM ${tx.table(table)} WHERE platform_id = $1 AND ${idColumn} = $2`, [platformId, id]);
  return existing.rows[0] ? (JSON.parse(existing.rows[0].record) as T) : null;
}

async function applyLink(event: StablecoinProviderAccountEvent, tx: ProjectionTransaction): Promise<void> {
  const { platformId, stablecoinProviderAccountId } = event.data;
  const link = evolveProviderAccountRecord(await previousRecord(tx, 'stablecoin_provider_accounts', 'link_id', platformId, stablecoinProviderAccountId), event);
  if (link === null) return;
  tx.execute(
    `INSERT INTO ${tx.table('stablecoin_provider_accounts')} (platform_id, link_id, provider, status, record, view, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (platform_id, link_id) DO UPDATE SET status = EXCLUDED.status, record = EXCLUDED.record, view = EXCLUDED.view`,
    [platformId, stablecoinProviderAccountId, link.provider, link.status, JSON.stringify(link), JSON.stringify(providerAccountWire(link)), link.createdAt],
  );
}

async function applyCoin(event: StablecoinEvent, tx: ProjectionTransaction): Promise<void> {
  if (event.type !== 'StablecoinRegistered') return;
  const coin = evolveStablecoinRecord(null, event);
  if (coin === null) return;
  tx.execute(
    `INSERT INTO ${tx.table('stablecoins')} (platform_id, stablecoin_id, issuance_status, grid_operations_status, provider, record, view, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (platform_id, stablecoin_id) DO NOTHING`,
    [coin.platformId, coin.stablecoinId, coin.issuanceStatus, coin.gridOperationsStatus, coin.provider, JSON.stringify(coin), JSON.stringify(stablecoinWire(coin)), coin.createdAt],
  );
}

async function applyOperation(event: StablecoinOperationEvent, tx: ProjectionTransaction): Promise<void> {
  const { platformId, operationId } = event.data;
  const operation = evolveOperationRecord(await previousRecord(tx, 'stablecoin_operations', 'operation_id', platformId, operationId), event);
  if (operation === null) return;
  tx.execute(
    `INSERT INTO ${tx.table('stablecoin_operations')} (platform_id, operation_id, stablecoin_id, operation_type, record, view, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (platform_id, operation_id) DO UPDATE SET record = EXCLUDED.record, view = EXCLUDED.view`,
    [platformId, operationId, operation.stablecoinId, operation.operationType, JSON.stringify(operation), JSON.stringify(stablecoinOperationWire(operation)), operation.createdAt],
  );
}
