import { Client } from 'pg';
import { PlatformClient, eventually } from './test-app';
import { accountsByCurrency, createIndividual, createUsdExternalAccount, fund } from './customer-fixtures';

/**
 * Fixtures for quote tests, all through the public HTTP API: an approved customer with a funded
 * USD account and an external USD account whose number ends in a sandbox suffix.
 */
export interface FundedCustomer {
  customer: any;
  accounts: Record<string, any>;
  usd: any;
}

export async function fundedCustomer(api: PlatformClient, amount = 1_000_000, fields: Record<string, unknown> = {}): Promise<FundedCustomer> {
  const customer = await createIndividual(api, fields);
  const accounts = await accountsByCurrency(api, customer.id);
  if (amount > 0) await fund(api, accounts.USD.id, amount);
  return { customer, accounts, usd: accounts.USD };
}

export function accountQuoteBody(sourceAccountId: string, destinationAccountId: string, amount = 10_000, extra: Record<string, unknown> = {}) {
  return {
    source: { sourceType: 'ACCOUNT', accountId: sourceAccountId },
    destination: { destinationType: 'ACCOUNT', accountId: destinationAccountId },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
    ...extra,
  };
}

/** A PENDING quote from `sourceAccountId` to a new USD external account ending in `suffix`. */
export async function quoteToSuffix(api: PlatformClient, owner: FundedCustomer, suffix: string, amount = 10_000): Promise<any> {
  const external = await createUsdExternalAccount(api, owner.customer.id, suffix);
  const response = await api.post('/quotes').send(accountQuoteBody(owner.usd.id, external.id, amount));
  if (response.status !== 201) throw new Error(`quoteToSuffix: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function balances(api: PlatformClient, accountId: string): Promise<{ available: number; total: number }> {
  const account = (await api.get(`/internal-accounts/${accountId}`).expect(200)).body;
  return { available: account.balance.amount, total: account.totalBalance.amount };
}

/** Polls GET /quotes/{id} until it shows `status`. */
export async function quoteWithStatus(api: PlatformClient, quoteId: string, status: string, timeoutMs = 10_000): Promise<any> {
  return eventually(async () => {
    const response = await api.get(`/quotes/${quoteId}`);
    return response.status === 200 && response.body.status === status && response.body;
  }, timeoutMs);
}

export async function transactionWithStatus(api: PlatformClient, transactionId: string, status: string, timeoutMs = 10_000): Promise<any> {
  return eventually(async () => {
    const response = await api.get(`/transactions/${transactionId}`);
    return response.status === 200 && response.body.status === status && response.body;
  }, timeoutMs);
}

/** Ledger event types of an internal account, in stream order. */
export async function ledgerEventTypes(databaseUrl: string, accountId: string): Promise<Array<{ type: string; data: any }>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ type: string; data: any }>(
      `SELECT event_type AS type, data FROM events WHERE stream_name = $1 ORDER BY stream_revision`,
      [`internalAccount-${accountId.slice('InternalAccount:'.length)}`],
    );
    return result.rows;
  } finally {
    await client.end();
  }
}

/**
 * The ledger invariant over the given accounts, from their events: credits - settled holds =
 * available + held, every hold placed is settled, released or still held, nothing negative.
 */
export async function assertLedgerInvariant(databaseUrl: string, api: PlatformClient, accountIds: string[]): Promise<{ credited: number; settled: number; total: number }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const streams = accountIds.map((id) => `internalAccount-${id.slice('InternalAccount:'.length)}`);
    const result = await client.query<{ type: string; amount: string }>(
      `SELECT event_type AS type, coalesce(sum((data->>'amount')::bigint), 0)::text AS amount FROM events WHERE stream_name = ANY($1) GROUP BY event_type`,
      [streams],
    );
    const sums = Object.fromEntries(result.rows.map((row) => [row.type, Number(row.amount)]));
    let total = 0;
    let held = 0;
    for (const accountId of accountIds) {
      const current = await balances(api, accountId);
      if (current.available < 0 || current.total < current.available) throw new Error(`negative balance on ${accountId}`);
      total += current.total;
      held += current.total - current.available;
    }
    const credited = sums.FundsCredited ?? 0;
    const settled = sums.HoldSettled ?? 0;
    if (credited - settled !== total) throw new Error(`ledger invariant broken: credited ${credited} - settled ${settled} != balances ${total}`);
    const placed = (sums.FundsHeld ?? 0) - settled - (sums.HoldReleased ?? 0);
    if (placed !== held) throw new Error(`holds broken: held by events ${placed} != held on accounts ${held}`);
    return { credited, settled, total };
  } finally {
    await client.end();
  }
}
