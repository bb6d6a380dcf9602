import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { DomainError } from '../domain/domain-error';
import { logger } from '../logger';
import { statusForCode } from './error-catalogue';
import { ApiError, IdempotentReplay } from './api-error';
import { dependencyUnavailableAnswer, isDependencyUnavailable } from './dependency-errors';
import { IdempotencyHandle, IdempotencyService } from './idempotency.service';
import { bodyReadingError } from './request-body';
import { toWireJson } from './wire-json';

interface ErrorBody {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * The one place errors are rendered: `{status, code, message, details?}` (SPEC.md "Errors"),
 * JSON 404/405 for unknown routes, no internals on a 500. Also stores 4xx answers under the
 * request's Idempotency-Key and frees the key on a 5xx.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(IdempotencyService) private readonly idempotency: IdempotencyService,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const request = http.getRequest<Request & { idempotency?: IdempotencyHandle }>();
    const response = http.getResponse<Response>();
    if (exception instanceof IdempotentReplay) {
      response.status(exception.status);
      for (const [name, value] of Object.entries(exception.headers)) response.setHeader(name, value);
      response.setHeader('Idempotent-Replayed', 'true');
      response.type('application/json').send(exception.body);
      return;
    }
    // body-parser's and zlib's errors become the 4xx they are before anything renders them.
    const { body, headers } = this.toErrorBody(bodyReadingError(exception) ?? exception, request);
    const text = toWireJson(body);
    const handle = request.idempotency;
    if (handle) {
      request.idempotency = undefined;
      try {
        if (body.status >= 500) await this.idempotency.release(handle);
        else await this.idempotency.complete(handle, body.status, headers, text);
      } catch (error) {
        logger.error('idempotency record update failed', { error: String(error) });
      }
    }
    if (response.headersSent) return;
    response.status(body.status);
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    response.type('application/json').send(text);
  }

  private toErrorBody(exception: unknown, request: Request): { body: ErrorBody; headers: Record<string, string> } {
    if (isDependencyUnavailable(exception)) return dependencyUnavailableAnswer(exception);
    if (exception instanceof DomainError) {
      const status = statusForCode(exception.code);
      if (status === undefined) {
        logger.error('error code missing from the catalogue', { code: exception.code, message: exception.message });
        return { body: internalError(), headers: {} };
      }
      const body: ErrorBody = { status, code: exception.code, message: exception.message };
      if (exception.details !== undefined) body.details = exception.details;
      return { body, headers: exception instanceof ApiError ? exception.headers : {} };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const message = exception.message;
      if (status === 404 && /^Cannot [A-Z]+ /.test(message)) {
        const allowed = this.allowedMethods(request.path);
        if (allowed.length > 0) {
          return {
            body: { status: 405, code: 'METHOD_NOT_ALLOWED', message: `${request.method} is not allowed on ${request.path}` },
            headers: { Allow: allowed.join(', ') },
          };
        }
        return { body: { status: 404, code: 'NOT_FOUND', message: `No route ${request.method} ${request.path}` }, headers: {} };
      }
      if (status === 400) {
        // Nest rethrows the JSON body parser's SyntaxError, and Express's URIError for a path
        // parameter that is not percent-encoded UTF-8, as a BadRequestException of their message.
        if (/^Failed to decode param/.test(exception.message)) {
          const message = 'The request path is not valid percent-encoded UTF-8';
          return { body: { status: 400, code: 'INVALID_INPUT', message, details: { errors: [{ field: 'path', constraint: {}, message }] } }, headers: {} };
        }
        const message = /JSON/.test(exception.message) ? 'The request body is not valid JSON' : 'The request is malformed';
        return { body: notJson(message), headers: {} };
      }
      if (status === 413) {
        return { body: { status: 400, code: 'INVALID_INPUT', message: 'The request body is too large' }, headers: {} };
      }
      const code = status === 401 ? 'UNAUTHORIZED' : status === 403 ? 'FORBIDDEN' : status === 404 ? 'NOT_FOUND' : undefined;
      if (code) return { body: { status, code, message }, headers: {} };
    }
    logger.error('unhandled error', {
      error: exception instanceof Error ? `${exception.name}: ${exception.message}` : String(exception),
      stack: exception instanceof Error ? exception.stack : undefined,
    });
    return { body: internalError(), headers: {} };
  }

  /** Methods registered for a path, to tell 405 from 404. */
  private allowedMethods(path: string): string[] {
    const instance = this.adapterHost.httpAdapter.getInstance() as { router?: { stack: unknown[] }; _router?: { stack: unknown[] } };
    const stack = (instance.router ?? instance._router)?.stack ?? [];
    const methods = new Set<string>();
    for (const layer of stack as Array<{ route?: { methods: Record<string, boolean> }; match?: (p: string) => boolean }>) {
      if (!layer.route || typeof layer.match !== 'function') continue;
      try {
        if (layer.match(path)) for (const method of Object.keys(layer.route.methods)) methods.add(method.toUpperCase());
      } catch {
        // A layer that cannot match this path is simply not a candidate.
      }
    }
    methods.delete('_ALL');
    return [...methods].sort();
  }
}

function internalError(): ErrorBody {
  return { status: 500, code: 'INTERNAL_ERROR', message: 'Internal error' };
}

/** A body that cannot be read is a field error too: clients find every 400's causes in details.errors. */
function notJson(message: string): ErrorBody {
  return { status: 400, code: 'INVALID_INPUT', message, details: { errors: [{ field: 'body', constraint: { format: 'json' }, message }] } };
}
