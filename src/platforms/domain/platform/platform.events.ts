/** Kinds of counterparty/customer information a platform can ask for (the contract's CustomerInfoFieldName). */
export const CUSTOMER_INFO_FIELD_NAMES = [
  'FULL_NAME', 'BIRTH_DATE', 'NATIONALITY', 'PHONE_NUMBER', 'EMAIL', 'POSTAL_ADDRESS', 'TAX_ID',
  'REGISTRATION_NUMBER', 'USER_TYPE', 'COUNTRY_OF_RESIDENCE', 'ACCOUNT_IDENTIFIER', 'FI_LEGAL_ENTITY_NAME',
  'FI_ADDRESS', 'PURPOSE_OF_PAYMENT', 'ULTIMATE_INSTITUTION_COUNTRY', 'IDENTIFIER', 'BUSINESS_TYPE',
  'COMPANY_LEGAL_NAME', 'ID_TYPE', 'ID_NUMBER',
] as const;

export const TRANSACTION_TYPES = ['OUTGOING', 'INCOMING'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export interface SupportedCurrencyConfig {
  currencyCode: string;
  minAmount: number;
  maxAmount: number;
  /** Counterparty fields a quote must carry in `counterpartyInformation` for this currency (`mandatory: true`). */
  requiredCounterpartyFields: string[];
  /**
   * Counterparty fields the platform would like to have but does not require (`mandatory: false`).
   * Absent on events written before they could be configured: none.
   */
  optionalCounterpartyFields?: string[];
  /** Transaction types enabled for this currency. Absent on events written before issue 20: both. */
  enabledTransactionTypes?: TransactionType[];
}

export const FEE_TYPES = ['CROSS_CURRENCY_TRANSACTION'] as const;
export type FeeType = (typeof FEE_TYPES)[number];

/**
 * A platform-collected fee, as stored since the first events (the wire shape, FeeConfig of the
 * contract, is mapped in fee-configs.ts). One per (feeType, currencyCode).
 */
export interface FeeConfig {
  /** The sending currency the fee applies to (`sourceCurrency` on the wire). */
  currencyCode: string;
  /** Platform's fixed fee per transfer, minor units of the sending currency. */
  fixedFee: number;
  /** Platform's variable fee as a fraction of the sending amount (0.01 = 1%; `variableFeeBps` / 10 000). */
  variableFeeRate: number;
  /** Absent on events written before issue 20: the only fee type there was, CROSS_CURRENCY_TRANSACTION. */
  feeType?: FeeType;
}

export interface EmbeddedWalletConfig {
  /** WebAuthn relying-party id for passkeys (ours, not in the contract). */
  rpId: string;
  /** Origins passkey ceremonies may run against (ours, not in the contract). */
  allowedOrigins: string[];
  /** Branding and OTP settings of the contract's EmbeddedWalletConfig; each absent until set. */
  appName?: string;
  otpLength?: number;
  alphanumeric?: boolean;
  expirationSeconds?: number;
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  logoUrl?: string;
}

export interface CardTokenization2faConfig {
  displayName?: string;
  logoUrl?: string;
  email?: { fromAddress?: string; fromName?: string; replyToAddress?: string; subject?: string; bodyText?: string };
  sms?: { templateSid?: string; bodyText?: string };
}

export interface PlatformConfig {
  webhookEndpoint: string | null;
  supportedCurrencies: SupportedCurrencyConfig[];
  feeConfigs: FeeConfig[];
  embeddedWalletConfig: EmbeddedWalletConfig;
  /** The platform's UMA domain; absent until set. */
  umaDomain?: string;
  /** Card-tokenization authentication branding; absent until set. */
  cardTokenization2faConfig?: CardTokenization2faConfig;
  /**
   * Set once, at registration (the reference: only the operator sets it). An unregulated platform's
   * customers must have accepted the End User Terms before they move money. Absent on events
   * written before it existed: regulated, as those platforms behaved.
   */
  isRegulatedFinancialInstitution?: boolean;
}

export type PlatformRegistered = {
  type: 'PlatformRegistered';
  data: { platformId: string; name: string; config: PlatformConfig; registeredAt: string };
};

/** `changes` holds the full new value of every top-level field that changed. */
export type PlatformConfigUpdated = {
  type: 'PlatformConfigUpdated';
  data: { platformId: string; changes: Partial<PlatformConfig>; updatedAt: string };
};

export type PlatformEvent = PlatformRegistered | PlatformConfigUpdated;
