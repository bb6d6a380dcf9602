import { Position } from '../event-store/event-store.port';
import { logger } from '../logger';
import { currentContext } from '../request-context';

export const READ_MODEL_WAITER = Symbol('READ_MODEL_WAITER');

/** Upper bound on a read-your-writes wait: past it the answer goes out anyway (and is logged). */
export const READ_YOUR_WRITES_TIMEOUT_MS = 5000;

/**
 * Read-your-writes: a state-changing request answers once the read models hold its events.
 *
 * One implementation per topology, chosen once, by the READ_MODEL_WAITER provider of InfraModule
 * (src/infra/infra.module.ts); docs/runtime.md has the reasons and figures:
 * - the projector in this process, on this thread or on its projector thread: ReportedProgress
 *   (in-process-read-model-waiter.ts), fed by the projector's own progress reports (through
 *   RunnerReadModelWaiter on this thread, through ProjectorThread's messages from the thread);
 * - the projector in another process: NotifiedReadModelWaiter (notified-read-model-waiter.ts),
 *   woken by the projector's NOTIFY and reading the projections' progress from Postgres.
 */
export interface ReadModelWaiter {
  /** Resolves true once every healthy projection includes `position`, false after `timeoutMs`. */
  waitFor(position: Position, timeoutMs: number): Promise<boolean>;
}

/**
 * Waits until the read models include every event this request (or job) appended so far. Call it
 * between a write and a read-model query in the same handler; the response interceptor calls it
 * again before answering, which is then free.
 */
export async function awaitOwnWrites(waiter: ReadModelWaiter, timeoutMs = READ_YOUR_WRITES_TIMEOUT_MS): Promise<void> {
  const position = currentContext()?.lastPosition;
  if (!position) return;
  const reached = await waiter.waitFor(position, timeoutMs);
  if (!reached) logger.warn('read models lag behind this write', { waitedMs: timeoutMs });
}
