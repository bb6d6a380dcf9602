import { DomainError } from '../../../infra/domain/domain-error';
import { CustomerEvent } from './customer.events';

/** The customer decider's `OpenInternalAccounts` (split out to keep the decider small). */
export function decideInternalAccounts(
  command: { accounts: Array<{ accountId: string; currency: string }>; now: string },
  state: { status: 'none' } | { status: 'active' | 'deleted'; customerId: string; platformId: string; internalAccountIds?: string[] },
): CustomerEvent[] {
  if (state.status === 'none') throw new DomainError('USER_NOT_FOUND', 'Customer not found');
  // An account already recorded here was decided while the customer was active: opening it
  // finishes that decision (a crash between the two appends), even after a deletion.
  const recorded = new Set(state.internalAccountIds ?? []);
  const accounts = command.accounts.filter((account) => !recorded.has(account.accountId));
  if (accounts.length === 0) return [];
  if (state.status === 'deleted') throw new DomainError('CUSTOMER_DELETED', 'The customer was deleted');
  return [
    {
      type: 'CustomerInternalAccountsOpened',
      data: { customerId: state.customerId, platformId: state.platformId, accounts, openedAt: command.now },
    },
  ];
}
