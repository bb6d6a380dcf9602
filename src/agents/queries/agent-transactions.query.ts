import { Injectable } from '@nestjs/common';
import { TransactionFilters, TransactionOneOf, TransactionsQuery } from '../../accounts';
import { Page, PageRequest, encodeCursor } from '../../infra/http/pagination';
import { AgentScope, allowedAccountIds, isTransactionVisible } from '../domain/policy/access';

/** The reference's filters of `GET /agents/me/transactions`: no customer, no account id of ours. */
export type AgentTransactionFilters = Omit<TransactionFilters, 'customerId' | 'platformCustomerId' | 'accountId' | 'quoteId' | 'createdBefore'>;

/**
 * The agent's customer's transactions (payments and card transactions, as `GET /transactions`
 * shows them) through the accounts context's TransactionsQuery. Under
 * account restrictions only the transactions touching an allowed account (access.ts): one list
 * per allowed account, merged into one keyset page (docs/agents.md "Agent API: reads and accounts").
 */
@Injectable()
export class AgentTransactionsQuery {
  constructor(private readonly transactions: TransactionsQuery) {}

  /** The customer's transaction, or null: unknown, another customer's, or hidden by the restrictions. */
  async findById(scope: AgentScope, transactionId: string): Promise<TransactionOneOf | null> {
    const transaction = await this.transactions.findIncludingCards(scope.platformId, transactionId);
    if (!transaction || transaction.customerId !== scope.customerId || !isTransactionVisible(scope.policy, transaction)) return null;
    return transaction;
  }

  async list(scope: AgentScope, filters: AgentTransactionFilters, page: PageRequest): Promise<Page<TransactionOneOf>> {
    const customerFilters: TransactionFilters = { ...filters, customerId: scope.customerId };
    const allowed = allowedAccountIds(scope.policy);
    if (allowed === null) return this.transactions.listIncludingCards(scope.platformId, customerFilters, page);
    const pages = await Promise.all(allowed.map((accountId) => this.transactions.listIncludingCards(scope.platformId, { ...customerFilters, accountId }, page)));
    const counted = pages.reduce((sum, each) => sum + (each.totalCount ?? 0), 0);
    const countedTwice = await this.countedTwice(scope.platformId, customerFilters, allowed);
    return unionPage(pages, page.limit, filters.sortOrder ?? 'desc', counted - countedTwice);
  }

  /**
   * Transactions between two allowed accounts are in both accounts' lists: counted once each
   * way. A transaction has two sides, so no transaction is in three lists.
   */
  private async countedTwice(platformId: string, filters: TransactionFilters, allowed: readonly string[]): Promise<number> {
    const pairs = allowed.flatMap((source) => allowed.filter((destination) => destination !== source).map((destination) => [source, destination] as const));
    // A pair the request's own sender or receiver filter excludes matches nothing.
    const possible = pairs.filter(
      ([source, destination]) =>
        (filters.senderAccountIdentifier === undefined || filters.senderAccountIdentifier === source) &&
        (filters.receiverAccountIdentifier === undefined || filters.receiverAccountIdentifier === destination),
    );
    const counts = await Promise.all(
      possible.map(async ([source, destination]) => {
        const only = await this.transactions.listIncludingCards(platformId, { ...filters, senderAccountIdentifier: source, receiverAccountIdentifier: destination }, { limit: 1, cursor: null });
        return only.totalCount ?? 0;
      }),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  }
}

/**
 * The first `limit` of several keyset pages read from the same cursor, in the same order: each
 * holds its list's first `limit` rows after the cursor, so together they hold the union's. The
 * next cursor is the last row's `(createdAt, id)`, the key every list of transactions pages on.
 */
export function unionPage(pages: Array<Page<TransactionOneOf>>, limit: number, order: 'asc' | 'desc', totalCount: number): Page<TransactionOneOf> {
  const byId = new Map(pages.flatMap((each) => each.data).map((transaction) => [transaction.id, transaction]));
  const direction = order === 'asc' ? 1 : -1;
  const rows = [...byId.values()].sort((a, b) => direction * (a.createdAt === b.createdAt ? compare(a.id, b.id) : compare(a.createdAt, b.createdAt)));
  const data = rows.slice(0, limit);
  const hasMore = rows.length > limit || pages.some((each) => each.hasMore);
  const last = data[data.length - 1];
  return { data, hasMore, ...(hasMore && last ? { nextCursor: encodeCursor({ createdAt: last.createdAt, id: last.id }) } : {}), totalCount };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
