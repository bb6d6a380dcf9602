import { AsyncResource } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { isEmpty } from '@nestjs/common/utils/shared.utils';
import { InterceptorsConsumer } from '@nestjs/core/interceptors';
import { Observable, defer, mergeAll } from 'rxjs';

/**
 * Nest's interceptor chain (`InterceptorsConsumer.intercept`, @nestjs/core 11.x) with one change:
 * each step runs in an `AsyncResource` scope directly instead of through `AsyncResource.bind`.
 *
 * Nest binds the rest of the chain to the async context in which `next.handle()` was called, so
 * that `AsyncLocalStorage` stores reach the handler however an interceptor subscribes. Node 20's
 * `AsyncResource.bind` gives every function it returns a deprecated `asyncResource` accessor,
 * whose getter and setter `deprecate` makes with `Object.setPrototypeOf` onto fresh functions:
 * the prototype switch that `PrototypeStableExpressAdapter` (express-adapter.ts) avoids for
 * Express. In V8 it keeps what the bound function reaches (the request's handler chain) alive
 * through young-generation collections until the next full one. Nest binds twice per request
 * here. Measured (bench/RESULTS.md, "Nest's interceptor bind"): at 100 quote flows/s, the API
 * thread promoted 2.6-2.8 MB/s instead of 5.1-5.4; in the closed loop, 12% less service CPU per
 * flow ("Nest's interceptor chain, with and without the copy (issue 22)").
 *
 * The resource is created where Nest creates it (when `handle()` is called, or the chain starts)
 * and the deferred step runs in its scope, so every step sees the async context it sees with
 * Nest's own method.
 */
type Intercept = InterceptorsConsumer['intercept'];

interface ConsumerInternals {
  createContext(args: unknown[], instance: object, callback: (...args: unknown[]) => unknown): { setType(type: string): void };
  transformDeferred(next: () => Promise<unknown>): Observable<unknown>;
}

/** The method this replaces, as shipped; kept so a test can hold both to the same behaviour. */
export const nestIntercept: Intercept = InterceptorsConsumer.prototype.intercept;

/**
 * SHA-256 of the source of the method this replaces (whitespace collapsed) as @nestjs/core 11.2.10
 * ships it: the code the copy below was made from.
 */
export const COPIED_NEST_INTERCEPT_SHA256 = '632374758842a89d47fccfe5c71ea636317b194771df43f3c8b04deab26b9a2f';

/** The fingerprint of a method's source, as COPIED_NEST_INTERCEPT_SHA256 records it. */
export function sourceFingerprint(method: (...args: never[]) => unknown): string {
  return createHash('sha256').update(method.toString().replace(/\s+/g, ' ')).digest('hex');
}

/**
 * True when `method` (the installed @nestjs/core's, by default) is, to the character, the one the
 * copy was made from, and the helpers the copy calls are still there. Any change to it (a Nest
 * upgrade) makes this false: the replacement is not installed, and the test that asserts this
 * (test/infra/interceptors-consumer.spec.ts) fails until the copy is checked against the new code
 * and the fingerprint recorded again.
 */
export function nestInterceptMatches(method: Intercept = nestIntercept): boolean {
  const internals = InterceptorsConsumer.prototype as unknown as ConsumerInternals;
  return (
    sourceFingerprint(method) === COPIED_NEST_INTERCEPT_SHA256 &&
    typeof internals.transformDeferred === 'function' &&
    typeof internals.createContext === 'function'
  );
}

const intercept = async function intercept(
  this: InterceptorsConsumer & ConsumerInternals,
  interceptors: Parameters<Intercept>[0],
  args: Parameters<Intercept>[1],
  instance: Parameters<Intercept>[2],
  callback: Parameters<Intercept>[3],
  next: Parameters<Intercept>[4],
  type?: Parameters<Intercept>[5],
): Promise<unknown> {
  if (isEmpty(interceptors)) return next();
  const context = this.createContext(args, instance, callback);
  context.setType(type as string);
  const nextFn = async (i = 0): Promise<Observable<unknown>> => {
    if (i >= interceptors.length) {
      const scope = new AsyncResource('bound-anonymous-fn');
      return defer(() => scope.runInAsyncScope(() => this.transformDeferred(next)));
    }
    const handler = {
      handle: () => {
        const scope = new AsyncResource('bound-anonymous-fn');
        return defer(() => scope.runInAsyncScope(() => nextFn(i + 1))).pipe(mergeAll());
      },
    };
    return interceptors[i].intercept(context as never, handler) as Observable<unknown> | Promise<Observable<unknown>>;
  };
  return defer(() => nextFn()).pipe(mergeAll());
} as unknown as Intercept;

/**
 * Installs the replacement (idempotent). When the method in place is not the one it copies, that
 * method stays (Nest's own: correct, only slower) and this answers false.
 */
export function installScopedInterceptorsConsumer(): boolean {
  const current = InterceptorsConsumer.prototype.intercept;
  if (current === intercept) return true;
  if (!nestInterceptMatches(current)) return false;
  InterceptorsConsumer.prototype.intercept = intercept;
  return true;
}

/** Puts Nest's own method back (tests compare the two). */
export function uninstallScopedInterceptorsConsumer(): void {
  InterceptorsConsumer.prototype.intercept = nestIntercept;
}
