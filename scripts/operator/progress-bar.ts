/**
 * A progress bar on stderr: redrawn in place on a terminal (at most every 100 ms), one plain line
 * every few seconds otherwise (logs, CI), so stdout keeps only the results.
 */
export class ProgressBar {
  private readonly startedMs = Date.now();
  /** On a terminal the bar shows at once; in logs the first line waits for the first interval. */
  private lastDrawMs: number;
  private drawn = false;

  constructor(
    private readonly stream: { write(text: string): unknown; isTTY?: boolean; columns?: number },
    private readonly label: string,
  ) {
    this.lastDrawMs = stream.isTTY ? 0 : this.startedMs;
  }

  update(fraction: number, events: number, force = false): void {
    const now = Date.now();
    const interval = this.stream.isTTY ? 100 : 3000;
    if (!force && now - this.lastDrawMs < interval) return;
    this.lastDrawMs = now;
    const seconds = Math.max(0.001, (now - this.startedMs) / 1000);
    const percent = Math.floor(Math.max(0, Math.min(1, fraction)) * 100);
    const rate = Math.round(events / seconds).toLocaleString('en-US');
    const counts = `${String(percent).padStart(3)}%  ${events.toLocaleString('en-US')} events  ${rate} events/s`;
    if (this.stream.isTTY) {
      const width = Math.max(10, Math.min(40, (this.stream.columns ?? 80) - this.label.length - counts.length - 6));
      const filled = Math.round((percent / 100) * width);
      this.stream.write(`\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counts}`);
      this.drawn = true;
    } else {
      this.stream.write(`${this.label}: ${counts}\n`);
    }
  }

  /** Draws the final state and ends the line. */
  finish(events: number): void {
    this.update(1, events, true);
    if (this.drawn) this.stream.write('\n');
  }
}
