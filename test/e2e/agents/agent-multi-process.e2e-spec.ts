import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSION } from '../../../src/app.factory';
import { createUsdExternalAccount } from '../../support/customer-fixtures';
import { assertLedgerInvariant, balances, fundedCustomer, ledgerEventTypes, transactionWithStatus } from '../../support/quote-fixtures';
import { testRedisUrl } from '../../support/database';
import { ServiceProcess, startServiceProcess, transpileService } from '../../support/service-process';
import { PlatformClient, TestApp, anonymousClient, platformClient, startTestApp } from '../../support/test-app';
import { createAgent, getMe, redeem } from './agent-fixtures';
import { actionPolicy, agentQuote, bearerClient } from './agent-action-fixtures';

/** A Node process starts the transpiled service in well under a minute, more on a busy machine. */
const SERVICE_START_TIMEOUT_MS = 240_000;
const UNAUTHORIZED = { status: 401, code: 'UNAUTHORIZED', message: 'Missing or invalid agent access token' };

/** One `api` replica: its own OS process on the shared Postgres and Redis. */
interface Replica {
  process: ServiceProcess;
  url: string;
  api: PlatformClient;
}

/**
 * Agents on a deployment with replicas (docs/agents.md "Access tokens", "Usage accounting"): two
 * `api` processes on one Postgres and Redis (the test app beside them runs the projector and the
 * workers). Nothing an agent holds lives in one process's memory: a token redeemed on one replica
 * opens the other, a deletion or a new code through one is seen by the other on the very next
 * request, and the spending race split across both never spends past the limit.
 */
