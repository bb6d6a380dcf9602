/**
 * A Spark address is the bech32m encoding of a protobuf whose field 1 is the wallet's identity
 * public key (33 bytes, compressed secp256k1). Decoded here rather than through the quotes
 * context's bech32 (quotes depend on accounts, not the other way round).
 */
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
const BECH32M_CONSTANT = 0x2bc830a3;

function polymod(values: number[]): number {
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let bit = 0; bit < 5; bit += 1) if ((top >>> bit) & 1) checksum ^= GENERATORS[bit];
  }
  return checksum >>> 0;
}

/** The 5-bit words of a bech32m string after its checksum is verified. */
function bech32mWords(text: string): number[] {
  const lower = text.toLowerCase();
  if (text !== lower && text !== text.toUpperCase()) throw new Error('mixed case');
  const separator = lower.lastIndexOf('1');
  if (separator < 1 || separator + 7 > lower.length) throw new Error('no data part');
  const prefix = lower.slice(0, separator);
  const words = [...lower.slice(separator + 1)].map((char) => CHARSET.indexOf(char));
  if (words.some((word) => word < 0)) throw new Error('not bech32');
  const expanded = [...[...prefix].map((char) => char.charCodeAt(0) >> 5), 0, ...[...prefix].map((char) => char.charCodeAt(0) & 31)];
  if (polymod([...expanded, ...words]) !== BECH32M_CONSTANT) throw new Error('bad checksum');
  return words.slice(0, -6);
}

/** 5-bit words to bytes (trailing padding bits dropped). */
function toBytes(words: number[]): Uint8Array {
  const bytes: number[] = [];
  let accumulator = 0;
  let bits = 0;
  for (const word of words) {
    accumulator = ((accumulator << 5) | word) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((accumulator >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

/** The identity public key a Spark address carries; throws for anything else. */
export function sparkIdentityKey(address: string): Uint8Array {
  const payload = toBytes(bech32mWords(address));
  if (payload.length < 35 || payload[0] !== 0x0a || payload[1] !== 33) throw new Error('not a Spark address');
  return payload.subarray(2, 35);
}
