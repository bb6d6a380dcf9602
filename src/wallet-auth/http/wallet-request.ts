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

/**
 * `GET /auth/delegated-keys`: `accountId`, `fundingSourceId` or both (they combine), each an id of
 * its type; anything else is a bad parameter. The list is not paginated (the reference's answer is
 * `data` alone: a wallet funds few cards, each with few keys).
 */
export function readDelegatedKeyFilters(query: Record<string, unknown>): { accountId?: string; fundingSourceId?: string } {
  const errors: FieldError[] = [];
  const filters: { accountId?: string; fundingSourceId?: string } = {};
  for (const name of Object.keys(query)) {
    if (name !== 'accountId' && name !== 'fundingSourceId') errors.push({ field: name, constraint: {}, message: `Unknown query parameter ${name}` });
  }
  for (const [name, prefix] of [['accountId', 'InternalAccount'], ['fundingSourceId', 'CardFundingSource']] as const) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value === 'string' && parseId(prefix, value)) filters[name] = value;
    else errors.push({ field: name, constraint: { format: `${prefix}-id` }, message: `${name} must be a ${prefix}:<uuid> id` });
  }
  if (query.accountId === undefined && query.fundingSourceId === undefined) {
    errors.push({ field: 'accountId', constraint: {}, message: 'Give accountId, fundingSourceId or both' });
  }
  throwIfAny(errors);
  return filters;
}
