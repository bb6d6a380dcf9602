/**
 * Checksums of bank identifiers (DECISIONS.md section 1b): ABA routing numbers, IBANs (mod 97)
 * and Mexican CLABEs. Builders produce valid identifiers from digits; validators check shape and
 * checksum.
 */
const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1];

/** Valid first two digits of an ABA routing number (Federal Reserve districts, thrifts, Treasury). */
function isAbaPrefix(prefix: number): boolean {
  return (prefix >= 0 && prefix <= 12) || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
}

export function isValidAbaRoutingNumber(text: string): boolean {
  if (!/^\d{9}$/.test(text) || !isAbaPrefix(Number(text.slice(0, 2)))) return false;
  const sum = [...text].reduce((total, digit, index) => total + Number(digit) * ABA_WEIGHTS[index], 0);
  return sum % 10 === 0;
}

/** The routing number whose first eight digits are `eightDigits`, with its check digit. */
export function abaRoutingNumber(eightDigits: string): string {
  if (!/^\d{8}$/.test(eightDigits)) throw new Error('Expected eight digits');
  const partial = [...eightDigits].reduce((total, digit, index) => total + Number(digit) * ABA_WEIGHTS[index], 0);
  return `${eightDigits}${(10 - (partial % 10)) % 10}`;
}

/** ISO 13616 lengths for the countries a sandbox client is likely to use; others by shape only. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AT: 20, BE: 16, CH: 21, DE: 22, DK: 18, ES: 24, FI: 18, FR: 27, GB: 22, IE: 22, IT: 27, LU: 20, NL: 18, NO: 15, PL: 28, PT: 25, SE: 24,
};

function ibanRemainder(rearranged: string): number {
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    const digits = code >= 65 ? String(code - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

export function isValidIban(text: string): boolean {
  const iban = text.replace(/ /g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const expectedLength = IBAN_LENGTHS[iban.slice(0, 2)];
  if (expectedLength !== undefined && iban.length !== expectedLength) return false;
  return ibanRemainder(`${iban.slice(4)}${iban.slice(0, 4)}`) === 1;
}

/** An IBAN for `countryCode` and `bban` with its mod-97 check digits. */
export function iban(countryCode: string, bban: string): string {
  const check = 98 - ibanRemainder(`${bban}${countryCode}00`);
  return `${countryCode}${String(check).padStart(2, '0')}${bban}`;
}

const CLABE_WEIGHTS = [3, 7, 1];

function clabeCheckDigit(seventeenDigits: string): number {
  const sum = [...seventeenDigits].reduce((total, digit, index) => total + ((Number(digit) * CLABE_WEIGHTS[index % 3]) % 10), 0);
  return (10 - (sum % 10)) % 10;
}

export function isValidClabe(text: string): boolean {
  return /^\d{18}$/.test(text) && clabeCheckDigit(text.slice(0, 17)) === Number(text[17]);
}

export function clabe(seventeenDigits: string): string {
  if (!/^\d{17}$/.test(seventeenDigits)) throw new Error('Expected seventeen digits');
  return `${seventeenDigits}${clabeCheckDigit(seventeenDigits)}`;
}
