import { Position, RecordedEvent, comparePositions } from '../event-store/event-store.port';

/** How many of the events the projector read last are kept for the reactors to read from memory. */
const RECENT_EVENTS_LIMIT = 2000;

/**
 * The log as the projector last read it: the events right after `after`, contiguous and in
 * order. Each read of the log answers every event after its position visible to all (a prefix
 * that only grows), so a reactor whose position falls inside gets from here exactly what a read
 * of its own would have answered a moment ago. The projector wakes first on an append, so the
 * reactor loops woken after it mostly read here instead of from Postgres.
 */
export class RecentEvents {
  private recent: { after: Position; events: RecordedEvent[] } | null = null;

  /** Appends what the projector read from `from` (or starts over there). */
  remember(from: Position, batch: RecordedEvent[]): void {
    if (batch.length === 0) return;
    const recent = this.recent;
    const end = recent && (recent.events.length > 0 ? recent.events[recent.events.length - 1].position : recent.after);
    if (recent && end && comparePositions(end, from) === 0) {
      for (const event of batch) recent.events.push(event);
    } else {
      this.recent = { after: from, events: [...batch] };
    }
    const kept = this.recent!;
    const excess = kept.events.length - RECENT_EVENTS_LIMIT;
    if (excess > 0) {
      kept.after = kept.events[excess - 1].position;
      kept.events.splice(0, excess);
    }
  }

  /**
   * The (at most `limit`) events right after `from` when `from` is in here and something follows
   * it; null when a read of the log must answer.
   */
  after(from: Position, limit: number): RecordedEvent[] | null {
    const recent = this.recent;
    const events = recent?.events ?? [];
    if (!recent || events.length === 0) return null;
    if (comparePositions(from, recent.after) < 0 || comparePositions(from, events[events.length - 1].position) >= 0) return null;
    let low = 0;
    let high = events.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (comparePositions(events[middle].position, from) > 0) high = middle;
      else low = middle + 1;
    }
    return events.slice(low, low + limit);
  }
}
