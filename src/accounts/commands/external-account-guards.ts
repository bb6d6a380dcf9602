import { DomainError } from '../../infra/domain/domain-error';
import { ExternalAccountState } from '../domain/external-account/external-account.decider';
import { externalAccountNotFound } from '../domain/external-account/external-account.errors';

export type ExistingExternalAccount = Exclude<ExternalAccountState, { status: 'none' }>;

/**
 * Which of a platform's external accounts a route reaches: ANY under `/customers/external-accounts`
 * (its customers' and its own, as `GET /internal-accounts` lists both), PLATFORM under
 * `/platform/external-accounts` (its own only).
 */
export type ExternalAccountScope = 'ANY' | 'PLATFORM';

/** This platform's live account in `scope`, else 404 (another platform's account reads as unknown). */
export function assertOwned(state: ExternalAccountState, platformId: string, scope: ExternalAccountScope = 'ANY'): asserts state is ExistingExternalAccount {
  if (state.status !== 'active' || state.platformId !== platformId) throw externalAccountNotFound();
  if (scope === 'PLATFORM' && state.customerId !== null) throw externalAccountNotFound();
}

/** The account as recorded (404 when there is none). */
export function existing(state: ExternalAccountState): ExistingExternalAccount {
  if (state.status === 'none') throw externalAccountNotFound();
  return state;
}

/**
 * The trust operations declare 400, 404 and 409 only: an SCA lock (423 ACCOUNT_LOCKED elsewhere)
 * is a state conflict here, with the lock's details and its reason.
 */
export function asDeclaredTrustError(error: unknown): never {
  if (error instanceof DomainError && error.code === 'ACCOUNT_LOCKED') {
    throw new DomainError('CONFLICT', error.message, { reason: 'ACCOUNT_LOCKED', ...(error.details ?? {}) });
  }
  throw error;
}
