import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ConsoleMetrics } from './console-metrics';

/** The route label of requests no route matched (unknown paths share it: their text stays out). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts and times every request by its route pattern (`/2025-10-13/customers/:customerId`, never
 * the path with its ids: one series per route, not per resource), method and status, 401s and
 * other refusals included. Requests whose client went away before the answer are not counted.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: ConsoleMetrics) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const startedMs = performance.now();
    response.once('finish', () => {
      this.metrics.recordRequest(routePattern(request), request.method, response.statusCode, (performance.now() - startedMs) / 1000);
    });
    next();
  }
}

/** Express sets `request.route` to the route that handled the request. */
export function routePattern(request: Request): string {
  const path: unknown = (request as { route?: { path?: unknown } }).route?.path;
  return typeof path === 'string' ? path : UNMATCHED_ROUTE;
}
