import { sha256Hex } from './encoding';

/**
 * Canonical JSON: object keys sorted by UTF-16 code units (as RFC 8785 does), no whitespace,
 * properties whose value is undefined left out (as JSON.stringify does). Used wherever a hash or a
 * signature must bind data: the same data always gives the same bytes, whatever order the caller
 * built its object in. Non-finite numbers, bigints and functions are refused rather than silently
 * turned into null.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) throw new TypeError('canonicalJson: undefined is not JSON');
  return serialise(value, '$');
}

/** Lowercase hex SHA-256 of the canonical JSON's UTF-8 bytes. */
export function canonicalJsonSha256Hex(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

function serialise(value: unknown, path: string): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${path} is not a finite number`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return '[' + value.map((item, index) => (item === undefined ? 'null' : serialise(item, `${path}[${index}]`))).join(',') + ']';
  }
  if (typeof value === 'object') {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return serialise((value as { toJSON(): unknown }).toJSON(), path);
    const entries = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => JSON.stringify(key) + ':' + serialise((value as Record<string, unknown>)[key], `${path}.${key}`));
    return '{' + entries.join(',') + '}';
  }
  throw new TypeError(`canonicalJson: ${path} has type ${typeof value}, which is not JSON`);
}
