import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createIndividual, createUsdExternalAccount, fund } from '../../support/customer-fixtures';
import { assertLedgerInvariant } from '../../support/quote-fixtures';
import { ServiceProcess, startServiceProcess, transpileService } from '../../support/service-process';
import { FAST_SANDBOX_ENV, PlatformClient, eventually, platformClient } from '../../support/test-app';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { freePort, isAlive } from './support/built-service';
import { runCli } from './support/cli';

/**
 * Fault injection on the service as `npm start` runs it: its own OS process, with its own
 * embedded Postgres and redis-server under their supervisors. Under a steady load of quote flows
 * (create + execute, 5 a second, webhooks to a live receiver), redis-server, then the Postgres
 * postmaster, then the service itself are killed with SIGKILL. Meanwhile every answer is a 2xx
 * or a 503 (never a 500); afterwards nothing is stuck, the money adds up, every webhook arrived,
 * and the read models agree with the log. Finally SIGTERM with both stores just killed still
 * stops the service with exit code 0.
 */
jest.setTimeout(240_000);

const API_VERSION = '2025-10-13';
const FLOWS_PER_SECOND = 5;
/** Flows in flight at once at most: a flow that cannot start (the service stalled) is skipped. */
const MAX_FLOWS_IN_FLIGHT = 20;
const FUNDED_AMOUNT = 5_000_000;
const QUOTE_AMOUNT = 1_000;
/** Every phase's wait for a recovery, and the final wait for the executed quotes to settle. */
const RECOVERY_TIMEOUT_MS = 45_000;

type Phase = 'steady' | 'redis-killed' | 'postgres-killed' | 'service-killed';

interface Answer {
  /** The phases the request was in flight through (a kill may come while it is). */
  phases: Phase[];
  request: string;
  status: number | 'network-error';
  body?: string;
  retryAfter?: string | null;
  /** Milliseconds since the load started, when the request was sent. */
  sentAtMs: number;
}

interface Pair {
  sourceAccountId: string;
  destinationAccountId: string;
}

