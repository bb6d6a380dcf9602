/**
 * A histogram without labels whose `observe` allocates nothing (one typed array of bucket counts
 * and two sums), for hot paths such as the event store's append, where prom-client's observe
 * (label objects, hashing, a closure per call) would cost on every call. Rendered in the
 * Prometheus text format beside the registry's metrics.
 */
export class FixedHistogram {
  /** Per bucket, not cumulative; the last one is +Inf. */
  private readonly counts: Float64Array;
  private sum = 0;
  private count = 0;

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly upperBounds: readonly number[],
  ) {
    this.counts = new Float64Array(upperBounds.length + 1);
  }

  observe(value: number): void {
    const bounds = this.upperBounds;
    let index = 0;
    while (index < bounds.length && value > bounds[index]) index++;
    this.counts[index]++;
    this.sum += value;
    this.count++;
  }

  /** `# HELP`, `# TYPE`, the cumulative buckets, `_sum` and `_count`, newline-terminated. */
  exposition(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    let cumulative = 0;
    this.upperBounds.forEach((bound, index) => {
      cumulative += this.counts[index];
      lines.push(`${this.name}_bucket{le="${bound}"} ${cumulative}`);
    });
    lines.push(`${this.name}_bucket{le="+Inf"} ${this.count}`, `${this.name}_sum ${this.sum}`, `${this.name}_count ${this.count}`);
    return `${lines.join('\n')}\n`;
  }
}
