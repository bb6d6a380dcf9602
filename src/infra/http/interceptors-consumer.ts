import { AsyncResource } from 'node:async_hooks';
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
 * thread promoted 2.6-2.8 MB/s instead of 5.1-5.4.
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
 * True when the installed @nestjs/core still runs its interceptor chain the way the replacement
 * copies (the binds it avoids, and the `transformDeferred` it reuses). A Nest upgrade that changes
 * either fails the test that asserts this (test/infra/interceptors-consumer.spec.ts), instead of
 * silently running an outdated copy.
 */
export function nestInterceptMatches(): boolean {
  const source = nestIntercept.toString();
  return (
    source.includes('AsyncResource.bind(() => this.transformDeferred(next))') &&
    source.includes('AsyncResource.bind(() => nextFn(i + 1))') &&
    typeof (InterceptorsConsumer.prototype as unknown as ConsumerInternals).transformDeferred === 'function'
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
 * Installs the replacement (idempotent). When the installed Nest no longer matches it, Nest's own
 * method stays (correct, only slower) and this answers false.
 */
export function installScopedInterceptorsConsumer(): boolean {
  if (InterceptorsConsumer.prototype.intercept === intercept) return true;
  if (!nestInterceptMatches()) return false;
  InterceptorsConsumer.prototype.intercept = intercept;
  return true;
}

/** Puts Nest's own method back (tests compare the two). */
export function uninstallScopedInterceptorsConsumer(): void {
  InterceptorsConsumer.prototype.intercept = nestIntercept;
}
