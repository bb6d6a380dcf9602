import { CURRENCY_CODES } from '../../shared/currencies';

/**
 * The sandbox's directory of UMA providers (`GET /uma-providers`). One of them answers: the
 * sandbox's own test receivers live at `sandbox.uma.money` (`$success.<cur>@`, `$pending.long.<cur>@`,
 * `$fail.compliance.<cur>@`, src/sandbox/uma-addresses.ts), in every currency a UMA quote can pay.
 * The others are simulated counterparties on reserved `.example` domains, there so filters and
 * pages have something to choose from: a quote to an address at their domain finds no receiver
 * (UMA_NOT_FOUND), as it would for a provider that is listed but unreachable.
 *
 * `allowListStatus` is the sandbox's fixed allow list (platforms configure none yet); providers
 * not on it are listed unless `hasBlockedProviders=false`.
 */
export interface UmaProviderEntry {
  readonly name: string;
  readonly domain: string;
  /** ISO 3166-1 alpha-2 codes of the regions the provider serves. */
  readonly supportedRegions: readonly string[];
  /** Codes of the currencies its receivers accept (each a currency UMA quotes pay in). */
  readonly supportedCurrencies: readonly string[];
  readonly logoUrl: string;
  readonly allowListStatus: boolean;
}

export const SANDBOX_UMA_PROVIDER_DOMAIN = 'sandbox.uma.money';

const provider = (entry: UmaProviderEntry): UmaProviderEntry => Object.freeze(entry);

/** Sorted by name (the listing orders by it); names are unique. */
export const UMA_PROVIDERS: readonly UmaProviderEntry[] = Object.freeze([
  provider({
    name: 'Andes Pay',
    domain: 'andespay.example',
    supportedRegions: ['BR', 'MX'],
    supportedCurrencies: ['BRL', 'MXN', 'USDC'],
    logoUrl: 'https://andespay.example/logo.png',
    allowListStatus: true,
  }),
  provider({
    name: 'Harbor Remit',
    domain: 'harborremit.example',
    supportedRegions: ['PH', 'US'],
    supportedCurrencies: ['PHP', 'USD'],
    logoUrl: 'https://harborremit.example/logo.png',
    allowListStatus: true,
  }),
  provider({
    name: 'Lakeside Wallet',
    domain: 'lakeside.example',
    supportedRegions: ['KE', 'NG'],
    supportedCurrencies: ['KES', 'NGN', 'USDT'],
    logoUrl: 'https://lakeside.example/logo.png',
    allowListStatus: false,
  }),
  provider({
    name: 'Maple Ledger',
    domain: 'mapleledger.example',
    supportedRegions: ['CA', 'GB', 'US'],
    supportedCurrencies: ['CAD', 'GBP', 'USD', 'BTC'],
    logoUrl: 'https://mapleledger.example/logo.png',
    allowListStatus: true,
  }),
  provider({
    name: 'Rhine Money',
    domain: 'rhinemoney.example',
    supportedRegions: ['DE', 'FR', 'NL'],
    supportedCurrencies: ['EUR'],
    logoUrl: 'https://rhinemoney.example/logo.png',
    allowListStatus: false,
  }),
  provider({
    name: 'Saffron Pay',
    domain: 'saffronpay.example',
    supportedRegions: ['IN'],
    supportedCurrencies: ['INR', 'USDC'],
    logoUrl: 'https://saffronpay.example/logo.png',
    allowListStatus: true,
  }),
  provider({
    name: 'Sandbox UMA',
    domain: SANDBOX_UMA_PROVIDER_DOMAIN,
    supportedRegions: ['BR', 'CA', 'DE', 'GB', 'IN', 'KE', 'MX', 'NG', 'PH', 'US'],
    supportedCurrencies: CURRENCY_CODES,
    logoUrl: 'https://sandbox.uma.money/logo.png',
    allowListStatus: true,
  }),
]);
