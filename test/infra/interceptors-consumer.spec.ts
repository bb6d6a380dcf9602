import 'reflect-metadata';
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type { AddressInfo } from 'node:net';
import { CallHandler, Controller, ExecutionContext, Get, HttpException, INestApplication, Injectable, Module, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InterceptorsConsumer } from '@nestjs/core/interceptors';
import { ExpressAdapter } from '@nestjs/platform-express';
import { Observable } from 'rxjs';
import {
  COPIED_NEST_INTERCEPT_SHA256,
  installScopedInterceptorsConsumer,
  nestIntercept,
  nestInterceptMatches,
  sourceFingerprint,
  uninstallScopedInterceptorsConsumer,
} from '../../src/infra/http/interceptors-consumer';

/**
 * The interceptor chain without `AsyncResource.bind` (src/infra/http/interceptors-consumer.ts):
 * every request answers, and every step sees the async context, exactly as with Nest's own; and
 * it replaces only the very method it was copied from.
 */
const storage = new AsyncLocalStorage<{ id: string }>();

/** Calls `next.handle()` in the request's context but subscribes to it in another one. */
@Injectable()
class SubscribesElsewhere implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handled = next.handle();
    return new Observable((subscriber) => storage.run({ id: 'elsewhere' }, () => handled.subscribe(subscriber)));
  }
}

/** Calls `next.handle()` in a context of its own. */
@Injectable()
class HandlesInOwnContext implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return storage.run({ id: 'interceptor' }, () => next.handle());
  }
}

/** Wraps the answer, to show both interceptors of a chain ran. */
@Injectable()
class Wraps implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return new Observable((subscriber) =>
      next.handle().subscribe({
        next: (value) => subscriber.next({ wrapped: value }),
        error: (error) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    );
  }
}

@Controller()
class ProbeController {
  @Get('elsewhere')
  @UseInterceptors(Wraps, SubscribesElsewhere)
  async elsewhere() {
    await new Promise((resolve) => setImmediate(resolve));
    return { seen: storage.getStore()?.id ?? null };
  }

  @Get('own')
  @UseInterceptors(HandlesInOwnContext)
  own() {
    return { seen: storage.getStore()?.id ?? null };
  }

  @Get('refused')
  @UseInterceptors(Wraps, SubscribesElsewhere)
  async refused() {
    await new Promise((resolve) => setImmediate(resolve));
    throw new HttpException({ code: 'REFUSED', seen: storage.getStore()?.id ?? null }, 409);
  }
}

@Module({ controllers: [ProbeController], providers: [SubscribesElsewhere, HandlesInOwnContext, Wraps] })
class ProbeModule {}

async function answers(app: INestApplication, path: string, id: string): Promise<{ status: number; body: unknown }> {
  const { port } = (app.getHttpServer().address() as AddressInfo);
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-id': id } });
  return { status: response.status, body: await response.json() };
}

describe("Nest's interceptor chain without AsyncResource.bind", () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await NestFactory.create(ProbeModule, new ExpressAdapter(), { logger: false });
    app.use((request: { headers: Record<string, string> }, _response: unknown, next: () => void) => storage.run({ id: request.headers['x-id'] }, next));
    await app.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    installScopedInterceptorsConsumer();
    await app.close();
  });

  it('copies the @nestjs/core installed, to the character (an upgrade that changes the method fails here)', () => {
    // On failure: compare InterceptorsConsumer.intercept in node_modules/@nestjs/core with the copy
    // in src/infra/http/interceptors-consumer.ts, bring the copy up to date (or drop it), then
    // record the new fingerprint in COPIED_NEST_INTERCEPT_SHA256. Until then Nest's own runs.
    expect(sourceFingerprint(nestIntercept)).toBe(COPIED_NEST_INTERCEPT_SHA256);
    expect(nestInterceptMatches()).toBe(true);
  });

  it('leaves in place a method that differs from the one it copies', () => {
    uninstallScopedInterceptorsConsumer();
    // The shipped method with one change, as an upgrade would bring.
    const changed = async function intercept(this: InterceptorsConsumer, ...args: Parameters<InterceptorsConsumer['intercept']>) {
      return nestIntercept.apply(this, args);
    };
    InterceptorsConsumer.prototype.intercept = changed;
    try {
      expect(nestInterceptMatches(changed)).toBe(false);
      expect(installScopedInterceptorsConsumer()).toBe(false);
      expect(InterceptorsConsumer.prototype.intercept).toBe(changed);
    } finally {
      uninstallScopedInterceptorsConsumer();
    }
  });

  const variants: Array<[string, () => void]> = [
    ["Nest's own", uninstallScopedInterceptorsConsumer],
    ['the replacement', () => expect(installScopedInterceptorsConsumer()).toBe(true)],
  ];

  describe.each(variants)('%s', (_name, install) => {
    beforeAll(install);

    it('runs the handler in the context next.handle() was called in, not the one it is subscribed in', async () => {
      const results = await Promise.all(['a', 'b', 'c'].map((id) => answers(app, '/elsewhere', id)));
      expect(results).toEqual([
        { status: 200, body: { wrapped: { seen: 'a' } } },
        { status: 200, body: { wrapped: { seen: 'b' } } },
        { status: 200, body: { wrapped: { seen: 'c' } } },
      ]);
    });

    it("runs the handler in an interceptor's own context when it calls next.handle() there", async () => {
      expect(await answers(app, '/own', 'request')).toEqual({ status: 200, body: { seen: 'interceptor' } });
    });

    it("answers a handler's refusal through the chain", async () => {
      expect(await answers(app, '/refused', 'r')).toEqual({ status: 409, body: { code: 'REFUSED', seen: 'r' } });
    });
  });

  it('makes no AsyncResource.bind functions (Nest makes them on every request)', async () => {
    const bind = jest.spyOn(AsyncResource, 'bind');
    try {
      uninstallScopedInterceptorsConsumer();
      await answers(app, '/elsewhere', 'x');
      const byNest = bind.mock.calls.length;
      bind.mockClear();
      expect(installScopedInterceptorsConsumer()).toBe(true);
      await answers(app, '/elsewhere', 'y');
      expect(byNest).toBeGreaterThanOrEqual(2);
      expect(bind).not.toHaveBeenCalled();
    } finally {
      bind.mockRestore();
    }
  });
});
