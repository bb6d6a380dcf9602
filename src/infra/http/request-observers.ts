import { Injectable } from '@nestjs/common';
import type { Request } from 'express';

/** Told about every answered request: its route pattern, method, status and duration. */
export type RequestObserver = (route: string, method: string, status: number, seconds: number) => void;

/** The route label of requests no route matched (unknown paths share it: their text stays out). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The app's listeners of finished requests, told by requestContextMiddleware from the one
 * `finish` listener it already has for the request log: how the metrics count and time requests
 * without a middleware or a listener of their own (measured: a Nest middleware over every route
 * with its own listener cost 9% of bench:quotes' flows). One per app (tests run several).
 */
@Injectable()
export class RequestObservers {
  private readonly observers: RequestObserver[] = [];

  listen(observer: RequestObserver): void {
    this.observers.push(observer);
  }

  notify(request: Request, status: number, seconds: number): void {
    if (this.observers.length === 0) return;
    const route = routePattern(request);
    for (const observer of this.observers) observer(route, request.method, status, seconds);
  }
}

/** Express sets `request.route` to the route that handled the request: its pattern, never the path with ids. */
export function routePattern(request: Request): string {
  const path: unknown = (request as { route?: { path?: unknown } }).route?.path;
  return typeof path === 'string' ? path : UNMATCHED_ROUTE;
}
