import { Pool } from 'pg';
import { Position, comparePositions } from '../event-store/event-store.port';
import { logger } from '../logger';
import { Listening, listenOn } from '../postgres/listen';
import { PROJECTIONS_ADVANCED_CHANNEL, PROJECTIONS_PROGRESS_SQL } from './checkpoints';
import { PositionWaits } from './position-waits';
import { ReadModelWaiter } from './read-model-waiter';

/** Fallback re-read of the checkpoints while requests wait: covers a lost NOTIFY or LISTEN connection. */
export const NOTIFIED_WAITER_FALLBACK_POLL_MS = 250;

/**
 * Read-your-writes where the projector runs in another process (an api process without the
 * projector role). The projector NOTIFYs PROJECTIONS_ADVANCED_CHANNEL in every
 * batch transaction; this process LISTENs on one connection and, on each notification, reads the
 * projections' progress once for every waiting request (one read in flight, one more queued at
 * most). A wait starts from the last progress read, so a batch that committed before the request
 * began waiting answers at once. While requests wait, the progress is also re-read every
 * `fallbackPollMs`, so a lost notification or a broken LISTEN connection costs latency only.
 * Against polling the checkpoints every 5 ms per waiting request: 722 checkpoint reads in a 15 s
 * run instead of 17,710, and 136-167 flows/s instead of 94 in the split layout (bench/RESULTS.md,
 * "Analysis: quote flows after the 2026-11-22 midday session").
 */
export class NotifiedReadModelWaiter implements ReadModelWaiter {
  private readonly waiting = new PositionWaits();
  private progress: Position | null = null;
  /** No projection row at the last read: nothing to wait for. */
  private nothingToWaitFor = false;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private listener: Listening | null = null;
  private connecting: Promise<void> | null = null;
  private fallback: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly fallbackPollMs = NOTIFIED_WAITER_FALLBACK_POLL_MS,
  ) {}

  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (this.reached(position)) return Promise.resolve(true);
    const reached = this.waiting.wait(position, timeoutMs);
    if (this.listener === null) {
      // Not listening yet (first wait, or the connection was lost): listen, then read once, so
      // a batch that committed before LISTEN took effect is not missed.
      void this.listen().then(() => this.readProgress());
    }
    this.armFallback();
    return reached;
  }

  /** Stops listening and answers every pending wait with false. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.fallback) clearTimeout(this.fallback);
    this.fallback = null;
    this.waiting.cancelAll();
    await this.connecting;
    const listener = this.listener;
    this.listener = null;
    listener?.drop();
  }

  private reached(position: Position): boolean {
    return this.nothingToWaitFor || (this.progress !== null && comparePositions(this.progress, position) >= 0);
  }

  private listen(): Promise<void> {
    if (this.closed || this.listener !== null) return Promise.resolve();
    this.connecting ??= (async () => {
      try {
        const listening: Listening = await listenOn(
          this.pool,
          PROJECTIONS_ADVANCED_CHANNEL,
          () => this.readProgress(),
          () => {
            // The next wait or fallback tick listens again.
            if (this.listener === listening) this.listener = null;
          },
        );
        if (this.closed) {
          listening.drop();
          return;
        }
        this.listener = listening;
      } catch (error) {
        logger.warn('read-your-writes waiter cannot LISTEN; re-reading its progress every few hundred ms until it can', { error: String(error) });
      }
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /** Re-reads the progress while requests wait, in case a notification never comes. */
  private armFallback(): void {
    if (this.fallback !== null || this.closed) return;
    this.fallback = setTimeout(() => {
      this.fallback = null;
      if (this.waiting.size === 0) return;
      if (this.listener === null) void this.listen();
      this.readProgress();
      this.armFallback();
    }, this.fallbackPollMs);
  }

  /** One read of the projections' progress at a time; a request for another while one runs queues one. */
  private readProgress(): void {
    if (this.waiting.size === 0 || this.closed) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = (async () => {
      try {
        const result = await this.pool.query<{ c: string; p: string }>(PROJECTIONS_PROGRESS_SQL);
        const row = result.rows[0];
        this.nothingToWaitFor = !row;
        // The latest read, even when lower: a projection that recovered from a failure is waited for again.
        this.progress = row ? { commit: BigInt(row.c), prepare: BigInt(row.p) } : null;
        this.waiting.resolveWhere((position) => this.reached(position));
      } catch (error) {
        if (!this.closed) logger.warn('read-your-writes waiter could not read the projections progress', { error: String(error) });
      }
    })().finally(() => {
      this.reading = null;
      if (this.readAgain) {
        this.readAgain = false;
        this.readProgress();
      }
    });
  }
}
