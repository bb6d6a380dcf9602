import { AsyncLocalStorage } from 'node:async_hooks';
import { Position, comparePositions } from './event-store/event-store.port';

/**
 * Per-request facts that every appended event's metadata and every log line carry. Set by the
 * HTTP layer (and by workers/reactors for their own work), read by the event store facade.
 */
export interface RequestContext {
  requestId: string;
  correlationId: string;
  causationId: string;
  platformId: string | null;
  actor: string;
  idempotencyKey: string | null;
  /** Highest global position appended during this request: the response waits for projections. */
  lastPosition: Position | null;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export function recordAppendedPosition(position: Position): void {
  const context = storage.getStore();
  if (!context) return;
  if (!context.lastPosition || comparePositions(position, context.lastPosition) > 0) {
    context.lastPosition = position;
  }
}
