import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { logger } from '../../infra/logger';
import { runWithContext } from '../../infra/request-context';
import { isExpiredAt } from '../domain/quote/quote.decider';
import { QuoteStore } from '../quote-store';
import { QuoteSettlementService } from './quote-settlement.service';

/** Due quotes read per query; a full batch is followed by the next one straight away. */
const BATCH_SIZE = 100;
/** Expiries of one batch in flight at once (each is a stream read and an append). */
const CONCURRENCY = 8;
/** A quote the stream does not let expire yet is left alone this long first, doubling each time. */
const DEFER_FIRST_MS = 1000;
const DEFER_MAX_MS = 10_000;
/** Bound on the quotes remembered as deferred (the oldest are forgotten first). */
const DEFER_LIMIT = 10_000;
/** Longest pause between two sweeps while the sweep keeps failing (e.g. the database is down). */
const FAILURE_BACKOFF_MAX_MS = 10_000;
/**
 * Failed sweeps in a row that are only warnings: a worker can start before the projector has
 * created or rebuilt the read model, or see the database restart; past this, it is an error.
 */
const FAILURES_BEFORE_ERROR = 5;

interface DueRow {
  quote_id: string;
}

/**
 * Quote expiry by state instead of a delayed job per quote (worker role): every `intervalMs` the
 * sweep asks the quotes read model for PENDING quotes whose `expiresAt` has passed, oldest first,
 * a bounded batch at a time, and expires each one with QuoteSettlementService.expire, which
 * decides on the stream. The read model only says where to look: a stale row (the projector is
 * behind) or a quote whose execute is under way (EXECUTING, shown PENDING) is a no-op on the
 * stream. That covers every way a quote becomes PENDING past its time: created and never
 * executed, an execute attempt refused (the quote is PENDING again), a REALTIME_FUNDING quote
 * released by SCA authorization.
 *
 * Several processes may sweep at once: each expiry appends at the revision it read, so one wins
 * and the others re-decide a no-op. A quote found not expirable on the stream is left alone for
 * a while (a second, doubling up to ten), so an execute in flight or a lagging read model does not cost a
 * stream read per sweep. The sweep is cross-platform by nature: its query is the one read of the
 * quotes read model that does not filter on a platform (each quote's own platform goes into the
 * metadata of its expiry).
 */
export class QuoteExpirySweeper {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private started = false;
  /** Set by stop(): no sweep starts, and a batch in flight expires no further quotes. */
  private stopping = false;
  private failures = 0;
  private readonly deferred = new Map<string, { retryAt: number; delayMs: number }>();

  constructor(
    private readonly pool: Pool,
    private readonly store: QuoteStore,
    private readonly settlement: QuoteSettlementService,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.started || this.stopping) return;
    this.started = true;
    this.scheduleNext(this.intervalMs);
  }

  /** No sweep starts after this; resolves once the one in flight (if any) has finished. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.sweeping;
  }

  /** One batch now: how many quotes it expired, and whether the batch was full (more may be due). */
  async sweepOnce(): Promise<{ expired: number; full: boolean }> {
    const now = Date.now();
    const skipped = this.deferredIds(now);
    const due = await this.pool.query<DueRow>({
      name: 'quotes_expiry_due',
      text: `SELECT quote_id FROM quotes
              WHERE pending AND expires_at <= $1 AND NOT (quote_id = ANY($2::text[]))
              ORDER BY expires_at LIMIT $3`,
      values: [new Date(now).toISOString(), skipped, BATCH_SIZE],
    });
    let expired = 0;
    let next = 0;
    const worker = async () => {
      while (!this.stopping && next < due.rows.length) {
        const row = due.rows[next++];
        if (await this.expireOne(row.quote_id)) expired++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.rows.length) }, worker));
    return { expired, full: due.rows.length === BATCH_SIZE };
  }

  private scheduleNext(delayMs: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sweeping = this.sweep().finally(() => {
        this.sweeping = null;
      });
    }, delayMs);
  }

  private async sweep(): Promise<void> {
    let delayMs = this.intervalMs;
    try {
      const { full } = await this.sweepOnce();
      this.failures = 0;
      // More due quotes than one batch: the next batch now, not a whole interval later.
      if (full) delayMs = 0;
    } catch (error) {
      this.failures++;
      delayMs = Math.min(FAILURE_BACKOFF_MAX_MS, this.intervalMs * 2 ** Math.min(this.failures, 6));
      const level = this.failures >= FAILURES_BEFORE_ERROR ? 'error' : 'warn';
      logger[level]('quote expiry sweep failed; retrying', { error: String(error), failures: this.failures, retryInMs: delayMs });
    }
    this.scheduleNext(delayMs);
  }

  /**
   * Expires one quote the read model shows due, in the context of the event that left it PENDING
   * (its correlation id, the platform), as the expiry task did. True when it is EXPIRED now.
   */
  private async expireOne(quoteId: string): Promise<boolean> {
    try {
      const loaded = await this.store.load(quoteId);
      const { state, recorded } = loaded;
      const now = new Date().toISOString();
      if (state.status !== 'PENDING' || !isExpiredAt(state, now)) {
        this.defer(quoteId);
        return false;
      }
      const cause = recorded[recorded.length - 1];
      const context = {
        requestId: randomUUID(),
        correlationId: recorded[0]?.metadata.correlationId ?? randomUUID(),
        causationId: cause?.id ?? randomUUID(),
        platformId: state.platformId,
        actor: 'system:quote-expiry-sweep',
        idempotencyKey: null,
        lastPosition: null,
      };
      // `expire` starts from the state just read (the store remembers it) and appends at its
      // revision: a concurrent execute or sweeper makes it re-decide on the stream.
      await runWithContext(context, () => this.settlement.expire(quoteId));
      this.deferred.delete(quoteId);
      return true;
    } catch (error) {
      this.defer(quoteId);
      logger.error('quote expiry failed; retrying later', { quoteId, error: String(error) });
      return false;
    }
  }

  private defer(quoteId: string): void {
    const previous = this.deferred.get(quoteId);
    const delayMs = previous ? Math.min(DEFER_MAX_MS, previous.delayMs * 2) : DEFER_FIRST_MS;
    this.deferred.delete(quoteId);
    this.deferred.set(quoteId, { retryAt: Date.now() + delayMs, delayMs });
    if (this.deferred.size > DEFER_LIMIT) this.deferred.delete(this.deferred.keys().next().value!);
  }

  /** Quotes still deferred at `now`; entries whose time has come are kept (their delay doubles next time). */
  private deferredIds(now: number): string[] {
    const ids: string[] = [];
    for (const [quoteId, entry] of this.deferred) {
      if (entry.retryAt > now) ids.push(quoteId);
      else if (now - entry.retryAt > DEFER_MAX_MS) this.deferred.delete(quoteId);
    }
    return ids;
  }
}
