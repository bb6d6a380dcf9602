import { FieldError } from '../../infra/domain/domain-error';
import { hasErrorAt } from '../../infra/http/validation';
import { MAX_AMOUNT_MINOR } from '../../shared/currencies';
import { FeeConfigWire } from '../domain/platform/fee-configs';
import { CardTokenization2faConfig, EmbeddedWalletConfig, TransactionType } from '../domain/platform/platform.events';
import { checkWebhookEndpoint } from '../webhook-endpoint-policy';

/** A `PATCH /config` body in the contract's shape (every field optional), as the DTO checked it. */
export interface PlatformConfigUpdate {
  webhookEndpoint?: string | null;
  umaDomain?: string;
  supportedCurrencies?: Array<{
    currencyCode: string;
    minAmount?: number;
    maxAmount?: number;
    requiredCounterpartyFields?: Array<{ name: string; mandatory: boolean }>;
    enabledTransactionTypes?: TransactionType[];
  }>;
  feeConfigs?: FeeConfigWire[];
  embeddedWalletConfig?: Partial<EmbeddedWalletConfig>;
  cardTokenization2faConfig?: CardTokenization2faConfig;
}

/**
 * The rules of a configuration update beyond its shape (pure): the webhook endpoint policy, at
 * least one currency, no currency or fee listed twice, minAmount <= maxAmount, fixed fees in
 * their source currency, origins without a path. Only the fields whose shape is right are checked
 * (`shapeErrors`), so that one 400 can list the shape errors and these together.
 */
export function platformConfigUpdateErrors(update: PlatformConfigUpdate, shapeErrors: FieldError[], allowPrivateTargets: boolean): FieldError[] {
  return [
    ...webhookEndpointErrors(update, shapeErrors, allowPrivateTargets),
    ...supportedCurrencyErrors(update, shapeErrors),
    ...feeConfigErrors(update, shapeErrors),
    ...allowedOriginErrors(update, shapeErrors),
  ];
}

function webhookEndpointErrors(update: PlatformConfigUpdate, shapeErrors: FieldError[], allowPrivateTargets: boolean): FieldError[] {
  if (typeof update.webhookEndpoint !== 'string' || hasErrorAt(shapeErrors, 'webhookEndpoint')) return [];
  const problem = checkWebhookEndpoint(update.webhookEndpoint, allowPrivateTargets);
  return problem ? [problem] : [];
}

function supportedCurrencyErrors(update: PlatformConfigUpdate, shapeErrors: FieldError[]): FieldError[] {
  const errors: FieldError[] = [];
  if (Array.isArray(update.supportedCurrencies) && update.supportedCurrencies.length === 0) {
    // Customers get an account per supported currency: a platform without any could do nothing.
    errors.push({ field: 'supportedCurrencies', constraint: {}, message: 'supportedCurrencies must list at least one currency' });
  }
  if (Array.isArray(update.supportedCurrencies) && !shapeErrors.some((error) => error.field === 'supportedCurrencies')) {
    const seen = new Set<string>();
    update.supportedCurrencies.forEach((entry, index) => {
      // Entries with shape errors are already reported; the others are still checked.
      if (hasErrorAt(shapeErrors, `supportedCurrencies.${index}`)) return;
      if (seen.has(entry.currencyCode)) {
        errors.push({ field: `supportedCurrencies.${index}.currencyCode`, constraint: {}, message: `${entry.currencyCode} is listed twice` });
      }
      seen.add(entry.currencyCode);
      if ((entry.minAmount ?? 1) > (entry.maxAmount ?? MAX_AMOUNT_MINOR)) {
        errors.push({ field: `supportedCurrencies.${index}.minAmount`, constraint: {}, message: 'minAmount must not exceed maxAmount' });
      }
    });
  }
  return errors;
}

function feeConfigErrors(update: PlatformConfigUpdate, shapeErrors: FieldError[]): FieldError[] {
  const errors: FieldError[] = [];
  if (!Array.isArray(update.feeConfigs) || shapeErrors.some((error) => error.field === 'feeConfigs')) return errors;
  const keys = new Set<string>();
  update.feeConfigs.forEach((entry, index) => {
    if (hasErrorAt(shapeErrors, `feeConfigs.${index}`)) return;
    const key = `${entry.feeType}/${entry.sourceCurrency}`;
    if (keys.has(key)) {
      errors.push({ field: `feeConfigs.${index}.sourceCurrency`, constraint: {}, message: `${entry.feeType} for ${entry.sourceCurrency} is listed twice` });
    }
    keys.add(key);
    // Fees are taken from the sending amount: a fixed fee in another currency would need a rate.
    if (entry.fixedFee.currency !== entry.sourceCurrency) {
      errors.push({
        field: `feeConfigs.${index}.fixedFee.currency`,
        constraint: { enum: [entry.sourceCurrency] },
        message: 'fixedFee.currency must be the sourceCurrency',
      });
    }
  });
  return errors;
}

function allowedOriginErrors(update: PlatformConfigUpdate, shapeErrors: FieldError[]): FieldError[] {
  const origins = update.embeddedWalletConfig?.allowedOrigins;
  if (!Array.isArray(origins) || hasErrorAt(shapeErrors, 'embeddedWalletConfig.allowedOrigins')) return [];
  return origins.flatMap((origin, index) =>
    isOrigin(origin)
      ? []
      : [{ field: `embeddedWalletConfig.allowedOrigins.${index}`, constraint: { format: 'origin' }, message: 'Each origin must be a scheme://host[:port] origin without a path' }],
  );
}

function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text;
  } catch {
    return false;
  }
}
