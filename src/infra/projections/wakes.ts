/**
 * Reactors wake at most once per this many milliseconds for in-process appends (the projector
 * wakes at once: read-your-writes answers wait on it). A flow of a few appends in quick
 * succession then costs each reactor one read (shared by every reactor at the same position)
 * instead of one per append; reactor effects are delayed work anyway. Over 20 ms rather than 5,
 * a quote executed right after its creation often lands in the same batch, so its expiry task is
 * never scheduled (nor removed again): 6-14% less CPU per quote flow at 100 flows/s
 * (bench/RESULTS.md, "Reactors woken at most every 20 ms instead of 5"), for webhooks and tasks
 * up to 15 ms later.
 */
export const REACTOR_WAKE_COALESCE_MS = 20;

/**
 * The runner's idle waits and what ends them: an in-process append wakes the projector at once
 * and the reactor loops together once the coalescing window ends; a wait also ends at its delay
 * (the poll) or at stop(). The wake-up counts let a loop tell whether a wake-up came since a read
 * it used started (that read may have missed the append).
 */
export class Wakes {
  /** The projector's idle wait. */
  private readonly projectorListeners = new Set<() => void>();
  /** Idle reactor loops: woken together, at most once per coalescing window. */
  private readonly reactorListeners = new Set<() => void>();
  private reactorTimer: NodeJS.Timeout | null = null;
  private projectorCount = 0;
  private reactorCount = 0;
  private running = false;

  /** How many projector wake-ups there have been. */
  get projectorWakes(): number {
    return this.projectorCount;
  }

  /** How many reactor wake-ups there have been. */
  get reactorWakes(): number {
    return this.reactorCount;
  }

  /** Whether an append waits for the end of the coalescing window to wake the reactors. */
  get reactorWakePending(): boolean {
    return this.reactorTimer !== null;
  }

  start(): void {
    this.running = true;
  }

  /** Ends every idle wait, now and from now on. */
  stop(): void {
    this.running = false;
    if (this.reactorTimer) clearTimeout(this.reactorTimer);
    this.reactorTimer = null;
    this.projectorCount++;
    wake(this.projectorListeners);
    wake(this.reactorListeners);
  }

  /** An append (in this process, or announced by another): the projector now, the reactors once the window ends. */
  appended(): void {
    this.projectorCount++;
    wake(this.projectorListeners);
    this.reactorTimer ??= setTimeout(() => this.wakeReactors(), REACTOR_WAKE_COALESCE_MS);
  }

  /** Sleeps until the projector is woken, `delayMs` passes, or stop(). */
  idleProjector(delayMs: number): Promise<void> {
    return this.idle(delayMs, this.projectorListeners);
  }

  /** Sleeps until the reactors are woken, `delayMs` passes, or stop(). */
  idleReactor(delayMs: number): Promise<void> {
    return this.idle(delayMs, this.reactorListeners);
  }

  private wakeReactors(): void {
    if (this.reactorTimer) clearTimeout(this.reactorTimer);
    this.reactorTimer = null;
    this.reactorCount++;
    wake(this.reactorListeners);
  }

  private idle(delayMs: number, listeners: Set<() => void>): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        listeners.delete(done);
        resolve();
      };
      const timer = setTimeout(done, delayMs);
      listeners.add(done);
    });
  }
}

/** Wakes every listener of an idle wait (each removes itself). */
function wake(listeners: Set<() => void>): void {
  for (const listener of [...listeners]) listener();
}
