import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL, lookup } from '../../infra/postgres/pool';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { FeeConfigWire, feeConfigToWire, isActiveFee } from '../domain/platform/fee-configs';
import {
  CUSTOMER_INFO_FIELD_NAMES,
  CardTokenization2faConfig,
  EmbeddedWalletConfig,
  PlatformConfig,
  SupportedCurrencyConfig,
  TRANSACTION_TYPES,
  TransactionType,
} from '../domain/platform/platform.events';

/** A `supportedCurrencies[]` entry on the wire (the contract's PlatformCurrencyConfig). */
export interface PlatformCurrencyConfigView {
  currencyCode: string;
  minAmount: number;
  maxAmount: number;
  requiredCounterpartyFields: Array<{ name: string; mandatory: boolean }>;
  enabledTransactionTypes: TransactionType[];
}

/**
 * `GET /config` and `PATCH /config` answers: the contract's PlatformConfig plus our published keys and name.
 * @example
 * {
 *   "id": "Platform:0199f5c2-3a10-7b8e-9c4d-5e6f7a8b9c0d",
 *   "umaDomain": "pay.example.com",
 *   "webhookEndpoint": "https://api.example.com/webhooks/payments",
 *   "supportedCurrencies": [
 *     { "currencyCode": "USD", "minAmount": 100, "maxAmount": 1000000000, "requiredCounterpartyFields": [], "enabledTransactionTypes": ["OUTGOING", "INCOMING"] },
 *     { "currencyCode": "EUR", "minAmount": 100, "maxAmount": 500000000, "requiredCounterpartyFields": [{ "name": "FULL_NAME", "mandatory": true }], "enabledTransactionTypes": ["OUTGOING"] }
 *   ],
 *   "embeddedWalletConfig": { "rpId": "app.example.com", "allowedOrigins": ["https://app.example.com"], "appName": "Example Pay", "otpLength": 6 },
 *   "isRegulatedFinancialInstitution": false,
 *   "feeConfigs": [{ "feeType": "CROSS_CURRENCY_TRANSACTION", "sourceCurrency": "USD", "variableFeeBps": 15, "fixedFee": { "amount": 0, "currency": "USD" } }],
 *   "name": "Example Pay",
 *   "webhookPublicKey": "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEoktrNKcIHvF8HG5qbSTZsz3a4uFl\nc84fxZE2CmJLuEnr/N4TTWYYPwSWWytBxz9oPGT0fe55AqqYemGdFAxMyg==\n-----END PUBLIC KEY-----\n",
 *   "walletEnclavePublicKey": "04ffc536aa1772c434ab2d9c9bf83b56e1e165dd7a0ed7f27da669f9eb801af6bb084878a5b8d43051bf32dfa0083a9d83ee6df8099ef0f2d7fcb9e9ffbe167b84",
 *   "createdAt": "2025-10-20T08:00:00.000Z",
 *   "updatedAt": "2025-11-01T16:45:12.331Z"
 * }
 */
export interface PlatformConfigView {
  id: string;
  umaDomain: string | null;
  webhookEndpoint: string | null;
  supportedCurrencies: PlatformCurrencyConfigView[];
  embeddedWalletConfig: EmbeddedWalletConfig;
  cardTokenization2faConfig: CardTokenization2faConfig | null;
  /** Set by the operator at registration; an unregulated platform's customers must accept the End User Terms. */
  isRegulatedFinancialInstitution: boolean;
  feeConfigs: FeeConfigWire[];
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
      `SELECT name, webhook_endpoint, supported_currencies, fee_configs, embedded_wallet_config, uma_domain,
              card_tokenization_2fa_config, is_regulated_financial_institution, created_at, updated_at
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
      ...(row.uma_domain !== null ? { umaDomain: row.uma_domain } : {}),
      ...(row.card_tokenization_2fa_config !== null ? { cardTokenization2faConfig: row.card_tokenization_2fa_config } : {}),
      isRegulatedFinancialInstitution: row.is_regulated_financial_institution,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  }

  async get(platformId: string): Promise<PlatformConfigView> {
    const raw = await this.findRaw(platformId);
    // Every authenticated platform has its read model (registration waits for it): none is a fault of ours.
    if (!raw) throw new Error(`No platform configuration read model for ${platformId}`);
    const { webhookPublicKey, walletEnclavePublicKey } = await this.keys();
    return {
      id: platformId,
      umaDomain: raw.umaDomain ?? null,
      webhookEndpoint: raw.webhookEndpoint,
      supportedCurrencies: raw.supportedCurrencies.map(currencyView),
      embeddedWalletConfig: raw.embeddedWalletConfig,
      cardTokenization2faConfig: raw.cardTokenization2faConfig ?? null,
      isRegulatedFinancialInstitution: raw.isRegulatedFinancialInstitution ?? true,
      feeConfigs: raw.feeConfigs.filter(isActiveFee).map(feeConfigToWire),
      name: raw.name,
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

/** Field names stored before the names were checked, under the contract's name for them. */
const LEGACY_FIELD_NAMES: Readonly<Record<string, string>> = { DATE_OF_BIRTH: 'BIRTH_DATE', ADDRESS: 'POSTAL_ADDRESS' };

function currencyView(entry: SupportedCurrencyConfig): PlatformCurrencyConfigView {
  const field = (name: string, mandatory: boolean) => ({ name: LEGACY_FIELD_NAMES[name] ?? name, mandatory });
  const known = (definition: { name: string }) => (CUSTOMER_INFO_FIELD_NAMES as readonly string[]).includes(definition.name);
  return {
    currencyCode: entry.currencyCode,
    minAmount: entry.minAmount,
    maxAmount: entry.maxAmount,
    // Names outside the contract's list (accepted before they were checked) cannot be shown.
    requiredCounterpartyFields: [
      ...entry.requiredCounterpartyFields.map((name) => field(name, true)),
      ...(entry.optionalCounterpartyFields ?? []).map((name) => field(name, false)),
    ].filter(known),
    enabledTransactionTypes: entry.enabledTransactionTypes ?? [...TRANSACTION_TYPES],
  };
}
