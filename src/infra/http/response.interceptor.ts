import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { Observable, from, mergeMap } from 'rxjs';
import { DomainError } from '../domain/domain-error';
import { currentContext } from '../request-context';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../projections/read-model-waiter';
import { ApiError, IdempotentReplay } from './api-error';
import { HttpResult } from './http-result';
import { IdempotencyHandle, IdempotencyService, requestFingerprint } from './idempotency.service';
import { IDEMPOTENT_ROUTE } from './route-metadata';
import { toWireJson } from './wire-json';

/** The contract takes any string as the key (a UUID in its examples): 1 to 255 visible ASCII characters. */
const KEY_FORM = /^[\x21-\x7e]{1,255}$/;

type IdempotentRequest = Request & { idempotency?: IdempotencyHandle };

/**
 * Around every handler: Idempotency-Key begin/replay/complete, read-your-writes (wait until the
 * read models include this request's events), and HttpResult unwrapping (status and headers).
 */
@Injectable()
export class ResponseInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @Inject(IdempotencyService) private readonly idempotency: IdempotencyService,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<IdempotentRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const idempotent = this.reflector.get<boolean>(IDEMPOTENT_ROUTE, context.getHandler()) === true;
    const defaultStatus =
      this.reflector.get<number>('__httpCode__', context.getHandler()) ?? (request.method === 'POST' ? 201 : 200);

    return from(this.beginIdempotency(request, idempotent)).pipe(
      mergeMap(() => next.handle()),
      mergeMap(async (value: unknown) => {
        const result = value instanceof HttpResult ? value : new HttpResult(defaultStatus, value);
        await awaitOwnWrites(this.waiter);
        response.status(result.status);
        for (const [name, headerValue] of Object.entries(result.headers)) response.setHeader(name, headerValue);
        const handle = request.idempotency;
        if (handle) {
          const text = result.body === undefined ? '' : toWireJson(result.body);
          // From here the record is complete's to settle (it releases the key if it cannot store
          // the answer); before here, a throw reaches HttpErrorFilter with the handle still set.
          request.idempotency = undefined;
          await this.idempotency.complete(handle, result.status, result.headers, text);
        }
        return result.body;
      }),
    );
  }

  private async beginIdempotency(request: IdempotentRequest, idempotent: boolean): Promise<void> {
    const key = request.headers['idempotency-key'];
    if (!idempotent || key === undefined) return;
    const platformId = currentContext()?.platformId;
    if (!platformId) return;
    if (typeof key !== 'string' || !KEY_FORM.test(key)) {
      const message = 'Idempotency-Key must be 1 to 255 visible ASCII characters';
      throw new DomainError('INVALID_INPUT', message, {
        errors: [{ field: 'Idempotency-Key', constraint: { pattern: KEY_FORM.source, maxLength: 255 }, message }],
      });
    }
    const signature = request.headers['service-wallet-signature'];
    // The body as canonical JSON: the same data with its keys in another order is the same request.
    const fingerprint = requestFingerprint(request.method, request.path, request.body, typeof signature === 'string' ? signature : '');
    const outcome = await this.idempotency.begin(platformId, key, fingerprint);
    switch (outcome.kind) {
      case 'proceed': {
        request.idempotency = { platformId, key, token: outcome.token };
        const context = currentContext();
        if (context) context.idempotencyKey = key;
        return;
      }
      case 'replay':
        throw new IdempotentReplay(outcome.status, outcome.headers, outcome.body);
      // A reused key is the client's mistake: 400, which every idempotent operation of the contract
      // declares. A key still running answers 429 with Retry-After (declared by the quote and
      // transfer-out operations, where concurrent retries happen); docs/api.md.
      case 'mismatch':
        throw new DomainError('INVALID_INPUT', 'This Idempotency-Key was used for a different request', {
          reason: 'IDEMPOTENCY_KEY_REUSED',
          errors: [{ field: 'Idempotency-Key', constraint: {}, message: 'This Idempotency-Key was used for a different request' }],
        });
      case 'in_progress':
        throw new ApiError(
          'RATE_LIMITED',
          'A request with this Idempotency-Key is still being processed',
          { reason: 'IDEMPOTENCY_KEY_IN_PROGRESS' },
          { 'Retry-After': '1' },
        );
    }
  }
}
