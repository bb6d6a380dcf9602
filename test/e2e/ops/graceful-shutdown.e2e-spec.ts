import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../../support/test-app';
import { ServiceProcess, buildService, freePort, isAlive } from './support/built-service';

/**
 * `npm start` for real: the built service as a child process on its embedded Postgres and local
 * Redis. SIGTERM (and SIGINT) stop it with exit code 0 and stop both servers; a second start on
 * the same data directory serves the data the first one wrote.
 */
describe('graceful shutdown of the built service', () => {
  let mainScript: string;
  let dataDir: string;
  const started: ServiceProcess[] = [];

  beforeAll(async () => {
    mainScript = await buildService();
    dataDir = mkdtempSync(join(tmpdir(), 'e2e-shutdown-'));
    chmodSync(dataDir, 0o755); // As root, postgres runs as the `postgres` user, which must enter it.
  }, 180_000);

  afterAll(() => {
    for (const service of started) service.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(port: number): Promise<ServiceProcess> {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    const service = new ServiceProcess(mainScript, env);
    started.push(service);
    await service.waitForOutput('Service listening on', 90_000);
    return service;
  }

  it('stops on SIGTERM and SIGINT with exit code 0, its Postgres and Redis with it, and keeps the data', async () => {
    const port = await freePort();
    const first = await start(port);
    const baseUrl = `http://127.0.0.1:${port}/2025-10-13`;
    const credentials = JSON.parse(readFileSync(join(dataDir, 'sandbox-credentials.json'), 'utf8')) as { clientId: string; clientSecret: string };
    expect(first.stdout).toContain(`PLATFORM_CLIENT_ID=${credentials.clientId}`);
    const authorization = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
    const patched = await fetch(`${baseUrl}/config`, {
      method: 'PATCH',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ webhookEndpoint: 'https://hooks.example.com/before-restart' }),
    });
    expect(patched.status).toBe(200);
    const postgresPid = first.loggedPid('started embedded postgres');
    const redisPid = first.loggedPid('started local redis');
    expect(isAlive(postgresPid)).toBe(true);
    expect(isAlive(redisPid)).toBe(true);

    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    await eventually(async () => !isAlive(postgresPid) && !isAlive(redisPid));
    expect(first.stderr).not.toMatch(/"level":"error"|stopped unexpectedly/);

    const second = await start(port);
    expect(second.stdout).toContain(`Sandbox platform PLATFORM_CLIENT_ID=${credentials.clientId} (secret in`);
    const read = await fetch(`${baseUrl}/config`, { headers: { authorization } });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { webhookEndpoint: string }).webhookEndpoint).toBe('https://hooks.example.com/before-restart');
    const secondPostgresPid = second.loggedPid('started embedded postgres');

    second.child.kill('SIGINT');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    await eventually(async () => !isAlive(secondPostgresPid) && !isAlive(second.loggedPid('started local redis')));
  }, 240_000);
});
