import { TransactionFilters, TransactionOneOf, TransactionsQuery, WireTransaction } from '../../accounts';
import { Page, PageRequest, decodeCursor, toPage } from '../../infra/http/pagination';
import { AgentPolicy } from '../domain/policy/agent-policy';
import { AgentTransactionsQuery } from './agent-transactions.query';

const USD = 'InternalAccount:0199a000-0000-7000-8000-000000000001';
const EUR = 'InternalAccount:0199a000-0000-7000-8000-000000000002';
const GBP = 'InternalAccount:0199a000-0000-7000-8000-000000000003';
const PAYEE = 'ExternalAccount:0199a000-0000-7000-8000-000000000004';
const CUSTOMER = 'Customer:0199a000-0000-7000-8000-000000000005';

function transaction(n: number, source: string, destination: string): WireTransaction {
  return {
    id: `Transaction:0199a000-0000-7000-8000-00000000010${n}`,
    createdAt: `2026-01-0${n}T00:00:00.000Z`,
    customerId: CUSTOMER,
    source: { sourceType: 'ACCOUNT', accountId: source, currency: 'USD' },
    destination: { destinationType: 'ACCOUNT', accountId: destination, currency: 'USD' },
  } as WireTransaction;
}

/** Oldest to newest: into USD, USD to EUR (both allowed below), out of GBP, EUR out. */
const ROWS = [transaction(1, PAYEE, USD), transaction(2, USD, EUR), transaction(3, GBP, PAYEE), transaction(4, EUR, PAYEE)];

/** TransactionsQuery's contract over ROWS: the filters used here, newest first, keyset pages. */
class FakeTransactions {
  async listIncludingCards(_platformId: string, filters: TransactionFilters, page: PageRequest): Promise<Page<WireTransaction>> {
    const sides = (row: WireTransaction) => [row.source?.accountId, row.destination.accountId];
    const matching = ROWS.filter(
      (row) =>
        (filters.accountId === undefined || sides(row).includes(filters.accountId)) &&
        (filters.senderAccountIdentifier === undefined || row.source?.accountId === filters.senderAccountIdentifier) &&
        (filters.receiverAccountIdentifier === undefined || row.destination.accountId === filters.receiverAccountIdentifier),
    ).sort((a, b) => (filters.sortOrder === 'asc' ? 1 : -1) * a.createdAt.localeCompare(b.createdAt));
    const cursor = page.cursor;
    const after = cursor ? matching.filter((row) => (filters.sortOrder === 'asc' ? row.createdAt > String(cursor.createdAt) : row.createdAt < String(cursor.createdAt))) : matching;
    return toPage(after.slice(0, page.limit + 1), page.limit, (row) => row, (row) => ({ createdAt: row.createdAt, id: row.id }), matching.length);
  }
}

function scope(allowedAccountIds: string[] | null) {
  const policy = { accountRestrictions: allowedAccountIds && { allowedAccountIds, accountRules: [] } } as AgentPolicy;
  return { platformId: 'Platform:x', customerId: CUSTOMER, policy };
}

const query = new AgentTransactionsQuery(new FakeTransactions() as unknown as TransactionsQuery);
const idsOf = (page: Page<TransactionOneOf>) => page.data.map((row) => Number(row.id.slice(-1)));

describe('agent transactions under account restrictions', () => {
  it('merges one list per allowed account, counting a transaction between two of them once', async () => {
    const page = await query.list(scope([USD, EUR]), {}, { limit: 20, cursor: null });
    expect(idsOf(page)).toEqual([4, 2, 1]);
    expect(page).toMatchObject({ hasMore: false, totalCount: 3 });
  });

  it('pages the merged list with the cursor of its last row, in either order', async () => {
    const first = await query.list(scope([USD, EUR]), { sortOrder: 'asc' }, { limit: 2, cursor: null });
    expect(idsOf(first)).toEqual([1, 2]);
    expect(first.hasMore).toBe(true);
    const second = await query.list(scope([USD, EUR]), { sortOrder: 'asc' }, { limit: 2, cursor: decodeCursor(first.nextCursor!) });
    expect(idsOf(second)).toEqual([4]);
    expect(second).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(second.nextCursor).toBeUndefined();
  });

  it("keeps the request's sender and receiver filters in the count", async () => {
    const page = await query.list(scope([USD, EUR]), { senderAccountIdentifier: USD }, { limit: 20, cursor: null });
    expect(idsOf(page)).toEqual([2]);
    expect(page.totalCount).toBe(1);
  });

  it('one allowed account, none, or no restriction at all', async () => {
    expect(idsOf(await query.list(scope([GBP]), {}, { limit: 20, cursor: null }))).toEqual([3]);
    expect(await query.list(scope([]), {}, { limit: 20, cursor: null })).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect(idsOf(await query.list(scope(null), {}, { limit: 20, cursor: null }))).toEqual([4, 3, 2, 1]);
  });
});
