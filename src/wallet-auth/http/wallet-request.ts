import type { Request } from 'express';
import { FieldError } from '../../infra/domain/domain-error';
import { AuthenticatedPlatform } from '../../infra/http/platform-auth.guard';
import { throwIfAny } from '../../infra/http/validation';
import { parseId } from '../../infra/ids';
import { SignedCallHeaders } from '../services/signed-requests';

export type PlatformRequest = Request & { platform: AuthenticatedPlatform };

/** The signed-retry headers: `Service-Wallet-Signature` and `Request-Id` (SPEC.md "Authentication" 3). */
export function signedCallHeaders(request: Request): SignedCallHeaders {
  return { signature: request.headers['service-wallet-signature'], requestId: request.headers['request-id'] };
}

/** `?accountId=` of the credential and session lists: required, an InternalAccount id, nothing else. */
export function requireAccountIdQuery(query: Record<string, unknown>): string {
  const errors: FieldError[] = [];
  for (const name of Object.keys(query)) {
    if (name !== 'accountId') errors.push({ field: name, constraint: {}, message: `Unknown query parameter ${name}` });
  }
  const accountId = query.accountId;
  if (accountId === undefined) errors.push({ field: 'accountId', constraint: {}, message: 'accountId is required' });
  else if (typeof accountId !== 'string' || !parseId('InternalAccount', accountId)) {
    errors.push({ field: 'accountId', constraint: { format: 'InternalAccount-id' }, message: 'accountId must be an InternalAccount:<uuid> id' });
  }
  throwIfAny(errors);
  return accountId as string;
}
