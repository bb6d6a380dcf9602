import { Client } from 'pg';
import { TestApp, eventually, startTestApp } from '../../support/test-app';
import { accountsByCurrency, createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';

/**
 * Concurrency: transfer-outs racing for one balance, one Idempotency-Key sent concurrently, and
 * the ledger invariant (funded - withdrawn = balances + holds) after a mixed concurrent run.
 */
describe('transfer concurrency and the ledger invariant', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const balances = async (accountId: string, api = testApp.platform.api) => {
    const account = (await api.get(`/internal-accounts/${accountId}`).expect(200)).body;
    return { available: account.balance.amount as number, total: account.totalBalance.amount as number };
  };

  it('20 concurrent transfer-outs exceeding the balance: each succeeds or fails cleanly, never below zero', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    await fund(testApp.platform.api, USD.id, 10_000);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id, '005');
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        testApp.platform.api.post('/transfer-out').send({ source: { accountId: USD.id }, destination: { accountId: external.id }, amount: 1_500 }),
      ),
    );
    const created = responses.filter((response) => response.status === 201);
    const refused = responses.filter((response) => response.status === 400);
    expect(created.length + refused.length).toBe(20);
    expect(created).toHaveLength(6);
    for (const response of refused) expect(response.body).toMatchObject({ code: 'INVALID_AMOUNT', details: { reason: 'INSUFFICIENT_FUNDS' } });
    for (const response of created) expect(response.body.status).toBe('PENDING');
    expect(await balances(USD.id)).toEqual({ available: 1_000, total: 10_000 });
    const listed = await testApp.platform.api.get('/transactions').query({ accountId: USD.id, type: 'OUTGOING' }).expect(200);
    expect(listed.body.totalCount).toBe(6);
    // Suffix 005 fails after the slow delay: every hold comes back.
    await eventually(async () => (await balances(USD.id)).available === 10_000, 15_000);
    expect(await balances(USD.id)).toEqual({ available: 10_000, total: 10_000 });
  });

  it('the same Idempotency-Key sent concurrently moves money once', async () => {
    const customer = await createIndividual(testApp.platform.api);
    const { USD } = await accountsByCurrency(testApp.platform.api, customer.id);
    await fund(testApp.platform.api, USD.id, 10_000);
    const external = await createUsdExternalAccount(testApp.platform.api, customer.id, '005');
    const key = '9b2c7f0e-53a4-4d7e-9a1b-0c2d3e4f5a6b';
    const body = { source: { accountId: USD.id }, destination: { accountId: external.id }, amount: 4_000 };
    const responses = await Promise.all(Array.from({ length: 10 }, () => testApp.platform.api.post('/transfer-out').set('Idempotency-Key', key).send(body)));
    const fresh = responses.filter((response) => response.status === 201 && response.headers['idempotent-replayed'] !== 'true');
    expect(fresh).toHaveLength(1);
    for (const response of responses) {
      if (response.status === 201) expect(response.body.id).toBe(fresh[0].body.id);
      else {
        // Still running: 429 with Retry-After (transfer-out declares 429, not 409).
        expect(response.status).toBe(429);
        expect(response.headers['retry-after']).toBe('1');
      }
    }
    expect(await balances(USD.id)).toEqual({ available: 6_000, total: 10_000 });
  });

  it('funded - withdrawn = sum of balances + holds after a concurrent mixed run', async () => {
    const platform = await testApp.createPlatform();
    const customers = await Promise.all(Array.from({ length: 3 }, () => createIndividual(platform.api)));
    const accounts = await Promise.all(customers.map(async (customer) => (await accountsByCurrency(platform.api, customer.id)).USD));
    const suffixes = ['789', '002', '004', '005'];
    const externals = await Promise.all(
      customers.map(async (customer) => Promise.all(suffixes.map((suffix) => createUsdExternalAccount(platform.api, customer.id, suffix)))),
    );
    await Promise.all(accounts.map((account) => fund(platform.api, account.id, 20_000)));

    const work: Array<Promise<unknown>> = [];
    for (let round = 0; round < 8; round++) {
      customers.forEach((_customer, index) => {
        const account = accounts[index];
        const external = externals[index][round % suffixes.length];
        work.push(platform.api.post('/transfer-out').send({ source: { accountId: account.id }, destination: { accountId: external.id }, amount: 900 + round * 100 }));
        work.push(platform.api.post('/transfer-in').send({ source: { accountId: external.id }, destination: { accountId: account.id }, amount: 300 + round }));
        if (round % 3 === 0) work.push(platform.api.post(`/sandbox/internal-accounts/${account.id}/fund`).send({ amount: 250 }));
      });
    }
    await Promise.all(work);
    await eventually(async () => {
      const pending = await platform.api.get('/transactions').query({ status: 'PENDING', limit: 1 }).expect(200);
      return pending.body.totalCount === 0;
    }, 20_000);
    // A failed transfer-out keeps its hold until its refund completes (SANDBOX_REFUND_DELAY_MS later).
    await eventually(async () => {
      const current = await Promise.all(accounts.map((account) => balances(account.id, platform.api)));
      return current.every((balance) => balance.total === balance.available);
    }, 10_000);

    const all: any[] = [];
    let cursor: string | undefined;
    do {
      const page = await platform.api.get('/transactions').query({ limit: 100, ...(cursor ? { cursor } : {}) }).expect(200);
      all.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    const completed = all.filter((transaction) => transaction.status === 'COMPLETED');
    const funded = completed.filter((transaction) => transaction.type === 'INCOMING').reduce((sum, transaction) => sum + transaction.receivedAmount.amount, 0);
    const withdrawn = completed.filter((transaction) => transaction.type === 'OUTGOING').reduce((sum, transaction) => sum + transaction.sentAmount.amount, 0);
    let totals = 0;
    for (const account of accounts) {
      const current = await balances(account.id, platform.api);
      expect(current.available).toBeGreaterThanOrEqual(0);
      expect(current.total).toBe(current.available);
      totals += current.total;
    }
    expect(totals).toBe(funded - withdrawn);

    // The same invariant from the ledger events themselves: credits - settled holds = available + held.
    const client = new Client({ connectionString: testApp.databaseUrl });
    await client.connect();
    try {
      const streams = accounts.map((account) => `internalAccount-${account.id.slice('InternalAccount:'.length)}`);
      const result = await client.query<{ type: string; amount: string }>(
        `SELECT event_type AS type, sum((data->>'amount')::bigint)::text AS amount FROM events WHERE stream_name = ANY($1) GROUP BY event_type`,
        [streams],
      );
      const sums = Object.fromEntries(result.rows.map((row) => [row.type, Number(row.amount)]));
      expect((sums.FundsCredited ?? 0) - (sums.HoldSettled ?? 0)).toBe(totals);
      expect((sums.FundsHeld ?? 0) - (sums.HoldSettled ?? 0) - (sums.HoldReleased ?? 0)).toBe(0);
    } finally {
      await client.end();
    }
  });
});
