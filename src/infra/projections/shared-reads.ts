import { EventStore, Position, RecordedEvent, positionToString } from '../event-store/event-store.port';
import { RecentEvents } from './recent-events';
import { Wakes } from './wakes';

/** A log read the runner's loops share while it is in flight. */
export interface SharedRead {
  events: Promise<RecordedEvent[]>;
  /** The reactor wake-up count when the read started. */
  wakes: number;
  /** The projector wake-up count when the read started. */
  projectorWakes: number;
}

/**
 * Reactor loops (and the caught-up projector) wake together and mostly read from the same
 * position: a read already in flight for that position is shared instead of sending another
 * identical query (one per reactor per wake-up otherwise). Only in-flight reads are shared, so
 * nobody gets a stale answer: a loop that asks after a read finished sends its own, and one that
 * joins a read started before the latest wake-up sees so in `wakes` and reads again.
 */
export class SharedReads {
  private readonly inFlight = new Map<string, SharedRead>();

  constructor(
    private readonly events: { readonly store: EventStore },
    private readonly wakes: Wakes,
    private readonly recent: RecentEvents,
  ) {}

  /** The log from `from`, at most `limit` events, through a read in flight if there is one. */
  read(from: Position, limit: number): SharedRead {
    const key = `${positionToString(from)}:${limit}`;
    let read = this.inFlight.get(key);
    if (!read) {
      const events = this.events.store.readAll({ from, limit }).finally(() => this.inFlight.delete(key));
      read = { events, wakes: this.wakes.reactorWakes, projectorWakes: this.wakes.projectorWakes };
      this.inFlight.set(key, read);
    }
    return read;
  }

  /** A reactor loop's read: from what the projector read last when it holds `from`, else from the log. */
  readForReactor(from: Position, limit: number): SharedRead {
    const recent = this.recent.after(from, limit);
    if (recent) return { events: Promise.resolve(recent), wakes: this.wakes.reactorWakes, projectorWakes: this.wakes.projectorWakes };
    return this.read(from, limit);
  }
}
