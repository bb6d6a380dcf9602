import { ceil, floor, fromNumber, parseDecimal, ratio, roundHalfEven, toSignificant } from './exact';

describe('exact arithmetic', () => {
  it('rounds down, up and half-even on negative and positive values', () => {
    expect(floor(ratio(7n, 2n))).toBe(3n);
    expect(floor(ratio(-7n, 2n))).toBe(-4n);
    expect(ceil(ratio(7n, 2n))).toBe(4n);
    expect(roundHalfEven(ratio(5n, 2n))).toBe(2n);
    expect(roundHalfEven(ratio(7n, 2n))).toBe(4n);
    expect(roundHalfEven(ratio(26n, 10n))).toBe(3n);
    expect(roundHalfEven(ratio(24n, 10n))).toBe(2n);
  });

  it('reads decimal text and JS numbers exactly', () => {
    expect(parseDecimal('1.08')).toEqual({ n: 108n, d: 100n });
    expect(parseDecimal('1e-7')).toEqual({ n: 1n, d: 10_000_000n });
    expect(parseDecimal('2.5E3')).toEqual({ n: 2500n, d: 1n });
    expect(fromNumber(0.1 + 0.2)).toEqual({ n: 30000000000000004n, d: 100000000000000000n });
    expect(() => parseDecimal('abc')).toThrow();
  });

  it('formats significant digits without exponents', () => {
    expect(toSignificant(ratio(1n, 3n), 5)).toBe('0.33333');
    expect(toSignificant(ratio(2n, 3n), 5)).toBe('0.66667');
    expect(toSignificant(ratio(2n, 3n), 5, 'floor')).toBe('0.66666');
    expect(toSignificant(ratio(123456789n), 3)).toBe('123000000');
    expect(toSignificant(ratio(999999n, 1n), 3)).toBe('1000000');
    expect(toSignificant(parseDecimal('0.0000000115'), 15)).toBe('0.0000000115');
    expect(toSignificant(ratio(1n), 15)).toBe('1');
  });
});
