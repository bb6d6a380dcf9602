import { Position } from '../event-store/event-store.port';

/** A stream's folded state at a revision, and the position of its newest event. */
export interface CachedState<TState> {
  state: TState;
  revision: number;
  position: Position | null;
}

/**
 * The folded state of recently used streams, least recently used dropped first. A cached state
 * is a true state at its revision: an append decided on it expects that revision, so a write by
 * another process since shows up as a conflict (and a fresh read), never as a lost update.
 */
export class StateCache<TState> {
  private readonly entries = new Map<string, CachedState<TState>>();

  constructor(
    private readonly limit: number,
    /** Streams not to drop while in use (work queued on them). */
    private readonly inUse: (stream: string) => boolean = () => false,
  ) {}

  get(stream: string): CachedState<TState> | undefined {
    return this.entries.get(stream);
  }

  set(stream: string, entry: CachedState<TState>): void {
    this.entries.delete(stream);
    this.entries.set(stream, entry);
    if (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined && !this.inUse(oldest)) this.entries.delete(oldest);
    }
  }

  delete(stream: string): void {
    this.entries.delete(stream);
  }
}
