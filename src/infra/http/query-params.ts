import { FieldError } from '../domain/domain-error';
import { IdPrefix, parseId } from '../ids';
import { PageRequest, assertNoQueryErrors, parsePageRequest } from './pagination';

/**
 * Reads list query parameters and collects every problem (unknown, repeated, malformed) so a
 * 400 lists them all at once, like body validation does.
 */
export class QueryReader {
  readonly errors: FieldError[] = [];

  constructor(
    private readonly query: Record<string, unknown>,
    allowed: string[],
  ) {
    const known = new Set([...allowed, 'limit', 'cursor']);
    for (const name of Object.keys(query)) {
      if (!known.has(name)) this.errors.push({ field: name, constraint: {}, message: `Unknown query parameter ${name}` });
    }
  }

  string(name: string, maxLength = 256): string | undefined {
    const value = this.query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.errors.push({ field: name, constraint: {}, message: `${name} must be given once, as text` });
      return undefined;
    }
    if (value.length > maxLength) {
      this.errors.push({ field: name, constraint: { maxLength }, message: `${name} must be at most ${maxLength} characters` });
      return undefined;
    }
    return value;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) {
      this.errors.push({ field: name, constraint: { enum: values }, message: `${name} must be one of ${values.join(', ')}` });
      return undefined;
    }
    return value as T;
  }

  id(name: string, prefix: IdPrefix): string | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!parseId(prefix, value)) {
      this.errors.push({ field: name, constraint: { format: `${prefix}-id` }, message: `${name} must be a ${prefix}:<uuid> id` });
      return undefined;
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') {
      this.errors.push({ field: name, constraint: { enum: ['true', 'false'] }, message: `${name} must be true or false` });
      return undefined;
    }
    return value === 'true';
  }

  dateTime(name: string): string | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) || Number.isNaN(Date.parse(value))) {
      this.errors.push({ field: name, constraint: { format: 'date-time' }, message: `${name} must be an ISO 8601 date or date-time` });
      return undefined;
    }
    return new Date(value).toISOString();
  }

  /**
   * Lists read through a QueryReader page by `(createdAt, id)`, ids of one of `idPrefixes` (a
   * list of several kinds, like transactions and card transactions). A cursor that decodes but
   * holds anything else (forged, or another list's) is a bad parameter, not a query to run.
   */
  page(...idPrefixes: [IdPrefix, ...IdPrefix[]]): PageRequest {
    const errorsBefore = this.errors.length;
    const page = parsePageRequest(this.query, this.errors);
    const cursor = page.cursor;
    if (cursor && !idPrefixes.some((idPrefix) => isKeysetCursor(cursor, idPrefix))) {
      if (this.errors.length === errorsBefore) {
        this.errors.push({ field: 'cursor', constraint: {}, message: 'cursor is not a cursor this service issued' });
      }
      return { limit: page.limit, cursor: null };
    }
    return page;
  }

  /** Throws 400 INVALID_INPUT listing every problem found so far. */
  done(): void {
    assertNoQueryErrors(this.errors);
  }
}

/** The `(createdAt, id)` key `toPage` writes: an ISO instant as toISOString gives it, an id. */
function isKeysetCursor(cursor: Record<string, unknown>, idPrefix: IdPrefix): boolean {
  const { createdAt, id } = cursor;
  if (Object.keys(cursor).length !== 2 || typeof createdAt !== 'string' || parseId(idPrefix, id) === null) return false;
  const millis = Date.parse(createdAt);
  return !Number.isNaN(millis) && new Date(millis).toISOString() === createdAt;
}
