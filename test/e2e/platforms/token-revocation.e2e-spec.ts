import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSION } from '../../../src/app.factory';
import { testRedisUrl } from '../../support/database';
import { ServiceProcess, startServiceProcess, transpileService } from '../../support/service-process';
import { PlatformClient, TestApp, anonymousClient, platformClient, startTestApp } from '../../support/test-app';

/** A second Node process starts the transpiled service: well under a minute, more on a busy machine. */
const SERVICE_START_TIMEOUT_MS = 240_000;
const UNAUTHORIZED = { status: 401, code: 'UNAUTHORIZED', message: 'Missing or invalid platform credentials' };

/**
 * A revoked API token is refused at once by every process (docs/platforms.md "API tokens"): each
 * process caches verified pairs, and a token's cached pair is confirmed against the credentials
 * table on every request. Two OS processes share the database and Redis; both have the token's
 * pair cached when one of them revokes it, and the very next request to either is refused.
 */
describe('API token revocation across processes', () => {
  let testApp: TestApp;
  let second: ServiceProcess;
  let secondUrl: string;
  let dataDir: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    dataDir = mkdtempSync(join(tmpdir(), 'token-revocation-'));
    const port = await freePort();
    second = await startServiceProcess(
      ['api'],
      {
        DATABASE_URL: testApp.databaseUrl,
        REDIS_URL: testRedisUrl(),
        QUEUE_PREFIX: testApp.config.queuePrefix,
        DATA_DIR: dataDir,
        MASTER_KEY: testApp.config.masterKeyHex!,
        SERVICE_MODE: 'sandbox',
        HOST: '127.0.0.1',
        PORT: String(port),
      },
      SERVICE_START_TIMEOUT_MS,
      transpileService(),
    );
    secondUrl = `http://127.0.0.1:${port}/${API_VERSION}`;
  }, SERVICE_START_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await second?.kill('SIGTERM');
    await testApp?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A VIEW token, used once through each process so both hold its verified pair. */
  async function tokenCachedInBoth(): Promise<{ id: string; viaFirst: PlatformClient; viaSecond: PlatformClient; refusedBy: (url: string) => Promise<unknown> }> {
    const token = (await testApp.platform.api.post('/tokens').send({ name: 'Revoked at once', permissions: ['VIEW'] }).expect(201)).body;
    const viaFirst = platformClient(testApp.baseUrl, token.clientId, token.clientSecret);
    const viaSecond = platformClient(secondUrl, token.clientId, token.clientSecret);
    for (const client of [viaFirst, viaSecond, viaFirst, viaSecond]) await client.get('/customers').expect(200);
    const refusedBy = async (url: string) => (await anonymousClient(url).get('/customers').auth(token.clientId, token.clientSecret).expect(401)).body;
    return { id: token.id, viaFirst, viaSecond, refusedBy };
  }

  it('revoked through one process: the very next request is refused by it and by the other', async () => {
    const token = await tokenCachedInBoth();
    await testApp.platform.api.delete(`/tokens/${token.id}`).expect(204);
    expect(await token.refusedBy(secondUrl)).toEqual(UNAUTHORIZED);
    expect(await token.refusedBy(testApp.baseUrl)).toEqual(UNAUTHORIZED);
  });

  it('revoked through the other process: the first refuses it on the very next request', async () => {
    const token = await tokenCachedInBoth();
    const bootstrapViaSecond = platformClient(secondUrl, testApp.platform.clientId, testApp.platform.clientSecret);
    await bootstrapViaSecond.delete(`/tokens/${token.id}`).expect(204);
    expect(await token.refusedBy(testApp.baseUrl)).toEqual(UNAUTHORIZED);
    expect(await token.refusedBy(secondUrl)).toEqual(UNAUTHORIZED);
    // The revocation is recorded once, whichever process did it; a second one is 404 in both.
    await testApp.platform.api.delete(`/tokens/${token.id}`).expect(404);
    await bootstrapViaSecond.delete(`/tokens/${token.id}`).expect(404);
  });

  it('a token revoking itself is refused from its next request on', async () => {
    const made = (await testApp.platform.api.post('/tokens').send({ name: 'Self-revoking', permissions: ['MANAGE'] }).expect(201)).body;
    const self = platformClient(testApp.baseUrl, made.clientId, made.clientSecret);
    await self.get(`/tokens/${made.id}`).expect(200);
    await self.delete(`/tokens/${made.id}`).expect(204);
    expect((await anonymousClient(secondUrl).get(`/tokens/${made.id}`).auth(made.clientId, made.clientSecret).expect(401)).body).toEqual(UNAUTHORIZED);
    expect((await anonymousClient(testApp.baseUrl).get(`/tokens/${made.id}`).auth(made.clientId, made.clientSecret).expect(401)).body).toEqual(UNAUTHORIZED);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
