import { sha256Hex } from './encoding';

/**
 * Canonical JSON: object keys sorted by UTF-16 code units (as RFC 8785 does), no whitespace,
 * properties whose value is undefined left out (as JSON.stringify does). Used wherever a hash or a
 * signature must bind data: the same data always gives the same bytes, whatever order the caller
 * built its object in. Non-finite numbers, bigints, functions and cycles are refused rather than
 * silently turned into null (or a stack overflow).
 *
 * Iterative, with its own stack on the heap: it also serves request bodies (Idempotency-Key
 * fingerprints), and a body nested as deep as its size allows must not overflow the call stack.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) throw new TypeError('canonicalJson: undefined is not JSON');
  const out: string[] = [];
  /** Open arrays and objects, outermost first: the path of the value being written. */
  const stack: Frame[] = [];
  /** The containers on the stack, to refuse a cycle rather than loop until memory runs out. */
  const open = new Set<object>();
  let next: { value: unknown } | null = { value };
  for (;;) {
    if (next !== null) {
      const frame = openValue(next.value, stack, open, out);
      next = null;
      if (frame) {
        stack.push(frame);
        open.add(frame.container);
      }
    }
    const top = stack[stack.length - 1];
    if (top === undefined) break;
    if (top.kind === 'array') {
      if (top.index === top.items.length) {
        out.push(']');
        close(stack, open);
        continue;
      }
      if (top.index > 0) out.push(',');
      const item = top.items[top.index++];
      // JSON.stringify writes undefined (and holes) in arrays as null.
      if (item === undefined) out.push('null');
      else next = { value: item };
    } else {
      if (top.index === top.keys.length) {
        out.push('}');
        close(stack, open);
        continue;
      }
      if (top.index > 0) out.push(',');
      const key = top.keys[top.index++];
      out.push(JSON.stringify(key), ':');
      next = { value: top.source[key] };
    }
  }
  return out.join('');
}

/** Lowercase hex SHA-256 of the canonical JSON's UTF-8 bytes. */
export function canonicalJsonSha256Hex(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

type Frame =
  | { kind: 'array'; container: object; items: unknown[]; index: number }
  | { kind: 'object'; container: object; source: Record<string, unknown>; keys: string[]; index: number };

/** Writes a scalar, or the opening bracket of a container and returns its frame. */
function openValue(start: unknown, stack: Frame[], open: Set<object>, out: string[]): Frame | null {
  let value = start;
  // toJSON (a Date, a Money class) is applied to objects, not arrays, as JSON.stringify does.
  while (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  if (value === null || typeof value === 'boolean' || typeof value === 'string') {
    out.push(JSON.stringify(value));
    return null;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${pathOf(stack)} is not a finite number`);
    out.push(JSON.stringify(value));
    return null;
  }
  if (typeof value === 'object') {
    if (open.has(value)) throw new TypeError(`canonicalJson: ${pathOf(stack)} refers to a container around it (a cycle)`);
    if (Array.isArray(value)) {
      out.push('[');
      return { kind: 'array', container: value, items: value, index: 0 };
    }
    const source = value as Record<string, unknown>;
    const keys = Object.keys(source)
      .filter((key) => source[key] !== undefined)
      .sort();
    out.push('{');
    return { kind: 'object', container: value, source, keys, index: 0 };
  }
  throw new TypeError(`canonicalJson: ${pathOf(stack)} has type ${typeof value}, which is not JSON`);
}

function close(stack: Frame[], open: Set<object>): void {
  const frame = stack.pop()!;
  open.delete(frame.container);
}

/** `$.a[2].b`: the path of the value being written, rebuilt from the stack only for an error. */
function pathOf(stack: Frame[]): string {
  let path = '$';
  for (const frame of stack) path += frame.kind === 'array' ? `[${frame.index - 1}]` : `.${frame.keys[frame.index - 1]}`;
  return path;
}
