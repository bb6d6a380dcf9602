import { ClientBase } from 'pg';

/** The socket under a pg client, as far as corking goes. */
interface CorkableStream {
  cork?: () => void;
  uncork?: () => void;
  writableCorked?: number;
}

/**
 * Holds back the socket writes of the statements issued until the current run of promise
 * callbacks drains, then sends them together: one system call for a whole burst (a projection
 * batch's `execute`s, a turn's lookups) instead of one per statement. The flush is a nextTick,
 * which runs once the microtask queue is empty, that is as soon as the caller waits for an
 * answer, so nothing waits on a held write.
 */
export function corkUntilIdle(client: ClientBase): void {
  const stream = (client as unknown as { connection?: { stream?: CorkableStream } }).connection?.stream;
  if (!stream?.cork || !stream.uncork || stream.writableCorked) return;
  stream.cork();
  process.nextTick(() => stream.uncork!());
}
