import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { logger } from '../logger';
import { RequestContext, runWithContext } from '../request-context';
import { RequestObservers } from './request-observers';

const REQUEST_ID_FORM = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (echoed as X-Request-Id; a well-formed incoming one is reused as the
 * correlation id) and a context that appended events and log lines pick up. Logs one line per
 * request when it finishes, and tells `observers` (the metrics).
 */
export function requestContextMiddleware(observers: RequestObservers) {
  return (request: Request, response: Response, next: NextFunction): void => contextFor(observers, request, response, next);
}

function contextFor(observers: RequestObservers, request: Request, response: Response, next: NextFunction): void {
  const requestId = randomUUID();
  const incoming = request.headers['x-request-id'];
  const correlationId = typeof incoming === 'string' && REQUEST_ID_FORM.test(incoming) ? incoming : requestId;
  const context: RequestContext = {
    requestId,
    correlationId,
    causationId: requestId,
    platformId: null,
    actor: 'anonymous',
    idempotencyKey: null,
    lastPosition: null,
  };
  response.setHeader('X-Request-Id', requestId);
  const startedAt = process.hrtime.bigint();
  response.on('finish', () => {
    const durationMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
    observers.notify(request, response.statusCode, durationMs / 1000);
    runWithContext(context, () =>
      logger.info('request', {
        method: request.method,
        path: request.path,
        status: response.statusCode,
        durationMs: Math.round(durationMs * 100) / 100,
      }),
    );
  });
  runWithContext(context, () => next());
}
