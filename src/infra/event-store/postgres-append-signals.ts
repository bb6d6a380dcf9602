import type { Pool } from 'pg';
import { Listening, listenOn } from '../postgres/listen';
import { EVENT_STORE_NOTIFY_CHANNEL } from './postgres-event-store.sql';

/** How soon a lost LISTEN connection is made again for onAppendedElsewhere listeners. */
const LISTENER_RETRY_MS = 1000;

/**
 * How the Postgres event store tells of appends: to this process's subscriptions at once, and,
 * with `notify` on, to other processes through LISTEN/NOTIFY on EVENT_STORE_NOTIFY_CHANNEL.
 *
 * The NOTIFY goes out after the append commits, as one coalesced `pg_notify` statement off the
 * append's round trip (at most one in flight and one queued, whatever the append rate). A
 * pg_notify inside the appending transaction serialises every committing appender on Postgres's
 * notify queue lock: closed loop 160-164 against 199-200 flows/s (bench/RESULTS.md, "The
 * projector woken by other processes' appends"). One LISTEN connection, held while anyone here
 * wants wake-ups, hears the other processes' NOTIFYs.
 */
export class AppendSignals {
  /** Subscriptions' wake-ups: after every append of this process and on every NOTIFY. */
  private readonly subscribers = new Set<() => void>();
  /** onAppendedElsewhere listeners: woken by NOTIFYs only. */
  private readonly elsewhere = new Set<() => void>();
  private listener: Listening | null = null;
  private listenerConnecting: Promise<void> | null = null;
  private notifyInFlight = false;
  private notifyPending = false;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly notify: boolean,
  ) {}

  /** An append of this process committed. */
  appended(): void {
    this.wakeSubscribers();
    if (this.notify) this.scheduleNotify();
  }

  subscribe(wake: () => void): void {
    this.subscribers.add(wake);
    void this.ensureListener();
  }

  /** Releases the LISTEN connection once nobody wants wake-ups. */
  async unsubscribe(wake: () => void): Promise<void> {
    this.subscribers.delete(wake);
    if (!this.listenerWanted) await this.releaseListener();
  }

  onAppendedElsewhere(listener: () => void): () => void {
    this.elsewhere.add(listener);
    void this.ensureListener();
    return () => {
      if (!this.elsewhere.delete(listener)) return;
      if (!this.listenerWanted) void this.releaseListener();
    };
  }

  /** Re-establishes LISTEN after a lost connection; cheap when already listening. */
  ensureListener(): Promise<void> {
    if (!this.notify || this.closed || this.listener !== null || !this.listenerWanted) return Promise.resolve();
    this.listenerConnecting ??= this.connectListener().finally(() => {
      this.listenerConnecting = null;
    });
    return this.listenerConnecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.elsewhere.clear();
    await this.releaseListener();
    this.subscribers.clear();
  }

  private get listenerWanted(): boolean {
    return this.subscribers.size > 0 || this.elsewhere.size > 0;
  }

  private wakeSubscribers(): void {
    for (const wake of this.subscribers) wake();
  }

  private async connectListener(): Promise<void> {
    const retryLater = () => {
      // Subscriptions reconnect on their next idle cycle; other listeners only poll, so retry here.
      if (this.elsewhere.size > 0 && !this.closed) setTimeout(() => void this.ensureListener(), LISTENER_RETRY_MS).unref();
    };
    try {
      const listening: Listening = await listenOn(
        this.pool,
        EVENT_STORE_NOTIFY_CHANNEL,
        () => {
          this.wakeSubscribers();
          for (const listener of this.elsewhere) listener();
        },
        () => {
          if (this.listener === listening) this.listener = null;
          retryLater();
        },
      );
      if (this.closed || !this.listenerWanted) {
        listening.drop();
        return;
      }
      this.listener = listening;
    } catch {
      retryLater();
    }
  }

  private async releaseListener(): Promise<void> {
    await this.listenerConnecting;
    const listener = this.listener;
    this.listener = null;
    listener?.drop();
  }

  private scheduleNotify(): void {
    if (this.notifyInFlight) {
      this.notifyPending = true;
      return;
    }
    this.notifyInFlight = true;
    this.pool
      .query({ name: 'es_notify', text: "SELECT pg_notify($1, '')", values: [EVENT_STORE_NOTIFY_CHANNEL] })
      .catch(() => undefined)
      .finally(() => {
        this.notifyInFlight = false;
        if (this.notifyPending) {
          this.notifyPending = false;
          this.scheduleNotify();
        }
      });
  }
}
