import { createHash } from 'node:crypto';

const BASE64URL_ALPHABET = /^[A-Za-z0-9_-]*$/;
const HEX_ALPHABET = /^(?:[0-9a-fA-F]{2})*$/;

/**
 * Decodes unpadded base64url, or answers null. Node's own decoder silently skips characters
 * outside the alphabet, so garbage would decode to "something"; the alphabet is checked first and
 * the text must re-encode to itself (which also refuses impossible lengths and stray trailing bits).
 */
export function decodeBase64UrlStrict(text: unknown): Buffer | null {
  if (typeof text !== 'string' || !BASE64URL_ALPHABET.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}

/** Decodes hex of either case, or answers null (odd length, other characters, not a string). */
export function decodeHexStrict(text: unknown): Buffer | null {
  if (typeof text !== 'string' || !HEX_ALPHABET.test(text)) return null;
  return Buffer.from(text, 'hex');
}

export function sha256(data: string | Uint8Array): Buffer {
  return createHash('sha256').update(typeof data === 'string' ? Buffer.from(data, 'utf8') : data).digest();
}

/** Lowercase hex SHA-256; strings are hashed as their UTF-8 bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return sha256(data).toString('hex');
}

/** Parses JSON text into a plain object, or answers null (arrays and primitives are not objects here). */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
