import { logger } from '../logger';
import { ApiError } from './api-error';

/**
 * What a client is told while Postgres or Redis is down (or restarting): 503
 * `SERVICE_UNAVAILABLE` with `Retry-After`, never 500. The embedded servers are restarted by
 * their supervisors within a second or two and the service reconnects by itself
 * (docs/operations.md, "Faults and recovery"), so the same request a moment later succeeds; a
 * write refused this way did nothing (a commit that did happen is found by its Idempotency-Key).
 */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 1;

const UNAVAILABLE_MESSAGE = 'The service cannot reach one of its stores right now; retry shortly';

/** The 503 a request gets when a store it needs is down (thrown by DependencyGuard too). */
export function serviceUnavailable(message = UNAVAILABLE_MESSAGE): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', message, undefined, { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_SECONDS) });
}

/** Socket-level failures: the server is not there (refused, reset, timed out). */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);
/**
 * Postgres SQLSTATEs of a server going away or not there yet: 57P01 admin shutdown, 57P02 crash
 * shutdown, 57P03 cannot connect now (starting up, recovering), class 08 connection exceptions.
 */
const POSTGRES_UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
/** node-postgres and pg-pool report a lost or unobtainable connection only by message. */
const POSTGRES_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Client was closed/,
  /^Cannot use a pool after calling end/,
];
/** ioredis while Redis is down or reloading its data. */
const REDIS_UNAVAILABLE_MESSAGES = [
  /^Reached the max retries per request limit/,
  /^Connection is closed\.?$/,
  /^Stream isn't writeable/,
  /^LOADING /,
];

/** Whether `error` says that Postgres or Redis is unreachable (and not that a statement was wrong). */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const candidate = error as { code?: unknown; syscall?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof candidate.code === 'string' && (CONNECTION_ERROR_CODES.has(candidate.code) || POSTGRES_UNAVAILABLE_STATES.has(candidate.code))) return true;
  // A Unix socket file that is not there (a server between crash and restart); not any missing file.
  if (candidate.code === 'ENOENT' && candidate.syscall === 'connect') return true;
  if (candidate.name === 'MaxRetriesPerRequestError') return true;
  const message = typeof candidate.message === 'string' ? candidate.message : '';
  if (POSTGRES_CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (REDIS_UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  // Wrapped (a cause), or several attempts at once (AggregateError of each address tried).
  if (candidate.cause !== undefined && isDependencyUnavailable(candidate.cause, depth + 1)) return true;
  return Array.isArray(candidate.errors) && candidate.errors.some((inner) => isDependencyUnavailable(inner, depth + 1));
}

/** The error answer for an exception `isDependencyUnavailable` accepted (HttpErrorFilter.toErrorBody). */
export function dependencyUnavailableAnswer(error: unknown): { body: { status: number; code: string; message: string }; headers: Record<string, string> } {
  const answer = serviceUnavailable();
  // A warning, not an unhandled error: an outage, which health and the supervisors report too.
  logger.warn('a store is unavailable; answering 503', { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  return { body: { status: 503, code: answer.code, message: answer.message }, headers: answer.headers };
}
