import { createHash, randomBytes } from 'node:crypto';

/**
 * Device codes and access tokens (docs/agents.md). Both are answered once and stored only as
 * sha256 hashes: a leaked event store or read model gives no usable credential. sha256 without a
 * salt is enough for secrets this random (no dictionary to try), and lets a lookup by hash find them.
 */

/** Crockford base32: no I, L, O, U, so a code read aloud or typed is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_FORM = /^AGENT-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** `AGENT-XXXX-XXXX`: 8 symbols of 5 bits, 40 bits of randomness. */
export function newDeviceCode(): string {
  const bytes = randomBytes(5);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let symbols = '';
  for (let index = 0; index < 8; index++) {
    symbols = ALPHABET[Number(bits & 31n)] + symbols;
    bits >>= 5n;
  }
  return `AGENT-${symbols.slice(0, 4)}-${symbols.slice(4)}`;
}

/**
 * The canonical form of a typed code: upper case, and Crockford's readings of the letters left
 * out (O is 0, I and L are 1); null when it cannot be a code (no lookup is made for it).
 */
export function canonicalDeviceCode(typed: string): string | null {
  const upper = typed.trim().toUpperCase();
  if (!upper.startsWith('AGENT-')) return null;
  const canonical = `AGENT-${upper.slice(6).replace(/O/g, '0').replace(/[IL]/g, '1')}`;
  return CODE_FORM.test(canonical) ? canonical : null;
}

/** `gat_` and 40 hex digits (160 bits). */
export function newAccessToken(): string {
  return `gat_${randomBytes(20).toString('hex')}`;
}

export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
