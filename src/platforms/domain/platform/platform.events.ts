export interface SupportedCurrencyConfig {
  currencyCode: string;
  minAmount: number;
  maxAmount: number;
  /** Counterparty fields a quote must carry in `counterpartyInformation` for this currency. */
  requiredCounterpartyFields: string[];
}

export interface FeeConfig {
  currencyCode: string;
  /** Platform's fixed fee per transfer, minor units of the sending currency. */
  fixedFee: number;
  /** Platform's variable fee as a fraction of the sending amount (0.01 = 1%). */
  variableFeeRate: number;
}

export interface EmbeddedWalletConfig {
  /** WebAuthn relying-party id for passkeys. */
  rpId: string;
  /** Origins passkey ceremonies may run against. */
  allowedOrigins: string[];
}

export interface PlatformConfig {
  webhookEndpoint: string | null;
  supportedCurrencies: SupportedCurrencyConfig[];
  feeConfigs: FeeConfig[];
  embeddedWalletConfig: EmbeddedWalletConfig;
}

export type PlatformRegistered = {
  type: 'PlatformRegistered';
  data: { platformId: string; name: string; config: PlatformConfig; registeredAt: string };
};

export type PlatformConfigUpdated = {
  type: 'PlatformConfigUpdated';
  data: { platformId: string; changes: Partial<PlatformConfig>; updatedAt: string };
};

export type PlatformEvent = PlatformRegistered | PlatformConfigUpdated;
