import { ValidationError, FieldError } from '../domain/domain-error';

/**
 * List pagination (DECISIONS.md section 1): `limit` 1..100 (default 20) and an opaque `cursor`.
 * Cursors encode the sort key of the last row returned (keyset pagination, stable under inserts).
 */
/** The `sortOrder` values every sorted list takes (newest or oldest first; default per list). */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export interface PageRequest {
  limit: number;
  cursor: Record<string, unknown> | null;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount?: number;
}

export function parsePageRequest(query: Record<string, unknown>, errors: FieldError[] = []): PageRequest {
  let limit = 20;
  if (query.limit !== undefined) {
    const text = String(query.limit);
    if (!/^\d+$/.test(text)) errors.push({ field: 'limit', constraint: {}, message: 'limit must be an integer' });
    else if (Number(text) < 1) errors.push({ field: 'limit', constraint: {}, message: 'limit must be at least 1' });
    else if (Number(text) > 100) errors.push({ field: 'limit', constraint: {}, message: 'limit must be at most 100' });
    else limit = Number(text);
  }
  let cursor: Record<string, unknown> | null = null;
  if (query.cursor !== undefined && query.cursor !== '') {
    cursor = decodeCursor(String(query.cursor));
    if (!cursor) errors.push({ field: 'cursor', constraint: {}, message: 'cursor is not a cursor this service issued' });
  }
  return { limit, cursor };
}

/** Throws 400 with every bad query parameter collected so far. */
export function assertNoQueryErrors(errors: FieldError[]): void {
  if (errors.length > 0) throw new ValidationError(errors);
}

export function encodeCursor(key: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

export function decodeCursor(text: string): Record<string, unknown> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Builds the envelope from `limit + 1` fetched rows: the extra row only tells `hasMore`.
 */
export function toPage<TRow, TItem>(
  rows: TRow[],
  limit: number,
  toItem: (row: TRow) => TItem,
  cursorOf: (row: TRow) => Record<string, unknown>,
  totalCount?: number,
): Page<TItem> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const page: Page<TItem> = { data: pageRows.map(toItem), hasMore };
  if (hasMore) page.nextCursor = encodeCursor(cursorOf(pageRows[pageRows.length - 1]));
  if (totalCount !== undefined) page.totalCount = totalCount;
  return page;
}
