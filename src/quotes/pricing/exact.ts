/**
 * Exact rational arithmetic on BigInt for money and rates. Amounts are integers in minor units;
 * rates and fee rates are decimals. Floats never touch an amount: a rate given as a JS number is
 * read through its shortest decimal text, which is exactly what the client sees in JSON.
 */
export interface Ratio {
  /** Numerator (any sign). */
  readonly n: bigint;
  /** Denominator, always > 0. */
  readonly d: bigint;
}

export const ZERO: Ratio = { n: 0n, d: 1n };
export const ONE: Ratio = { n: 1n, d: 1n };

export function ratio(n: bigint, d: bigint = 1n): Ratio {
  if (d === 0n) throw new Error('Division by zero');
  if (d < 0n) return { n: -n, d: -d };
  return { n, d };
}

export function integer(value: bigint | number): Ratio {
  return { n: BigInt(value), d: 1n };
}

export function multiply(a: Ratio, b: Ratio): Ratio {
  return ratio(a.n * b.n, a.d * b.d);
}

export function divide(a: Ratio, b: Ratio): Ratio {
  return ratio(a.n * b.d, a.d * b.n);
}

export function add(a: Ratio, b: Ratio): Ratio {
  return ratio(a.n * b.d + b.n * a.d, a.d * b.d);
}

export function subtract(a: Ratio, b: Ratio): Ratio {
  return ratio(a.n * b.d - b.n * a.d, a.d * b.d);
}

export function compare(a: Ratio, b: Ratio): number {
  const left = a.n * b.d;
  const right = b.n * a.d;
  return left < right ? -1 : left > right ? 1 : 0;
}

export function pow10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

/** Largest integer <= value. */
export function floor(value: Ratio): bigint {
  const quotient = value.n / value.d;
  return value.n < 0n && quotient * value.d !== value.n ? quotient - 1n : quotient;
}

/** Smallest integer >= value. */
export function ceil(value: Ratio): bigint {
  return -floor({ n: -value.n, d: value.d });
}

/** Nearest integer, ties to even (banker's rounding, as the production service rounds fees). */
export function roundHalfEven(value: Ratio): bigint {
  const down = floor(value);
  const remainder = subtract(value, integer(down));
  const twice = compare(multiply(remainder, integer(2)), ONE);
  if (twice < 0) return down;
  if (twice > 0) return down + 1n;
  return down % 2n === 0n ? down : down + 1n;
}

const DECIMAL_TEXT = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Exact value of a decimal text such as `1.08`, `0.0005` or `1e-7`. */
export function parseDecimal(text: string): Ratio {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) throw new Error(`Not a decimal number: ${text}`);
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  let numerator = BigInt(whole + fraction);
  if (sign === '-') numerator = -numerator;
  return exponent >= 0 ? ratio(numerator * pow10(exponent)) : ratio(numerator, pow10(-exponent));
}

/** Exact value of the decimal a JS number prints as (its shortest round-trip text). */
export function fromNumber(value: number): Ratio {
  if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
  return parseDecimal(String(value));
}

/**
 * Plain decimal text (no exponent) of `value` rounded to `digits` significant digits, towards
 * zero when `mode` is 'floor' (values here are positive), else half-even. Trailing zeros dropped.
 */
export function toSignificant(value: Ratio, digits: number, mode: 'floor' | 'halfEven' = 'halfEven'): string {
  if (value.n <= 0n) throw new Error('toSignificant expects a positive value');
  // Position of the leading digit: value in [10^e, 10^(e+1)).
  let exponent = value.n / value.d > 0n ? String(value.n / value.d).length - 1 : -1;
  if (exponent < 0) {
    while (compare(multiply(value, integer(pow10(-exponent))), ONE) < 0) exponent -= 1;
  }
  const scale = digits - 1 - exponent;
  const scaled = scale >= 0 ? multiply(value, integer(pow10(scale))) : divide(value, integer(pow10(-scale)));
  let mantissa = mode === 'floor' ? floor(scaled) : roundHalfEven(scaled);
  let effectiveScale = scale;
  if (String(mantissa).length > digits) {
    mantissa /= 10n;
    effectiveScale -= 1;
  }
  return formatScaled(mantissa, effectiveScale);
}

/** Decimal text of mantissa / 10^scale without exponent or trailing zeros. */
export function formatScaled(mantissa: bigint, scale: number): string {
  if (scale <= 0) return String(mantissa * pow10(-scale));
  const negative = mantissa < 0n;
  const digitsText = String(negative ? -mantissa : mantissa).padStart(scale + 1, '0');
  const whole = digitsText.slice(0, digitsText.length - scale);
  const fraction = digitsText.slice(digitsText.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A JS number for an informational figure (multipliers); never used for amounts. */
export function toApproximateNumber(value: Ratio): number {
  return Number(toSignificant(value, 17));
}
