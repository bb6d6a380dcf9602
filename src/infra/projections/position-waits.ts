import { Position, comparePositions } from '../event-store/event-store.port';

interface PendingWait {
  position: Position;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

/**
 * Waits for the read models to reach log positions, each with its own time limit: what
 * read-your-writes waits on, whichever way the progress arrives (the projector in this thread,
 * another thread's messages, another process's NOTIFY).
 */
export class PositionWaits {
  private readonly pending = new Set<PendingWait>();

  get size(): number {
    return this.pending.size;
  }

  /** True once a `resolveUpTo`/`resolveWhere` covers `position`; false after `timeoutMs`. */
  wait(position: Position, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wait: PendingWait = {
        position,
        resolve,
        timer: setTimeout(() => {
          this.pending.delete(wait);
          resolve(false);
        }, timeoutMs),
      };
      this.pending.add(wait);
    });
  }

  /** Answers true every wait at or before `progress`. */
  resolveUpTo(progress: Position): void {
    this.resolveWhere((position) => comparePositions(progress, position) >= 0);
  }

  /** Answers true every wait whose position `reached` accepts. */
  resolveWhere(reached: (position: Position) => boolean): void {
    for (const wait of this.pending) {
      if (!reached(wait.position)) continue;
      clearTimeout(wait.timer);
      this.pending.delete(wait);
      wait.resolve(true);
    }
  }

  /** Answers false every wait (shutdown). */
  cancelAll(): void {
    for (const wait of this.pending) {
      clearTimeout(wait.timer);
      wait.resolve(false);
    }
    this.pending.clear();
  }
}