describe('agents across two api processes', () => {
  let testApp: TestApp;
  let a: Replica;
  let b: Replica;
  const dataDirs: string[] = [];

  beforeAll(async () => {
    testApp = await startTestApp();
    const mainScript = transpileService();
    [a, b] = await Promise.all([startReplica(mainScript), startReplica(mainScript)]);
  }, 2 * SERVICE_START_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await Promise.all([a?.process.kill('SIGTERM'), b?.process.kill('SIGTERM')]);
    await testApp?.close();
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  async function startReplica(mainScript: string): Promise<Replica> {
    const dataDir = mkdtempSync(join(tmpdir(), 'agent-replica-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const env = {
      DATABASE_URL: testApp.databaseUrl,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: testApp.config.queuePrefix,
      DATA_DIR: dataDir,
      MASTER_KEY: testApp.config.masterKeyHex!,
      SERVICE_MODE: 'sandbox',
      HOST: '127.0.0.1',
      PORT: String(port),
    };
    const started = await startServiceProcess(['api'], env, SERVICE_START_TIMEOUT_MS, mainScript);
    const url = `http://127.0.0.1:${port}/${API_VERSION}`;
    return { process: started, url, api: platformClient(url, testApp.platform.clientId, testApp.platform.clientSecret) };
  }

  async function refusedOn(replica: Replica, token: string): Promise<void> {
    const response = await getMe(replica.url, token).expect(401);
    expect(response.body).toEqual(UNAUTHORIZED);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="Payments API", error="invalid_token"');
  }

  it('an agent redeemed through A authenticates on B, as the same agent', async () => {
    const owner = await fundedCustomer(a.api, 0);
    const { agent, deviceCode } = await createAgent(a.api, owner.customer.id);
    const token = await redeem(a.url, deviceCode.code);
    const viaB = (await getMe(b.url, token).expect(200)).body;
    expect(viaB).toEqual((await getMe(a.url, token).expect(200)).body);
    expect(viaB).toMatchObject({ id: agent.id, customerId: owner.customer.id, isConnected: true });
    expect((await b.api.get(`/agents/${agent.id}`).expect(200)).body.isConnected).toBe(true);
  });

  it('DELETE through A: the token answers 401 on B on the very next request, and on A', async () => {
    const owner = await fundedCustomer(a.api, 0);
    const { agent, deviceCode } = await createAgent(a.api, owner.customer.id);
    const token = await redeem(b.url, deviceCode.code);
    await getMe(b.url, token).expect(200);
    await getMe(a.url, token).expect(200);
    await a.api.delete(`/agents/${agent.id}`).expect(204);
    await refusedOn(b, token);
    await refusedOn(a, token);
    await b.api.get(`/agents/${agent.id}`).expect(404);
  });

  it('a reinstall redeemed through A replaces the token on B at once', async () => {
    const owner = await fundedCustomer(a.api, 0);
    const { agent, deviceCode } = await createAgent(a.api, owner.customer.id);
    const first = await redeem(a.url, deviceCode.code);
    await getMe(b.url, first).expect(200);
    const next = (await a.api.post(`/agents/${agent.id}/device-codes`).expect(201)).body;
    const second = await redeem(a.url, next.code);
    await refusedOn(b, first);
    expect((await getMe(b.url, second).expect(200)).body.id).toBe(agent.id);
  });

  it('a code regenerated on B invalidates the old one for redemption on A; the new one redeems on A', async () => {
    const owner = await fundedCustomer(a.api, 0);
    const { agent, deviceCode } = await createAgent(a.api, owner.customer.id);
    const regenerated = (await b.api.post(`/agents/${agent.id}/device-codes`).expect(201)).body;
    const refused = await anonymousClient(a.url).post(`/agents/device-codes/${deviceCode.code}/redeem`).expect(400);
    expect(refused.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'This device code was replaced by a newer one; use the newest code',
      details: { reason: 'DEVICE_CODE_INVALIDATED' },
    });
    const token = await redeem(a.url, regenerated.code);
    expect((await getMe(b.url, token).expect(200)).body.id).toBe(agent.id);
    expect((await a.api.get(`/agents/device-codes/${regenerated.code}/status`).expect(200)).body).toEqual({ code: regenerated.code, redeemed: true });
  });

  it('race: 10 executes on each process, together above the daily limit, never spend past it', async () => {
    const funds = 1_000_000;
    const owner = await fundedCustomer(a.api, funds);
    const external = await createUsdExternalAccount(a.api, owner.customer.id, '789');
    const policy = actionPolicy({ spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 100_000 }, approvalThresholds: undefined });
    const { agent, deviceCode } = await createAgent(a.api, owner.customer.id, { policy });
    const token = await redeem(a.url, deviceCode.code);
    const viaA = bearerClient(a.url, token);
    const viaB = bearerClient(b.url, token);
    const quotes = [];
    for (let index = 0; index < 20; index += 1) quotes.push(await agentQuote(index % 2 === 0 ? viaA : viaB, owner.usd.id, external.id, 10_000));
    const amount = quotes[0].totalSendingAmount;
    const fitting = Math.floor(100_000 / amount);
    expect(fitting).toBeLessThan(20);

    const answers = await Promise.all(quotes.map((quote, index) => (index % 2 === 0 ? viaA : viaB).post(`/agents/me/quotes/${quote.id}/execute`)));
    const ran = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 403);
    expect(ran).toHaveLength(fitting);
    expect(refused).toHaveLength(20 - fitting);
    for (const answer of ran) expect(answer.body.status).toBe('APPROVED');
    for (const answer of refused) expect(answer.body.details.reason).toBe('DAILY_LIMIT_EXCEEDED');

    const spent = fitting * amount;
    expect((await viaB.get('/agents/me').expect(200)).body.usage).toMatchObject({ dailySpend: spent, dailyTransactionCount: fitting });
    expect((await a.api.get(`/agents/${agent.id}`).expect(200)).body.usage).toMatchObject({ dailySpend: spent, dailyTransactionCount: fitting });
    expect((await viaA.get('/agents/me/actions').expect(200)).body.totalCount).toBe(fitting);
    // The ledger: exactly one hold per action that ran, for its amount, and the balances agree.
    const holds = (await ledgerEventTypes(testApp.databaseUrl, owner.usd.id)).filter((event) => event.type === 'FundsHeld');
    expect(holds.map((hold) => Number(hold.data.amount))).toEqual(Array(fitting).fill(amount));
    expect((await balances(a.api, owner.usd.id)).available).toBe(funds - spent);
    // The invariant compares the log with the balances: only once every payment has settled is
    // neither read ahead of the other (a settlement between the two reads broke it).
    for (const answer of ran) await transactionWithStatus(a.api, answer.body.transaction.id, 'COMPLETED');
    await assertLedgerInvariant(testApp.databaseUrl, a.api, [owner.usd.id]);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
