import { Position, START_POSITION, comparePositions } from '../event-store/event-store.port';
import { PositionWaits } from './position-waits';
import { ReadModelWaiter } from './read-model-waiter';

/**
 * Read-your-writes where the projector runs in this process: on this thread (ProjectionRunner,
 * which reports into one of these) or on the process's projector thread (ProjectorThread, which
 * feeds one from the thread's progress messages). How far the projections have committed, as the
 * projector last reported it, and the requests waiting for it: a wait answers the moment a report
 * covers its position, with no query of its own.
 */
export class ReportedProgress implements ReadModelWaiter {
  private position: Position = START_POSITION;
  private readonly waits = new PositionWaits();
  private readonly listeners = new Set<(position: Position) => void>();

  /** Up to where every healthy projection has committed, as last reported. */
  current(): Position {
    return this.position;
  }

  /**
   * The projector's latest report. It may be lower than the one before (a projector that starts
   * over from its checkpoints after a failed batch): waits then go on until it is back.
   */
  report(position: Position): void {
    this.position = position;
    for (const listener of this.listeners) listener(position);
    this.waits.resolveUpTo(position);
  }

  /** Calls `listener` with every report; returns the unsubscribe. */
  onReport(listener: (position: Position) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (comparePositions(this.position, position) >= 0) return Promise.resolve(true);
    return this.waits.wait(position, timeoutMs);
  }

  /** Answers false every pending wait (the projector stops). */
  cancelWaits(): void {
    this.waits.cancelAll();
  }
}

/** The projector on this thread: waits on the runner's reported progress (see ProjectionRunner.waitForPosition). */
export class RunnerReadModelWaiter implements ReadModelWaiter {
  constructor(private readonly runner: { waitForPosition(position: Position, timeoutMs: number): Promise<boolean> }) {}

  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    return this.runner.waitForPosition(position, timeoutMs);
  }
}
