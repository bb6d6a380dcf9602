import { createHash } from 'node:crypto';

/**
 * The sandbox card processor's full card details, shown only on the reveal page
 * (docs/cards.md "Reveal"). They are derived from the card id each time the page renders, so the
 * full number is never stored, in an event or a row: the same card always shows the same values.
 * Test values, not secrets: anyone who knows a sandbox card id can derive them.
 */
export interface SandboxCardSecrets {
  /** 16 digits, Luhn-valid, ending in the card's `last4`. */
  pan: string;
  /** 3 digits. */
  cvv: string;
}

/** A Visa-range test BIN: no real issuer's card starts with it in the sandbox. */
const SANDBOX_BIN = '400000';
/** The one digit of the 16 chosen to make the number pass Luhn: the last four are the card's, fixed. */
const CHECK_ADJUST_INDEX = 11;

export function sandboxCardSecrets(cardId: string, last4: string): SandboxCardSecrets {
  if (!/^\d{4}$/.test(last4)) throw new Error('last4 must be four digits');
  const middle = digitsFrom(`sandbox-card-pan-middle:${cardId}`, CHECK_ADJUST_INDEX - SANDBOX_BIN.length);
  const withoutAdjust = `${SANDBOX_BIN}${middle}0${last4}`;
  const adjust = (10 - (luhnSum(withoutAdjust) % 10)) % 10;
  const pan = `${SANDBOX_BIN}${middle}${adjust}${last4}`;
  return { pan, cvv: digitsFrom(`sandbox-card-cvv:${cardId}`, 3) };
}

/** Whether `digits` passes the Luhn check (every card number does). */
export function passesLuhn(digits: string): boolean {
  return /^\d+$/.test(digits) && luhnSum(digits) % 10 === 0;
}

/** `4000 0012 3456 4242`: groups of four, as a card shows it. */
export function groupedPan(pan: string): string {
  return pan.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** `MM/YY`, as a card prints its expiry. */
export function cardExpiry(expMonth: number, expYear: number): string {
  return `${String(expMonth).padStart(2, '0')}/${String(expYear % 100).padStart(2, '0')}`;
}

/**
 * The Luhn sum: from the rightmost digit, every second one doubled (minus 9 past 9). The digit at
 * CHECK_ADJUST_INDEX of a 16-digit number is in an odd position from the right, so it counts as
 * itself and setting it to `(10 - sum % 10) % 10` makes the whole sum a multiple of ten.
 */
function luhnSum(digits: string): number {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    const digit = Number(digits[digits.length - 1 - index]);
    const doubled = index % 2 === 1 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  }
  return sum;
}

/** `count` decimal digits from a SHA-256 of `seed` (one byte each, so up to 32). */
function digitsFrom(seed: string, count: number): string {
  const digest = createHash('sha256').update(seed).digest();
  return Array.from(digest.subarray(0, count), (byte) => String(byte % 10)).join('');
}
