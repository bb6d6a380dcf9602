import { Pool } from 'pg';
import { Position, comparePositions } from '../event-store/event-store.port';
import { logger } from '../logger';
import { currentContext } from '../request-context';
import { ProjectionRunner } from './projection-runner';

export const READ_MODEL_WAITER = Symbol('READ_MODEL_WAITER');

/** Upper bound on a read-your-writes wait: past it the answer goes out anyway (and is logged). */
export const READ_YOUR_WRITES_TIMEOUT_MS = 5000;

/** Read-your-writes: a state-changing request answers once the read models hold its events. */
export interface ReadModelWaiter {
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

/** In-process projector: wait on its progress. */
export class RunnerReadModelWaiter implements ReadModelWaiter {
  constructor(private readonly runner: ProjectionRunner) {}
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    return this.runner.waitForPosition(position, timeoutMs);
  }
}

/** API process without a projector: poll the checkpoints the projector commits. */
export class PollingReadModelWaiter implements ReadModelWaiter {
  constructor(
    private readonly pool: Pool,
    private readonly pollIntervalMs = 5,
  ) {}

  async waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const result = await this.pool.query(
        // Like the in-process runner, a projection stuck on an event (last_error) is not waited for.
        `SELECT commit_position::text AS c, prepare_position::text AS p FROM projection_checkpoints
          WHERE kind = 'projection' AND last_error IS NULL ORDER BY commit_position, prepare_position LIMIT 1`,
      );
      const row = result.rows[0];
      if (!row) return true;
      if (comparePositions({ commit: BigInt(row.c), prepare: BigInt(row.p) }, position) >= 0) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, this.pollIntervalMs));
    }
  }
}