describe('faults: Postgres, Redis and the service killed under load', () => {
  let dataDir: string;
  let mainScript: string;
  let service: ServiceProcess | null = null;
  let receiver: WebhookReceiver | null = null;

  beforeAll(() => {
    mainScript = transpileService();
    dataDir = mkdtempSync(join(tmpdir(), 'e2e-faults-'));
    chmodSync(dataDir, 0o755); // As root, postgres runs as the `postgres` user, which must enter it.
  });

  afterAll(async () => {
    await service?.kill('SIGKILL');
    await receiver?.close();
    // The supervisors stop their servers once the service is gone; wait for them before deleting.
    await eventually(async () => !livePid(postmasterPidFile()) && !livePid(redisPidFile()), 30_000).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const postmasterPidFile = () => join(dataDir, 'postgres', 'postmaster.pid');
  const redisPidFile = () => join(dataDir, 'redis', 'redis.pid');

  function start(port: number): Promise<ServiceProcess> {
    return startServiceProcess(
      [],
      {
        // As `npm start`: no external stores, all roles, the projector in its thread.
        DATABASE_URL: '',
        REDIS_URL: '',
        EVENTSTORE_CONNECTION_STRING: '',
        JEST_WORKER_ID: '',
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'warn',
        ...FAST_SANDBOX_ENV,
        // Webhook jobs left active by the killed service run again within seconds, not a minute.
        WEBHOOK_LOCK_DURATION_MS: '2000',
        WEBHOOK_STALLED_INTERVAL_MS: '1000',
        WEBHOOK_RETRY_BASE_DELAY_MS: '500',
      },
      120_000,
      mainScript,
    );
  }

  it('answers 2xx or 503 through each kill, then settles every quote, delivers every webhook and verifies clean', async () => {
    const port = await freePort();
    service = await start(port);
    const baseUrl = `http://127.0.0.1:${port}/${API_VERSION}`;
    const credentials = JSON.parse(readFileSync(join(dataDir, 'sandbox-credentials.json'), 'utf8')) as { clientId: string; clientSecret: string };
    const api = platformClient(baseUrl, credentials.clientId, credentials.clientSecret);
    const authorization = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
    const databaseUrl = embeddedDatabaseUrl(dataDir);

    // The receiver first, so every webhook of what follows is for it.
    receiver = await WebhookReceiver.forPlatform(api);
    const earlierWebhookIds = new Set(await webhookIds(databaseUrl));
    const pairs = await Promise.all(['789', '789', '789', '002'].map((suffix) => fundedPair(api, suffix)));

    // The load: a flow every 200 ms, through plain fetch (a 503 is not an error of the contract
    // under test here, and the answers are checked below one by one).
    const answers: Answer[] = [];
    const quoteIds: string[] = [];
    const loadStartedAt = Date.now();
    /** Every phase so far, the current one last. */
    const phases: Phase[] = ['steady'];
    /** When each phase began (ms since the load started), and the output of services killed, for failure messages. */
    const timeline: string[] = [];
    const setPhase = (next: Phase) => {
      phases.push(next);
      timeline.push(`${Date.now() - loadStartedAt} ms: ${next}`);
    };
    let earlierOutput = '';
    let inFlight = 0;
    let flowIndex = 0;
    const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any } | null> => {
      const sentInPhase = phases.length - 1;
      const through = () => phases.slice(sentInPhase);
      const sentAtMs = Date.now() - loadStartedAt;
      try {
        const response = await fetch(`${baseUrl}${path}`, {
          method,
          headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        });
        const text = await response.text();
        answers.push({
          phases: through(),
          sentAtMs,
          request: `${method} ${path}`,
          status: response.status,
          ...(response.status >= 300 ? { body: text, retryAfter: response.headers.get('retry-after') } : {}),
        });
        return { status: response.status, json: text ? JSON.parse(text) : null };
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause;
        answers.push({ phases: through(), sentAtMs, request: `${method} ${path}`, status: 'network-error', body: `${error} ${cause ?? ''}` });
        return null;
      }
    };
    const flow = async (pair: Pair) => {
      const created = await call('POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: pair.sourceAccountId },
        destination: { destinationType: 'ACCOUNT', accountId: pair.destinationAccountId },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: QUOTE_AMOUNT,
      });
      if (created?.status !== 201) return;
      quoteIds.push(created.json.id);
      await call('POST', `/quotes/${created.json.id}/execute`);
    };
    const load = setInterval(() => {
      if (inFlight >= MAX_FLOWS_IN_FLIGHT) return;
      inFlight++;
      void flow(pairs[flowIndex++ % pairs.length]).finally(() => inFlight--);
    }, 1000 / FLOWS_PER_SECOND);

    try {
      await sleep(3_000);

      // 1. redis-server: restarted by its supervisor on the same port; writes answer 503 meanwhile.
      const redisPid = readPid(redisPidFile());
      setPhase('redis-killed');
      process.kill(redisPid, 'SIGKILL');
      await recovered(baseUrl, redisPidFile(), redisPid);
      setPhase('steady');
      await sleep(3_000);

      // 2. The Postgres postmaster: restarted (crash recovery) on the same port and socket.
      const postmasterPid = readPid(postmasterPidFile());
      setPhase('postgres-killed');
      process.kill(postmasterPid, 'SIGKILL');
      await recovered(baseUrl, postmasterPidFile(), postmasterPid);
      setPhase('steady');
      await sleep(3_000);

      // 3. The service itself: its supervisors stop both stores; a new start takes over the data.
      const [postgresBefore, redisBefore] = [readPid(postmasterPidFile()), readPid(redisPidFile())];
      setPhase('service-killed');
      await service.kill('SIGKILL');
      earlierOutput = service.output();
      await eventually(async () => !isAlive(postgresBefore) && !isAlive(redisBefore), 30_000);
      service = await start(port);
      setPhase('steady');
      await sleep(3_000);
    } finally {
      clearInterval(load);
    }
    await eventually(async () => inFlight === 0, 30_000);

    // Never a 500 (nor any other failure): a 503 only while a store was down, and no answer at
    // all only while the service itself was.
    const unexpected = answers.filter(
      (answer) =>
        !(typeof answer.status === 'number' && answer.status < 300) &&
        !(answer.status === 503 && answer.phases.some((phase) => phase !== 'steady')) &&
        !(answer.status === 'network-error' && answer.phases.includes('service-killed')),
    );
    if (unexpected.length > 0) {
      throw new Error(
        `unexpected answers: ${JSON.stringify(unexpected, null, 1)}\ntimeline: ${timeline.join(', ')}\n` +
          `first service's output (tail):\n${earlierOutput.slice(-6000)}\nservice output (tail):\n${service.output().slice(-6000)}`,
      );
    }
    // The kills did bite: some requests were refused (else this test would prove nothing), each
    // with the catalogue's code and a Retry-After.
    const refused = answers.filter((answer) => answer.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter((answer) => JSON.parse(answer.body!).code !== 'SERVICE_UNAVAILABLE' || !/^\d+$/.test(answer.retryAfter ?? ''))).toEqual([]);

    // Nothing stuck: every quote the load created ends COMPLETED or FAILED when it was executed
    // (whatever its execute answered), else it is still PENDING (its execute was refused).
    const finalQuotes = await eventually(async () => {
      const quotes = await Promise.all(quoteIds.map(async (id) => (await api.get(`/quotes/${id}`).expect(200)).body));
      return quotes.every((quote) => ['COMPLETED', 'FAILED', 'PENDING'].includes(quote.status)) ? quotes : null;
    }, RECOVERY_TIMEOUT_MS).catch(async (error) => {
      const quotes = await Promise.all(quoteIds.map(async (id) => (await api.get(`/quotes/${id}`)).body));
      throw new Error(`${error}: ${JSON.stringify(quotes.filter((quote) => !['COMPLETED', 'FAILED', 'PENDING'].includes(quote.status)).map((quote) => [quote.id, quote.status]))}\n${service!.output().slice(-5000)}`);
    });
    const completed = finalQuotes.filter((quote) => quote.status === 'COMPLETED');
    const failed = finalQuotes.filter((quote) => quote.status === 'FAILED');
    expect(completed.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    const executedOk = answers.filter((answer) => /\/execute$/.test(answer.request) && answer.status === 200).length;
    expect(completed.length + failed.length).toBeGreaterThanOrEqual(executedOk);

    // Balances exact: the ledger's invariant over every account, no hold left, and each source
    // account short by exactly what its completed quotes sent. A failed quote's hold comes back
    // when its refund ends (SANDBOX_REFUND_DELAY_MS after the failure): wait for the last one.
    await eventually(async () => {
      const accounts = await Promise.all(pairs.map(async (pair) => (await api.get(`/internal-accounts/${pair.sourceAccountId}`).expect(200)).body));
      return accounts.every((account) => account.balance.amount === account.totalBalance.amount);
    }, RECOVERY_TIMEOUT_MS);
    await assertLedgerInvariant(databaseUrl, api, pairs.map((pair) => pair.sourceAccountId));
    for (const pair of pairs) {
      const account = (await api.get(`/internal-accounts/${pair.sourceAccountId}`).expect(200)).body;
      const sent = completed
        .filter((quote) => quote.source.accountId === pair.sourceAccountId)
        .reduce((sum, quote) => sum + quote.totalSendingAmount, 0);
      expect({ account: pair.sourceAccountId, total: account.totalBalance.amount, available: account.balance.amount }).toEqual({
        account: pair.sourceAccountId,
        total: FUNDED_AMOUNT - sent,
        available: FUNDED_AMOUNT - sent,
      });
    }

    // Webhooks: at least once, with the same id on a repeat. Every delivery the service recorded
    // was delivered and arrived, nothing arrived that it did not record, and every settled quote
    // was announced.
    const expectedIds = await eventually(async () => {
      const rows = await deliveries(databaseUrl);
      const open = rows.filter((row) => !earlierWebhookIds.has(row.webhookId) && row.status !== 'DELIVERED');
      return open.length === 0 ? rows.filter((row) => !earlierWebhookIds.has(row.webhookId)).map((row) => row.webhookId) : null;
    }, RECOVERY_TIMEOUT_MS);
    const receivedIds = new Set(receiver.ids());
    expect(expectedIds.filter((id) => !receivedIds.has(id))).toEqual([]);
    expect([...receivedIds].filter((id) => !expectedIds.includes(id) && !earlierWebhookIds.has(id))).toEqual([]);
    expect(receiver.received.filter((entry) => entry.signatureValid !== true)).toEqual([]);
    const announced = (type: string, transactionId: string) =>
      receiver!.received.some((entry) => entry.body.type === type && entry.body.data?.id === transactionId);
    expect(completed.filter((quote) => !announced('OUTGOING_PAYMENT.COMPLETED', quote.transactionId)).map((quote) => quote.id)).toEqual([]);
    expect(failed.filter((quote) => !announced('OUTGOING_PAYMENT.FAILED', quote.transactionId)).map((quote) => quote.id)).toEqual([]);

    // The read models are what the log makes of them.
    const verify = await runCli('projections', ['verify'], databaseUrl);
    expect({ code: verify.code, stderr: verify.stderr }).toEqual({ code: 0, stderr: expect.any(String) });

    // SIGTERM right after both stores were killed: the shutdown does not wait on them, exit 0.
    process.kill(readPid(redisPidFile()), 'SIGKILL');
    process.kill(readPid(postmasterPidFile()), 'SIGKILL');
    service.child.kill('SIGTERM');
    const exit = await service.exited;
    if (exit.code !== 0) throw new Error(`SIGTERM: exit ${JSON.stringify(exit)}\n${service.output().slice(-8000)}`);
    expect(exit).toEqual({ code: 0, signal: null });
    service = null;
  });

  async function fundedPair(api: PlatformClient, suffix: string): Promise<Pair> {
    const customer = await createIndividual(api);
    const accounts = (await api.get('/customers/internal-accounts').query({ customerId: customer.id }).expect(200)).body.data;
    const usd = accounts.find((account: any) => account.balance.currency.code === 'USD');
    await fund(api, usd.id, FUNDED_AMOUNT);
    const external = await createUsdExternalAccount(api, customer.id, suffix);
    return { sourceAccountId: usd.id, destinationAccountId: external.id };
  }
});

/** Waits until the killed server runs again under a new pid and the service reports both stores up. */
async function recovered(baseUrl: string, pidFile: string, killedPid: number): Promise<void> {
  await eventually(async () => {
    const pid = existsSync(pidFile) ? readPid(pidFile) : 0;
    return pid > 0 && pid !== killedPid && isAlive(pid);
  }, RECOVERY_TIMEOUT_MS);
  await eventually(async () => {
    const response = await fetch(`${new URL(baseUrl).origin}/health`);
    const body = (await response.json()) as { checks: { postgres: { status: string }; redis: { status: string } } };
    return body.checks.postgres.status === 'ok' && body.checks.redis.status === 'ok';
  }, RECOVERY_TIMEOUT_MS);
}

function readPid(file: string): number {
  return Number(readFileSync(file, 'utf8').split('\n')[0].trim());
}

function livePid(file: string): boolean {
  try {
    return isAlive(readPid(file));
  } catch {
    return false;
  }
}

/** The embedded cluster's URL (TCP on loopback), from the state file beside its data directory. */
function embeddedDatabaseUrl(dataDir: string): string {
  const state = JSON.parse(readFileSync(join(dataDir, 'postgres.json'), 'utf8')) as { port: number; password: string };
  return `postgres://postgres:${encodeURIComponent(state.password)}@127.0.0.1:${state.port}/payments`;
}

async function deliveries(databaseUrl: string): Promise<Array<{ webhookId: string; status: string }>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ webhook_id: string; status: string }>('SELECT webhook_id, status FROM webhook_deliveries ORDER BY seq');
    return result.rows.map((row) => ({ webhookId: row.webhook_id, status: row.status }));
  } finally {
    await client.end();
  }
}

async function webhookIds(databaseUrl: string): Promise<string[]> {
  return (await deliveries(databaseUrl)).map((row) => row.webhookId);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
