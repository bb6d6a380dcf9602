import { Page, encodeCursor, SortOrder } from '../../infra/http/pagination';
import { Currency, currency } from '../../shared/currencies';
import { DISCOVERIES } from '../tables/discoveries';
import { UMA_PROVIDERS, UmaProviderEntry } from '../tables/uma-providers';
import { VASPS, VaspEntry } from '../tables/vasps';

/**
 * Reads of the sandbox directories (the tables in ../tables): filters, order and keyset pages.
 * A page's cursor holds the sort key of its last row (`{name}` for providers, `{vaspName}` for
 * VASPs), so a page after it starts right past that row whatever was listed before.
 */

export interface KeysetPage {
  limit: number;
  /** The sort key of the last row already listed, or null for the first page. */
  after: string | null;
}

export interface UmaProviderWire {
  name: string;
  supportedRegions: string[];
  domain: string;
  logoUrl: string;
  supportedCurrencies: Currency[];
  allowListStatus: boolean;
}

export interface UmaProviderFilters {
  countryCode?: string;
  currencyCode?: string;
  /** False leaves out providers that are not on the allow list; they are listed by default. */
  hasBlockedProviders?: boolean;
}

export interface DiscoveryWire {
  bankName: string;
  displayName: string;
  country: string;
  currency: string;
}

export function listUmaProviders(filters: UmaProviderFilters, order: SortOrder, page: KeysetPage): Page<UmaProviderWire> & { totalCount: number } {
  const matching = UMA_PROVIDERS.filter((entry) =>
    (filters.countryCode === undefined || entry.supportedRegions.includes(filters.countryCode))
    && (filters.currencyCode === undefined || entry.supportedCurrencies.includes(filters.currencyCode))
    && (filters.hasBlockedProviders !== false || entry.allowListStatus),
  );
  const ordered = order === 'asc' ? matching : [...matching].reverse();
  const found = keysetPage(ordered, (entry) => entry.name, order, page, 'name');
  return { data: found.rows.map(umaProviderWire), hasMore: found.hasMore, ...found.next, totalCount: matching.length };
}

export function listVasps(page: KeysetPage): Page<VaspEntry> {
  const found = keysetPage(VASPS, (entry) => entry.vaspName, 'asc', page, 'vaspName');
  return { data: found.rows.map((entry) => ({ vaspName: entry.vaspName, url: entry.url })), hasMore: found.hasMore, ...found.next };
}

/** Every institution of the corridor; both filters are optional, and no filter lists them all. */
export function listDiscoveries(filters: { country?: string; currency?: string }): { data: DiscoveryWire[] } {
  const data = DISCOVERIES.filter((entry) =>
    (filters.country === undefined || entry.country === filters.country) && (filters.currency === undefined || entry.currency === filters.currency),
  ).map(({ bankName, displayName, country, currency: code }) => ({ bankName, displayName, country, currency: code }));
  return { data };
}

function umaProviderWire(entry: UmaProviderEntry): UmaProviderWire {
  return {
    name: entry.name,
    supportedRegions: [...entry.supportedRegions],
    domain: entry.domain,
    logoUrl: entry.logoUrl,
    supportedCurrencies: entry.supportedCurrencies.map((code) => ({ ...currency(code) })),
    allowListStatus: entry.allowListStatus,
  };
}

/** `rows` are in listing order; the page holds the `limit` rows past `page.after`. */
function keysetPage<T>(rows: readonly T[], keyOf: (row: T) => string, order: SortOrder, page: KeysetPage, cursorKey: string) {
  const after = page.after;
  const remaining = after === null ? rows : rows.filter((row) => (order === 'asc' ? keyOf(row) > after : keyOf(row) < after));
  const pageRows = remaining.slice(0, page.limit);
  const hasMore = remaining.length > page.limit;
  const next = hasMore ? { nextCursor: encodeCursor({ [cursorKey]: keyOf(pageRows[pageRows.length - 1]) }) } : {};
  return { rows: pageRows, hasMore, next };
}
