import { ExecutionContext } from '@nestjs/common';
import { AppConfig } from '../../infra/config';
import { ApiError } from '../../infra/http/api-error';
import { RequestContext, currentContext, runWithContext } from '../../infra/request-context';
import { OperatorKey } from './operator-key';
import { OPERATOR_CHALLENGE, OperatorGuard } from './operator.guard';

const KEY = 'operator-key-for-the-guard-spec-0123456789';

function contextWith(authorization: string | undefined): ExecutionContext {
  const request = { headers: authorization === undefined ? {} : { authorization } };
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

function refusal(guard: OperatorGuard, authorization: string | undefined): ApiError {
  try {
    guard.canActivate(contextWith(authorization));
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('the guard let the request through');
}

describe('OperatorGuard', () => {
  const guard = new OperatorGuard(new OperatorKey({ mode: 'production', console: { operatorKey: KEY, lagSampleIntervalMs: 10_000 } } as AppConfig));

  it('lets the operator key through as a Bearer token, and names the operator as the actor', () => {
    const context = { requestId: 'r', correlationId: 'c', causationId: 'r', platformId: null, actor: 'anonymous', idempotencyKey: null, lastPosition: null } as RequestContext;
    runWithContext(context, () => {
      expect(guard.canActivate(contextWith(`Bearer ${KEY}`))).toBe(true);
      expect(currentContext()?.actor).toBe('operator');
    });
    expect(guard.canActivate(contextWith(`bearer  ${KEY} `))).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['an empty token', 'Bearer '],
    ['a wrong key', `Bearer ${KEY}x`],
    ['the key without the scheme', KEY],
    ['platform credentials', `Basic ${Buffer.from('client:secret').toString('base64')}`],
  ])('refuses %s with 401 and the operator challenge', (_case, authorization) => {
    const error = refusal(guard, authorization);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.headers).toEqual({ 'WWW-Authenticate': OPERATOR_CHALLENGE });
  });

  it('refuses every token when no key is configured', () => {
    const closed = new OperatorGuard(new OperatorKey({ mode: 'production', console: { operatorKey: null, lagSampleIntervalMs: 10_000 } } as AppConfig));
    expect(refusal(closed, `Bearer ${KEY}`).code).toBe('UNAUTHORIZED');
  });
});
