/**
 * A small, strict CBOR (RFC 8949) decoder: enough to read WebAuthn attestation objects before
 * handing them to @simplewebauthn/server, so that each failed check gets its own reason. Definite
 * lengths only (WebAuthn's CTAP2 canonical form has no indefinite ones); nesting is bounded.
 * Maps decode to Map (keys may be integers), byte strings to Buffer, integers beyond 2^53 to bigint.
 */

export type CborValue = number | bigint | string | boolean | null | undefined | Buffer | CborValue[] | Map<CborValue, CborValue>;

const MAX_DEPTH = 16;

export class CborError extends Error {}

/** Decodes exactly one item that must span the whole input. */
export function decodeCbor(bytes: Uint8Array): CborValue {
  const { value, next } = decodeCborPrefix(bytes, 0);
  if (next !== bytes.length) throw new CborError('trailing bytes after the CBOR item');
  return value;
}

/** Decodes one item starting at offset and says where it ends (authenticator data holds a COSE key then extensions). */
export function decodeCborPrefix(bytes: Uint8Array, offset: number): { value: CborValue; next: number } {
  const reader = new Reader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset);
  const value = reader.item(0);
  return { value, next: reader.offset };
}

class Reader {
  constructor(
    private readonly bytes: Buffer,
    public offset: number,
  ) {}

  item(depth: number): CborValue {
    if (depth > MAX_DEPTH) throw new CborError('CBOR nesting too deep');
    const initial = this.take(1)[0];
    const major = initial >> 5;
    const info = initial & 0x1f;
    if (major === 7) return this.simple(info);
    const argument = this.argument(info);
    switch (major) {
      case 0:
        return toNumber(argument);
      case 1:
        return typeof argument === 'bigint' ? -1n - argument : -1 - argument;
      case 2:
        return Buffer.from(this.take(this.length(argument)));
      case 3:
        return this.text(this.length(argument));
      case 4: {
        const count = this.length(argument);
        const items: CborValue[] = [];
        for (let index = 0; index < count; index++) items.push(this.item(depth + 1));
        return items;
      }
      default: {
        const count = this.length(argument);
        const map = new Map<CborValue, CborValue>();
        for (let index = 0; index < count; index++) {
          const key = this.item(depth + 1);
          if (map.has(key)) throw new CborError('duplicate CBOR map key');
          map.set(key, this.item(depth + 1));
        }
        return map;
      }
    }
  }

  private argument(info: number): number | bigint {
    if (info < 24) return info;
    if (info === 24) return this.take(1)[0];
    if (info === 25) return this.take(2).readUInt16BE(0);
    if (info === 26) return this.take(4).readUInt32BE(0);
    if (info === 27) return this.take(8).readBigUInt64BE(0);
    throw new CborError('indefinite or reserved CBOR length');
  }

  private simple(info: number): CborValue {
    if (info === 20) return false;
    if (info === 21) return true;
    if (info === 22) return null;
    if (info === 23) return undefined;
    throw new CborError('unsupported CBOR simple value or float');
  }

  private length(argument: number | bigint): number {
    if (typeof argument === 'bigint' || argument > this.bytes.length - this.offset) throw new CborError('CBOR length beyond the input');
    return argument;
  }

  private text(length: number): string {
    const bytes = this.take(length);
    const text = bytes.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(bytes)) throw new CborError('CBOR text is not valid UTF-8');
    return text;
  }

  private take(count: number): Buffer {
    if (this.offset + count > this.bytes.length) throw new CborError('CBOR input ends early');
    const slice = this.bytes.subarray(this.offset, this.offset + count);
    this.offset += count;
    return slice;
  }
}

function toNumber(argument: number | bigint): number | bigint {
  return typeof argument === 'bigint' && argument <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(argument) : argument;
}

/**
 * The matching minimal encoder (integers, text, byte strings, maps in insertion order): what a
 * software authenticator needs to write COSE keys and attestation objects.
 */
export function encodeCbor(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return Buffer.concat([encodeHead(2, value.length), value]);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([encodeHead(3, bytes.length), bytes]);
  }
  if (typeof value === 'number' && Number.isInteger(value)) return value >= 0 ? encodeHead(0, value) : encodeHead(1, -1 - value);
  if (value instanceof Map) {
    const parts = [encodeHead(5, value.size)];
    for (const [key, item] of value) parts.push(encodeCbor(key), encodeCbor(item));
    return Buffer.concat(parts);
  }
  throw new CborError(`encodeCbor: unsupported value ${String(value)}`);
}

function encodeHead(major: number, argument: number): Buffer {
  if (argument < 24) return Buffer.from([(major << 5) | argument]);
  if (argument < 0x100) return Buffer.from([(major << 5) | 24, argument]);
  if (argument < 0x10000) return Buffer.from([(major << 5) | 25, argument >> 8, argument & 0xff]);
  const bytes = Buffer.alloc(5);
  bytes[0] = (major << 5) | 26;
  bytes.writeUInt32BE(argument, 1);
  return bytes;
}
