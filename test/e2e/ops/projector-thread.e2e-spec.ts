import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fundedCustomer, quoteToSuffix, quoteWithStatus, transactionWithStatus } from '../../support/quote-fixtures';
import { PlatformClient, platformClient } from '../../support/test-app';
import { ServiceProcess, buildService, freePort } from './support/built-service';

/**
 * `npm start` runs the projector role in a worker thread (src/projector-thread.ts, started by
 * ProjectorThread): the api and worker roles on the main thread, woken and answered by messages.
 * Through the built service over HTTP: every write is readable by the next request (the thread
 * woke on the main thread's appends and reported its progress), settlement by the main thread's
 * worker reaches the read models, and the thread stops with the service.
 */
describe('the projector in a worker thread (npm start)', () => {
  let mainScript: string;
  let dataDir: string;
  let service: ServiceProcess | null = null;
  let api: PlatformClient;
  let port: number;

  beforeAll(async () => {
    mainScript = await buildService();
    dataDir = mkdtempSync(join(tmpdir(), 'e2e-projector-thread-'));
    chmodSync(dataDir, 0o755); // As root, postgres runs as the `postgres` user, which must enter it.
    port = await freePort();
    service = new ServiceProcess(mainScript, {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SANDBOX_SETTLEMENT_DELAY_MS: '200',
    });
    await service.waitForOutput('Service listening on', 90_000);
    const credentials = JSON.parse(readFileSync(join(dataDir, 'sandbox-credentials.json'), 'utf8')) as { clientId: string; clientSecret: string };
    api = platformClient(`http://127.0.0.1:${port}/2025-10-13`, credentials.clientId, credentials.clientSecret);
  }, 180_000);

  afterAll(async () => {
    service?.kill();
    await service?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the api and worker roles on the main thread, the projector in a worker thread', () => {
    expect(service!.stdout).toContain('(roles: api, worker, projector (worker thread), mode: sandbox)');
  });

  it('reads every write on the next request, and settles a quote into the read models', async () => {
    const owner = await fundedCustomer(api, 1_000_000);
    // Read-your-writes through the thread: the customer and the quote are there at once.
    const customer = await api.get(`/customers/${owner.customer.id}`).expect(200);
    expect(customer.body.id).toBe(owner.customer.id);
    const quote = await quoteToSuffix(api, owner, '789', 10_000);
    const pending = await api.get(`/quotes/${quote.id}`).expect(200);
    expect(pending.body).toMatchObject({ id: quote.id, status: 'PENDING', transactionId: quote.transactionId });

    const executed = await api.post(`/quotes/${quote.id}/execute`).expect(200);
    expect(executed.body.status).toBe('PROCESSING');
    expect((await api.get(`/quotes/${quote.id}`).expect(200)).body.status).toBe('PROCESSING');
    const held = (await api.get(`/internal-accounts/${owner.usd.id}`).expect(200)).body;
    expect(held.balance.amount).toBe(1_000_000 - quote.totalSendingAmount);

    // Settled by the main thread's worker, projected by the thread.
    await quoteWithStatus(api, quote.id, 'COMPLETED');
    await transactionWithStatus(api, quote.transactionId, 'COMPLETED');
    const settled = (await api.get(`/internal-accounts/${owner.usd.id}`).expect(200)).body;
    expect(settled.totalBalance.amount).toBe(1_000_000 - quote.totalSendingAmount);

    // Readiness reads the checkpoints the thread wrote.
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');
  }, 60_000);

  it('stops the thread with the service on SIGTERM (exit code 0, no error logged)', async () => {
    service!.child.kill('SIGTERM');
    expect(await service!.exited).toEqual({ code: 0, signal: null });
    expect(service!.stderr).not.toMatch(/"level":"error"/);
    expect(service!.stdout).not.toMatch(/"level":"error"/);
  }, 30_000);
});
