import * as http from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';

/**
 * Nest's Express adapter, with one change: the HTTP server creates each request and response with
 * Express's prototypes (`app.request`, `app.response`) in the first place.
 *
 * Express gives every request and response those prototypes with `Object.setPrototypeOf` as it
 * starts handling them. In V8 that keeps the request's objects alive through young-generation
 * collections until the next full one. When the objects already have those prototypes, Express's
 * `setPrototypeOf` changes nothing. Measured (bench/RESULTS.md, "Express's prototype switch"):
 * - `GET /config` at 200 requests/s: 7-8 MB promoted per scavenge instead of 9.6;
 * - at full load, 41% less service CPU per request.
 * The functions Node's `AsyncResource.bind` makes for Nest's interceptors did the same; see
 * interceptors-consumer.ts. Requests still are `http.IncomingMessage` and responses
 * `http.ServerResponse` (the prototype chains go through them).
 */
export class PrototypeStableExpressAdapter extends ExpressAdapter {
  initHttpServer(options: NestApplicationOptions): void {
    // HTTPS and connection tracking keep Nest's own server set-up.
    if (options?.httpsOptions || options?.forceCloseConnections) {
      super.initHttpServer(options);
      return;
    }
    const app = this.getInstance();
    this.httpServer = http.createServer(
      { IncomingMessage: withPrototype(http.IncomingMessage, app.request), ServerResponse: withPrototype(http.ServerResponse, app.response) },
      app,
    );
  }
}

/**
 * A constructor that runs `base` (Node's `IncomingMessage` or `ServerResponse`, both plain
 * functions taking at most two arguments) on instances whose prototype is `prototype`.
 */
function withPrototype<T>(base: T, prototype: object): T {
  function Constructor(this: unknown, first: unknown, second: unknown) {
    (base as unknown as (first: unknown, second: unknown) => void).call(this, first, second);
  }
  Constructor.prototype = prototype;
  return Constructor as unknown as T;
}
