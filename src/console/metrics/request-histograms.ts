/**
 * `http_requests_total` and `http_request_duration_seconds` by route pattern, method and status,
 * recorded without allocating once a label set has been seen (nested maps to a typed array of
 * bucket counts), where prom-client's labelled observe builds and hashes a label object on every
 * call: this is on every request's path.
 */
export class RequestHistograms {
  /** route -> method -> status -> per-bucket counts (not cumulative; the last is +Inf), sum. */
  private readonly series = new Map<string, Map<string, Map<number, { counts: Float64Array; sum: number }>>>();

  constructor(private readonly upperBounds: readonly number[]) {}

  observe(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (!byMethod) this.series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let entry = byStatus.get(status);
    if (!entry) byStatus.set(status, (entry = { counts: new Float64Array(this.upperBounds.length + 1), sum: 0 }));
    const bounds = this.upperBounds;
    let index = 0;
    while (index < bounds.length && seconds > bounds[index]) index++;
    entry.counts[index]++;
    entry.sum += seconds;
  }

  /** Both metrics in the Prometheus text format, newline-terminated. */
  exposition(): string {
    const counter = ['# HELP http_requests_total HTTP requests answered, by route pattern, method and status.', '# TYPE http_requests_total counter'];
    const histogram = [
      '# HELP http_request_duration_seconds Time from the request reaching the service to its answer being sent.',
      '# TYPE http_request_duration_seconds histogram',
    ];
    for (const [route, byMethod] of this.series) {
      for (const [method, byStatus] of byMethod) {
        for (const [status, { counts, sum }] of byStatus) {
          const labels = `route="${escapeLabel(route)}",method="${escapeLabel(method)}",status="${status}"`;
          const total = counts.reduce((all, count) => all + count, 0);
          counter.push(`http_requests_total{${labels}} ${total}`);
          let cumulative = 0;
          this.upperBounds.forEach((bound, index) => {
            cumulative += counts[index];
            histogram.push(`http_request_duration_seconds_bucket{${labels},le="${bound}"} ${cumulative}`);
          });
          histogram.push(
            `http_request_duration_seconds_bucket{${labels},le="+Inf"} ${total}`,
            `http_request_duration_seconds_sum{${labels}} ${sum}`,
            `http_request_duration_seconds_count{${labels}} ${total}`,
          );
        }
      }
    }
    return `${counter.join('\n')}\n${histogram.join('\n')}\n`;
  }
}

/** The text format's label value escapes: backslash, double quote, newline. */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
