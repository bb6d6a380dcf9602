import { Projection } from '../../src/infra/projections/projection';

/** `platform_configs`: one row per platform, the configuration `GET /config` returns. */
export const platformConfigProjection: Projection = {
  name: 'platform-config',
  // 2: umaDomain and cardTokenization2faConfig columns. 3: is_regulated_financial_institution.
  version: 3,
  tables: ['platform_configs'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('platform_configs')} (
       platform_id text PRIMARY KEY,
       name text NOT NULL,
       webhook_endpoint text,
       supported_currencies jsonb NOT NULL,
       fee_configs jsonb NOT NULL,
       embedded_wallet_config jsonb NOT NULL,
       uma_domain text,
       card_tokenization_2fa_config jsonb,
       is_regulated_financial_institution boolean NOT NULL,
       created_at timestamptz NOT NULL,
       updated_at timestamptz NOT NULL
     )`,
  ],
  handles: ['PlatformRegistered', 'PlatformConfigUpdated'],
  async apply(event, tx) {
    const data = event.data as Record<string, any>;
    if (event.type === 'PlatformRegistered') {
      const config = data.config;
      tx.execute(
        `INSERT INTO ${tx.table('platform_configs')}
           (platform_id, name, webhook_endpoint, supported_currencies, fee_configs, embedded_wallet_config, uma_domain,
            card_tokenization_2fa_config, is_regulated_financial_institution, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) ON CONFLICT (platform_id) DO NOTHING`,
        [
          data.platformId,
          data.name,
          config.webhookEndpoint,
          JSON.stringify(config.supportedCurrencies),
          JSON.stringify(config.feeConfigs),
          JSON.stringify(config.embeddedWalletConfig),
          config.umaDomain ?? null,
          config.cardTokenization2faConfig ? JSON.stringify(config.cardTokenization2faConfig) : null,
          config.isRegulatedFinancialInstitution ?? true,
          data.registeredAt,
        ],
      );
      return;
    }
    const changes = data.changes as Record<string, unknown>;
    const columns: Record<string, string> = {
      webhookEndpoint: 'webhook_endpoint',
      supportedCurrencies: 'supported_currencies',
      feeConfigs: 'fee_configs',
      embeddedWalletConfig: 'embedded_wallet_config',
      umaDomain: 'uma_domain',
      cardTokenization2faConfig: 'card_tokenization_2fa_config',
    };
    const textColumns = new Set(['webhook_endpoint', 'uma_domain']);
    const sets: string[] = [];
    const params: unknown[] = [data.platformId, data.updatedAt];
    for (const [field, column] of Object.entries(columns)) {
      if (!(field in changes)) continue;
      const value = changes[field];
      params.push(textColumns.has(column) || value === null ? value : JSON.stringify(value));
      sets.push(`${column} = $${params.length}`);
    }
    tx.execute(
      `UPDATE ${tx.table('platform_configs')} SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE platform_id = $1`,
      params,
    );
  },
};
