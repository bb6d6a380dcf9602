import { Injectable } from '@nestjs/common';
import { ExternalAccountView, ExternalAccountsQuery, InternalAccountDetails, InternalAccountView, InternalAccountsQuery } from '../../accounts';
import { Page, PageRequest, toPage } from '../../infra/http/pagination';
import { AgentScope, isAccountAllowed } from '../domain/policy/access';

export interface AgentInternalAccountFilters {
  type?: InternalAccountView['type'];
  currency?: string;
}

/**
 * The agent's customer's accounts, through the accounts context's queries: internal accounts
 * within the policy's account restrictions, external accounts of the customer only (another
 * customer's or the platform's own read as unknown).
 */
@Injectable()
export class AgentAccountsQuery {
  constructor(
    private readonly internalAccounts: InternalAccountsQuery,
    private readonly externalAccounts: ExternalAccountsQuery,
  ) {}

  /**
   * Oldest first and keyset-paged on `(createdAt, id)` like `GET /internal-accounts`. A customer
   * holds a handful of accounts: they are read whole and the restriction applied here, so the
   * page, `hasMore` and `totalCount` count only what the agent may see.
   */
  async listInternal(scope: AgentScope, filters: AgentInternalAccountFilters, page: PageRequest): Promise<Page<InternalAccountView>> {
    const accounts = await this.internalAccounts.listForCustomer(scope.platformId, scope.customerId);
    const visible = accounts
      .filter(
        (account) =>
          isAccountAllowed(scope.policy, account.accountId) &&
          (filters.type === undefined || account.accountType === filters.type) &&
          (filters.currency === undefined || account.currency === filters.currency),
      )
      // Sorted on the cursor's own key: the table orders by microseconds, the cursor keeps milliseconds.
      .sort((a, b) => (a.openedAt === b.openedAt ? compare(a.accountId, b.accountId) : compare(a.openedAt, b.openedAt)));
    const after = page.cursor ? visible.filter((account) => isAfter(account, page.cursor!)) : visible;
    return toPage(
      after.slice(0, page.limit + 1),
      page.limit,
      (account) => account.view,
      (account) => ({ createdAt: account.openedAt, id: account.accountId }),
      visible.length,
    );
  }

  listExternal(scope: AgentScope, currency: string | undefined, page: PageRequest): Promise<Page<ExternalAccountView>> {
    return this.externalAccounts.list(scope.platformId, { customerId: scope.customerId, currency }, page);
  }

  /** The customer's live external account, or null (unknown, deleted, another customer's or the platform's own). */
  async findExternal(scope: AgentScope, externalAccountId: string): Promise<ExternalAccountView | null> {
    const view = await this.externalAccounts.findView(scope.platformId, externalAccountId);
    return view?.customerId === scope.customerId ? view : null;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Strictly after the cursor's `(createdAt, id)` in the order above. */
function isAfter(account: InternalAccountDetails, cursor: Record<string, unknown>): boolean {
  const createdAt = String(cursor.createdAt);
  return account.openedAt > createdAt || (account.openedAt === createdAt && account.accountId > String(cursor.id));
}
