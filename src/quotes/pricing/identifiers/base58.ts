import { createHash } from 'node:crypto';

/** Base58 (Bitcoin alphabet) and Base58Check, as Solana and Tron addresses use them. */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58Encode(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

export function base58Decode(text: string): Uint8Array | null {
  if (text.length === 0) return null;
  let value = 0n;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  for (const char of text) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

function doubleSha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
}

export function base58CheckEncode(payload: Uint8Array): string {
  const checksum = doubleSha256(payload).subarray(0, 4);
  return base58Encode(Uint8Array.from([...payload, ...checksum]));
}

export function base58CheckDecode(text: string): Uint8Array | null {
  const bytes = base58Decode(text);
  if (!bytes || bytes.length < 5) return null;
  const payload = bytes.subarray(0, bytes.length - 4);
  const checksum = doubleSha256(payload).subarray(0, 4);
  return Buffer.compare(Buffer.from(checksum), Buffer.from(bytes.subarray(bytes.length - 4))) === 0 ? payload : null;
}
