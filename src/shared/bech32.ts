/**
 * Bech32 (BIP-173) and Bech32m (BIP-350) without the 90-character limit, which Lightning
 * invoices exceed. Data is handled as 5-bit words.
 */
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
const BECH32_CONSTANT = 1;
const BECH32M_CONSTANT = 0x2bc830a3;

export type Bech32Variant = 'bech32' | 'bech32m';

function polymod(values: number[]): number {
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let bit = 0; bit < 5; bit += 1) if ((top >>> bit) & 1) checksum ^= GENERATORS[bit];
  }
  return checksum >>> 0;
}

function expandPrefix(prefix: string): number[] {
  const high = [...prefix].map((char) => char.charCodeAt(0) >> 5);
  const low = [...prefix].map((char) => char.charCodeAt(0) & 31);
  return [...high, 0, ...low];
}

function constantOf(variant: Bech32Variant): number {
  return variant === 'bech32' ? BECH32_CONSTANT : BECH32M_CONSTANT;
}

export function bech32Encode(prefix: string, words: number[], variant: Bech32Variant): string {
  const values = [...expandPrefix(prefix), ...words, 0, 0, 0, 0, 0, 0];
  const mod = polymod(values) ^ constantOf(variant);
  const checksum = Array.from({ length: 6 }, (_, index) => (mod >>> (5 * (5 - index))) & 31);
  return `${prefix}1${[...words, ...checksum].map((word) => CHARSET[word]).join('')}`;
}

/** Decodes and verifies the checksum; null when malformed, mixed-case or the wrong variant. */
export function bech32Decode(text: string, variant: Bech32Variant): { prefix: string; words: number[] } | null {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return null;
  const lower = text.toLowerCase();
  const separator = lower.lastIndexOf('1');
  if (separator < 1 || separator + 7 > lower.length) return null;
  const prefix = lower.slice(0, separator);
  if (![...prefix].every((char) => char.charCodeAt(0) >= 33 && char.charCodeAt(0) <= 126)) return null;
  const words: number[] = [];
  for (const char of lower.slice(separator + 1)) {
    const word = CHARSET.indexOf(char);
    if (word < 0) return null;
    words.push(word);
  }
  if (polymod([...expandPrefix(prefix), ...words]) !== constantOf(variant)) return null;
  return { prefix, words: words.slice(0, -6) };
}

/** Regroups bits (8 -> 5 with padding, or 5 -> 8 strictly); null when the padding is invalid. */
export function convertBits(data: ArrayLike<number>, fromBits: number, toBits: number, pad: boolean): number[] | null {
  let accumulator = 0;
  let bits = 0;
  const result: number[] = [];
  const maxValue = (1 << toBits) - 1;
  for (let index = 0; index < data.length; index += 1) {
    accumulator = (accumulator << fromBits) | data[index];
    bits += fromBits;
    while (bits >= toBits) {
      bits -= toBits;
      result.push((accumulator >>> bits) & maxValue);
    }
    accumulator &= (1 << bits) - 1;
  }
  if (pad) {
    if (bits > 0) result.push((accumulator << (toBits - bits)) & maxValue);
  } else if (bits >= fromBits || ((accumulator << (toBits - bits)) & maxValue) !== 0) {
    return null;
  }
  return result;
}

export function toWords(bytes: Uint8Array): number[] {
  return convertBits(bytes, 8, 5, true)!;
}

export function fromWords(words: number[]): Uint8Array | null {
  const bytes = convertBits(words, 5, 8, false);
  return bytes ? Uint8Array.from(bytes) : null;
}
