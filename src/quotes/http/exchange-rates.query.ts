import { FieldError, ValidationError } from '../../infra/domain/domain-error';
import { CURRENCY_CODES, MAX_AMOUNT_MINOR, isCurrencyCode } from '../../shared/currencies';
import { PRICED_CURRENCY_CODES, isPricedCurrency } from '../pricing/payout-currencies';

/**
 * Query of `GET /exchange-rates`: `sourceCurrency` (one code a quote can send from),
 * `destinationCurrency` (repeatable or comma-separated codes of any priced currency, payout-only
 * ones included), `sendingAmount` (integer minor units of the source currency). Every bad or
 * unknown parameter is reported at once (400 INVALID_INPUT).
 */
export interface ExchangeRatesQuery {
  sourceCurrency: string | null;
  destinationCurrencies: string[];
  sendingAmount: number | null;
}

const KNOWN_PARAMETERS = ['sourceCurrency', 'destinationCurrency', 'sendingAmount'];
const MAX_DESTINATIONS = 20;

export function parseExchangeRatesQuery(query: Record<string, unknown>): ExchangeRatesQuery {
  const errors: FieldError[] = [];
  for (const name of Object.keys(query)) {
    if (!KNOWN_PARAMETERS.includes(name)) errors.push({ field: name, constraint: {}, message: `Unknown query parameter ${name}` });
  }
  const sourceCurrency = parseSource(query.sourceCurrency, errors);
  const destinationCurrencies = parseDestinations(query.destinationCurrency, errors);
  const sendingAmount = parseAmount(query.sendingAmount, errors);
  if (sourceCurrency && destinationCurrencies.length > 0 && destinationCurrencies.every((code) => code === sourceCurrency)) {
    errors.push({ field: 'destinationCurrency', constraint: {}, message: 'destinationCurrency must differ from sourceCurrency' });
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return { sourceCurrency, destinationCurrencies, sendingAmount };
}

function parseSource(value: unknown, errors: FieldError[]): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') {
    errors.push({ field: 'sourceCurrency', constraint: {}, message: 'sourceCurrency must be given once' });
    return null;
  }
  if (!isCurrencyCode(value)) {
    errors.push({ field: 'sourceCurrency', constraint: { enum: CURRENCY_CODES }, message: `sourceCurrency must be one of ${CURRENCY_CODES.join(', ')}` });
    return null;
  }
  return value;
}

function parseDestinations(value: unknown, errors: FieldError[]): string[] {
  if (value === undefined) return [];
  const given = Array.isArray(value) ? value : [value];
  if (!given.every((item): item is string => typeof item === 'string')) {
    errors.push({ field: 'destinationCurrency', constraint: {}, message: 'destinationCurrency must be currency codes' });
    return [];
  }
  const codes = given.flatMap((item) => item.split(',')).map((code) => code.trim());
  if (codes.length > MAX_DESTINATIONS) {
    errors.push({ field: 'destinationCurrency', constraint: {}, message: `At most ${MAX_DESTINATIONS} destination currencies` });
    return [];
  }
  const bad = codes.filter((code) => !isPricedCurrency(code));
  if (bad.length > 0) {
    errors.push({
      field: 'destinationCurrency',
      constraint: { enum: PRICED_CURRENCY_CODES },
      message: `Unsupported destinationCurrency ${bad.join(', ')}; supported: ${PRICED_CURRENCY_CODES.join(', ')}`,
    });
    return [];
  }
  return [...new Set(codes)];
}

function parseAmount(value: unknown, errors: FieldError[]): number | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^\d{1,20}$/.test(value)) {
    errors.push({ field: 'sendingAmount', constraint: {}, message: 'sendingAmount must be an integer in minor units of the source currency' });
    return null;
  }
  // 0 is a valid value (the contract's minimum); no corridor prices it: 400 AMOUNT_OUT_OF_RANGE.
  const amount = Number(value);
  if (amount > MAX_AMOUNT_MINOR) {
    errors.push({ field: 'sendingAmount', constraint: {}, message: `sendingAmount must be at most ${MAX_AMOUNT_MINOR}` });
    return null;
  }
  return amount;
}
