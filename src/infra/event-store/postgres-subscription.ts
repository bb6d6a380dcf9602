import { Position, ReadAllOptions, RecordedEvent, Subscription } from './event-store.port';

/** First retry delay when committed events are hidden behind an older open transaction. */
const HIDDEN_EVENTS_FIRST_RETRY_MS = 2;

/** What a subscription needs of its store. */
export interface SubscriptionSource {
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Whether committed events exist that readers cannot see yet (an older transaction is still open). */
  hasHiddenEvents(): Promise<boolean>;
  /** Listens again after a lost LISTEN connection; cheap when listening. */
  ensureListener(): Promise<void>;
  /** The subscription ended: no more wake-ups for it. */
  subscriptionEnded(subscription: PostgresSubscription): Promise<void>;
  readonly idlePollIntervalMs: number;
}

/**
 * Catch-up subscription: reads $all in batches, and when caught up waits for a wake-up (own
 * appends, NOTIFY) or the poll interval. When committed events are hidden behind an older open
 * transaction it retries after a few milliseconds instead of a full poll interval.
 */
export class PostgresSubscription implements Subscription {
  private stopped = false;
  private iterating = false;
  private wakePending = false;
  private wakeWaiter: (() => void) | null = null;
  private inFlight: Promise<unknown> | null = null;
  /** Wake-up callback, fired after appends and NOTIFYs. */
  readonly wake = (): void => {
    this.wakePending = true;
    const waiter = this.wakeWaiter;
    this.wakeWaiter = null;
    waiter?.();
  };

  constructor(
    private readonly store: SubscriptionSource,
    private position: Position,
    private readonly batchSize: number,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.iterating) throw new Error('A subscription can be iterated only once');
    this.iterating = true;
    let hiddenRetryMs = HIDDEN_EVENTS_FIRST_RETRY_MS;
    try {
      while (!this.stopped) {
        this.wakePending = false;
        const batch = await this.track(this.store.readAll({ from: this.position, limit: this.batchSize }));
        for (const event of batch) {
          if (this.stopped) return;
          this.position = event.position;
          yield event;
        }
        if (batch.length === this.batchSize) continue;
        if (batch.length > 0) hiddenRetryMs = HIDDEN_EVENTS_FIRST_RETRY_MS;
        if (this.stopped) return;
        void this.store.ensureListener();
        const hidden = await this.track(this.store.hasHiddenEvents());
        if (hidden) {
          await this.waitForWake(hiddenRetryMs);
          hiddenRetryMs = Math.min(hiddenRetryMs * 2, this.store.idlePollIntervalMs);
        } else {
          hiddenRetryMs = HIDDEN_EVENTS_FIRST_RETRY_MS;
          await this.waitForWake(this.store.idlePollIntervalMs);
        }
      }
    } finally {
      this.stopped = true;
      await this.store.subscriptionEnded(this);
    }
  }

  /** Ends iteration at the next step; the consumer's pending `next()` resolves with done. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.inFlight?.catch(() => undefined);
    await this.store.subscriptionEnded(this);
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight = promise;
    return promise;
  }

  private waitForWake(timeoutMs: number): Promise<void> {
    if (this.wakePending || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeWaiter = null;
        resolve();
      }, timeoutMs);
      this.wakeWaiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
