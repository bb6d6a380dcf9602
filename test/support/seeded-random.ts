/**
 * A small seeded generator for property-style specs: every run checks the same cases, and a
 * failing case prints the seed and index that reproduce it.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform in [0, 1). */
  next(): number {
    // mulberry32
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }

  integer(minInclusive: number, maxInclusive: number): number {
    return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.integer(0, items.length - 1)];
  }

  /** Log-uniform integer in [1, max]: small and huge amounts are both common. */
  amount(max: number): number {
    const exponent = this.next() * Math.log10(max);
    return Math.max(1, Math.min(max, Math.floor(10 ** exponent)));
  }
}
