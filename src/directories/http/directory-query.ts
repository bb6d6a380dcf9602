import { parsePageRequest } from '../../infra/http/pagination';
import { QueryReader } from '../../infra/http/query-params';
import { KeysetPage } from '../queries/directory-listing';

/**
 * Query parameters the directory lists share: ISO codes in upper case (a code that is well formed
 * but matches nothing lists nothing), and keyset pages whose cursor holds one sort key.
 */
const COUNTRY_CODE = /^[A-Z]{2}$/;
const CURRENCY_CODE = /^[A-Z]{3,4}$/;

export function countryCode(reader: QueryReader, name: string): string | undefined {
  return coded(reader, name, COUNTRY_CODE, 'iso3166-1-alpha-2', 'an ISO 3166-1 alpha-2 country code such as PH');
}

/** ISO 4217 codes, and the four-letter crypto tickers (USDC, USDT, USDB). */
export function currencyCode(reader: QueryReader, name: string): string | undefined {
  return coded(reader, name, CURRENCY_CODE, 'iso4217', 'a currency code such as PHP or USDC');
}

function coded(reader: QueryReader, name: string, pattern: RegExp, format: string, what: string): string | undefined {
  const value = reader.string(name, 16);
  if (value === undefined || pattern.test(value)) return value;
  reader.errors.push({ field: name, constraint: { format, pattern: pattern.source }, message: `${name} must be ${what}` });
  return undefined;
}

/**
 * `limit` (1..100, default 20) and `cursor`: a cursor this service issued for this list holds
 * exactly `{[key]: <string>}`; anything else is a bad parameter.
 */
export function keysetPage(reader: QueryReader, query: Record<string, unknown>, key: string): KeysetPage {
  const page = parsePageRequest(query, reader.errors);
  if (page.cursor === null) return { limit: page.limit, after: null };
  const after = page.cursor[key];
  if (Object.keys(page.cursor).length === 1 && typeof after === 'string') return { limit: page.limit, after };
  if (!reader.errors.some((error) => error.field === 'cursor')) reader.errors.push({ field: 'cursor', constraint: {}, message: 'cursor is not a cursor this service issued' });
  return { limit: page.limit, after: null };
}

/** A list the contract does not page (`GET /discoveries`): `limit` and `cursor` are unknown there too. */
export function refusePaging(reader: QueryReader, query: Record<string, unknown>): void {
  for (const name of ['limit', 'cursor']) {
    if (query[name] !== undefined) reader.errors.push({ field: name, constraint: {}, message: `Unknown query parameter ${name}` });
  }
}
