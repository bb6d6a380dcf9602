import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP) and the pieces a TOTP factor needs
 * around them: base32 secrets (RFC 4648, as authenticator apps take them), the `otpauth://`
 * provisioning URI, and recovery codes. Pure functions; randomness comes from the caller.
 */
export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export interface TotpParameters {
  algorithm: TotpAlgorithm;
  digits: number;
  periodSeconds: number;
}

/** What every authenticator app assumes when the URI names nothing else: SHA-1, 6 digits, 30 s. */
export const TOTP_DEFAULTS: TotpParameters = { algorithm: 'sha1', digits: 6, periodSeconds: 30 };

/** RFC 4226 recommends at least 128 bits and 160 bits; SHA-1's block fits 160 bits exactly. */
export const TOTP_SECRET_BYTES = 20;

/** Steps either side of the current one a code may come from (clock drift, typing time). */
export const TOTP_WINDOW_STEPS = 1;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (authenticator apps ignore it, and `=` must be escaped in URIs). */
export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) output += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return output;
}

/**
 * Base32 text as people copy it (any case, spaces, `=` padding) to bytes; null when it holds a
 * character outside the alphabet or leftover bits that are not zero (not what base32Encode makes).
 */
export function base32Decode(text: string): Buffer | null {
  const cleaned = text.replace(/[\s=]/g, '').toUpperCase();
  if (cleaned.length === 0) return null;
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of cleaned) {
    const index = BASE32_ALPHABET.indexOf(char);
    if (index < 0) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  if (bits >= 5 || (value & ((1 << bits) - 1)) !== 0) return null;
  return Buffer.from(bytes);
}

/** The RFC 6238 time step T of an instant: floor(unix seconds / period). */
export function totpTimeStep(unixMs: number, periodSeconds = TOTP_DEFAULTS.periodSeconds): number {
  return Math.floor(unixMs / 1000 / periodSeconds);
}

/** RFC 4226 HOTP of `counter` (the time step for TOTP), zero-padded to `digits`. */
export function hotp(secret: Buffer, counter: number, parameters: Pick<TotpParameters, 'algorithm' | 'digits'> = TOTP_DEFAULTS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac(parameters.algorithm, secret).update(message).digest();
  // Dynamic truncation (RFC 4226 section 5.3).
  const offset = digest[digest.length - 1] & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** parameters.digits).padStart(parameters.digits, '0');
}

/** The TOTP code at an instant. */
export function totpAt(secret: Buffer, unixMs: number, parameters: TotpParameters = TOTP_DEFAULTS): string {
  return hotp(secret, totpTimeStep(unixMs, parameters.periodSeconds), parameters);
}

/**
 * The time step whose code `code` is, within `windowSteps` of the step of `unixMs` (the current
 * one first); null when none matches. Callers refuse a step not after the last one accepted
 * (RFC 6238 section 5.2: a code is accepted once).
 */
export function matchTotp(secret: Buffer, code: string, unixMs: number, windowSteps = TOTP_WINDOW_STEPS, parameters: TotpParameters = TOTP_DEFAULTS): number | null {
  if (!new RegExp(`^\\d{${parameters.digits}}$`).test(code)) return null;
  const now = totpTimeStep(unixMs, parameters.periodSeconds);
  const candidates = [now];
  for (let distance = 1; distance <= windowSteps; distance++) candidates.push(now - distance, now + distance);
  for (const step of candidates) {
    if (step >= 0 && timingSafeEqual(Buffer.from(hotp(secret, step, parameters)), Buffer.from(code))) return step;
  }
  return null;
}

/**
 * The provisioning URI authenticator apps scan (Key Uri Format): `otpauth://totp/<issuer>:<label>`
 * with `secret` and `issuer`; algorithm, digits and period are the defaults, so not named.
 */
export function totpUri(input: { issuer: string; label: string; secretBase32: string }): string {
  const issuer = encodeURIComponent(input.issuer);
  return `otpauth://totp/${issuer}:${encodeURIComponent(input.label)}?secret=${input.secretBase32}&issuer=${issuer}`;
}

/** Recovery codes: base32 characters in three groups of four (60 bits each), `ABCD-EFGH-IJKL`. */
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_CODE_BYTES = 8;
const RECOVERY_CODE_CHARACTERS = 12;

/** A recovery code from random bytes (at least 8; the first 60 bits are used). */
export function recoveryCodeFrom(random: Buffer): string {
  if (random.length < RECOVERY_CODE_BYTES) throw new Error(`a recovery code needs ${RECOVERY_CODE_BYTES} random bytes`);
  const characters = base32Encode(random.subarray(0, RECOVERY_CODE_BYTES)).slice(0, RECOVERY_CODE_CHARACTERS);
  return characters.match(/.{4}/g)!.join('-');
}

/** A recovery code as typed (any case, with or without dashes and spaces) in its one form; null when it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | null {
  const cleaned = typed.replace(/[\s-]/g, '').toUpperCase();
  return new RegExp(`^[A-Z2-7]{${RECOVERY_CODE_CHARACTERS}}$`).test(cleaned) ? cleaned : null;
}

/** What is kept of a recovery code: SHA-256 of its normal form (60 random bits: no salt or stretching needed against guessing). */
export function recoveryCodeHash(typed: string): string | null {
  const normal = normalizeRecoveryCode(typed);
  return normal === null ? null : createHash('sha256').update(normal, 'utf8').digest('hex');
}

/** What binds a confirmation to its enrollment: SHA-256 of the secret's bytes (the secret itself is sealed). */
export function totpSecretDigest(secret: Buffer): string {
  return createHash('sha256').update(secret).digest('hex');
}
