import { DomainError } from '../../infra/domain/domain-error';
import { CURRENCIES, CURRENCY_CODES, Currency } from '../../shared/currencies';

/**
 * Currencies a quote can pay out in but that no internal account holds: those of the reference's
 * external account types (DKK_ACCOUNT, HKD_ACCOUNT, ... XOF_ACCOUNT) and the main currencies a
 * SWIFT_ACCOUNT is paid in. They are priced like every supported currency (a sandbox USD value in
 * the rate table, the same drift) and listed as exchange-rate destinations, never as sources: a
 * quote sends from an internal account or a real-time funding method, which only the supported
 * currencies (src/shared/currencies.ts) have. Decimals are ISO 4217's minor units.
 */
const currency = (code: string, name: string, symbol: string, decimals = 2): Currency => ({ code, name, symbol, decimals });

export const PAYOUT_ONLY_CURRENCIES: Readonly<Record<string, Currency>> = Object.freeze({
  AED: currency('AED', 'United Arab Emirates Dirham', 'د.إ'),
  BDT: currency('BDT', 'Bangladeshi Taka', '৳'),
  BWP: currency('BWP', 'Botswana Pula', 'P'),
  CNY: currency('CNY', 'Chinese Yuan', '¥'),
  COP: currency('COP', 'Colombian Peso', '$'),
  DKK: currency('DKK', 'Danish Krone', 'kr'),
  EGP: currency('EGP', 'Egyptian Pound', 'E£'),
  GHS: currency('GHS', 'Ghanaian Cedi', 'GH₵'),
  GTQ: currency('GTQ', 'Guatemalan Quetzal', 'Q'),
  HKD: currency('HKD', 'Hong Kong Dollar', 'HK$'),
  HTG: currency('HTG', 'Haitian Gourde', 'G'),
  IDR: currency('IDR', 'Indonesian Rupiah', 'Rp'),
  JMD: currency('JMD', 'Jamaican Dollar', 'J$'),
  MWK: currency('MWK', 'Malawian Kwacha', 'MK'),
  MYR: currency('MYR', 'Malaysian Ringgit', 'RM'),
  PKR: currency('PKR', 'Pakistani Rupee', '₨'),
  RWF: currency('RWF', 'Rwandan Franc', 'FRw', 0),
  SGD: currency('SGD', 'Singapore Dollar', 'S$'),
  THB: currency('THB', 'Thai Baht', '฿'),
  TZS: currency('TZS', 'Tanzanian Shilling', 'TSh'),
  UGX: currency('UGX', 'Ugandan Shilling', 'USh', 0),
  VND: currency('VND', 'Vietnamese Dong', '₫', 0),
  XAF: currency('XAF', 'Central African CFA Franc', 'FCFA', 0),
  XOF: currency('XOF', 'West African CFA Franc', 'CFA', 0),
  ZAR: currency('ZAR', 'South African Rand', 'R'),
  ZMW: currency('ZMW', 'Zambian Kwacha', 'ZK'),
  // SWIFT_ACCOUNT holds any ISO 4217 code; these are the ones the sandbox has rates for.
  AUD: currency('AUD', 'Australian Dollar', 'A$'),
  CHF: currency('CHF', 'Swiss Franc', 'CHF'),
  CZK: currency('CZK', 'Czech Koruna', 'Kč'),
  ILS: currency('ILS', 'Israeli New Shekel', '₪'),
  JPY: currency('JPY', 'Japanese Yen', '¥', 0),
  KRW: currency('KRW', 'South Korean Won', '₩', 0),
  NOK: currency('NOK', 'Norwegian Krone', 'kr'),
  NZD: currency('NZD', 'New Zealand Dollar', 'NZ$'),
  PLN: currency('PLN', 'Polish Zloty', 'zł'),
  SAR: currency('SAR', 'Saudi Riyal', '﷼'),
  SEK: currency('SEK', 'Swedish Krona', 'kr'),
});

/** Every currency the pricing knows: the supported ones first (their order is the listing's), then the payout-only ones. */
export const PRICED_CURRENCIES: Readonly<Record<string, Currency>> = Object.freeze({ ...CURRENCIES, ...PAYOUT_ONLY_CURRENCIES });
export const PRICED_CURRENCY_CODES: readonly string[] = Object.freeze([...CURRENCY_CODES, ...Object.keys(PAYOUT_ONLY_CURRENCIES)]);

export function isPricedCurrency(code: unknown): code is string {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(PRICED_CURRENCIES, code);
}

/** The `Currency` object of a priced currency (a quote's sending or receiving currency). */
export function pricedCurrency(code: string): Currency {
  const found = PRICED_CURRENCIES[code];
  if (!found) throw new Error(`Unpriced currency ${code}`);
  return found;
}

/**
 * The refusal of a payout to an account in a currency the sandbox has no rate for (a
 * SWIFT_ACCOUNT may hold any ISO 4217 code): 400 INVALID_CURRENCY naming the account. Null when
 * the currency is priced.
 */
export function unpricedPayoutCurrency(currencyCode: string, accountId: string): DomainError | null {
  if (isPricedCurrency(currencyCode)) return null;
  return new DomainError('INVALID_CURRENCY', `No exchange rate for ${currencyCode}: quotes pay out in ${PRICED_CURRENCY_CODES.join(', ')}`, {
    errors: [{ field: 'destination.accountId', constraint: {}, message: `${accountId} holds ${currencyCode}, which the service has no exchange rate for` }],
  });
}
