import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL, lookup } from '../../infra/postgres/pool';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { DomainError } from '../../infra/domain/domain-error';
import { PlatformConfig } from '../domain/platform/platform.events';

export interface PlatformConfigView extends PlatformConfig {
  id: string;
  name: string;
  /** PEM (SPKI) key that verifies X-Service-Signature on webhooks. */
  webhookPublicKey: string;
  /** Uncompressed hex P-256 key that signs OTP target bundles (pin it in wallet clients). */
  walletEnclavePublicKey: string;
  createdAt: string;
  updatedAt: string;
}

export const WEBHOOK_SIGNING_KEY = 'webhook-signing';
export const WALLET_ENCLAVE_KEY = 'wallet-enclave';

/** Reads the platform configuration from its read model (the `platform-config` projection). */
@Injectable()
export class PlatformConfigQuery {
  /** The published keys, exported once: exporting a key object on every GET was its main cost. */
  private publishedKeys: Promise<{ webhookPublicKey: string; walletEnclavePublicKey: string }> | null = null;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
  ) {}

  async findRaw(platformId: string): Promise<(PlatformConfig & { name: string; createdAt: string; updatedAt: string }) | null> {
    const result = await lookup(
      this.pool,
      `SELECT name, webhook_endpoint, supported_currencies, fee_configs, embedded_wallet_config, created_at, updated_at
         FROM platform_configs WHERE platform_id = $1`,
      [platformId],
    );
    const row = result.rows[0];
    if (!row) return null;
    return {
      name: row.name,
      webhookEndpoint: row.webhook_endpoint,
      supportedCurrencies: row.supported_currencies,
      feeConfigs: row.fee_configs,
      embeddedWalletConfig: row.embedded_wallet_config,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  }

  async get(platformId: string): Promise<PlatformConfigView> {
    const raw = await this.findRaw(platformId);
    if (!raw) throw new DomainError('NOT_FOUND', 'Platform configuration not found');
    const { webhookPublicKey, walletEnclavePublicKey } = await this.keys();
    return {
      id: platformId,
      name: raw.name,
      webhookEndpoint: raw.webhookEndpoint,
      supportedCurrencies: raw.supportedCurrencies,
      feeConfigs: raw.feeConfigs,
      embeddedWalletConfig: raw.embeddedWalletConfig,
      webhookPublicKey,
      walletEnclavePublicKey,
      createdAt: raw.createdAt,
      updatedAt: raw.updatedAt,
    };
  }

  private keys(): Promise<{ webhookPublicKey: string; walletEnclavePublicKey: string }> {
    this.publishedKeys ??= (async () => {
      const webhookKey = await this.vault.serviceKey(WEBHOOK_SIGNING_KEY);
      const enclaveKey = await this.vault.serviceKey(WALLET_ENCLAVE_KEY);
      const enclaveJwk = enclaveKey.publicKey.export({ format: 'jwk' });
      return {
        webhookPublicKey: webhookKey.publicKey.export({ format: 'pem', type: 'spki' }) as string,
        walletEnclavePublicKey:
          '04' + Buffer.from(enclaveJwk.x!, 'base64url').toString('hex') + Buffer.from(enclaveJwk.y!, 'base64url').toString('hex'),
      };
    })();
    // A failed first attempt (database briefly away) must not be remembered.
    this.publishedKeys.catch(() => {
      this.publishedKeys = null;
    });
    return this.publishedKeys;
  }
}
