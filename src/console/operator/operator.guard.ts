import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../../infra/http/api-error';
import { currentContext } from '../../infra/request-context';
import { OperatorKey } from './operator-key';

/** RFC 6750: the challenge names the scheme and the realm an operator answers with. */
export const OPERATOR_CHALLENGE = 'Bearer realm="operator"';

/**
 * The operator routes (`/console/operations*`, `GET /metrics`): `Authorization: Bearer <OPERATOR_KEY>`.
 * They are `@Public()` for the platform guard, so platform credentials never open them, and this
 * guard accepts nothing but the key, so the key never opens a platform route either.
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(private readonly key: OperatorKey) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const token = bearerToken(request.headers.authorization);
    if (token === null || !this.key.matches(token)) throw operatorUnauthorized();
    const requestContext = currentContext();
    if (requestContext) requestContext.actor = 'operator';
    return true;
  }
}

function bearerToken(header: string | undefined): string | null {
  if (!header || !/^Bearer /i.test(header)) return null;
  const token = header.slice(7).trim();
  return token === '' ? null : token;
}

export function operatorUnauthorized(): ApiError {
  return new ApiError('UNAUTHORIZED', 'Missing or invalid operator key', undefined, { 'WWW-Authenticate': OPERATOR_CHALLENGE });
}
