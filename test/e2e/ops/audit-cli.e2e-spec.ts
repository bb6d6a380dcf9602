import { TestApp, startTestApp } from '../../support/test-app';
import { runCli, runNpmScript } from './support/cli';

/** `npm run audit -- <resourceId>`: the CLI twin of GET /audit/events?resourceId=. */
// Each CLI run starts a process that loads the TypeScript sources: slow on a busy two-core machine.
jest.setTimeout(180_000);

describe('audit CLI', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
    for (const fixedFee of [1, 2, 3]) {
      await testApp.platform.api
        .patch('/config')
        .set('X-Request-Id', `audit-cli-${fixedFee}`)
        .send({ feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 0, fixedFee: { amount: fixedFee, currency: 'USD' } }] })
        .expect(200);
    }
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('prints the same page as the HTTP endpoint, cursor included', async () => {
    const resourceId = testApp.platform.platformId;
    const http = await testApp.platform.api.get('/audit/events').query({ resourceId, limit: 2 }).expect(200);
    const cli = await runCli('audit', [resourceId, '--limit', '2'], testApp.databaseUrl);
    expect(cli.code).toBe(0);
    // The CLI prints the page as stored, nulls included; over HTTP null-valued fields are left out.
    expect(JSON.parse(cli.stdout)).toEqual(http.body);
    expect(http.body).toEqual(expect.objectContaining({ resourceId, hasMore: true, nextCursor: '2', totalCount: 4 }));

    const nextHttp = await testApp.platform.api.get('/audit/events').query({ resourceId, limit: 2, cursor: '2' }).expect(200);
    const nextCli = await runCli('audit', [resourceId, '--limit', '2', '--cursor', '2'], testApp.databaseUrl);
    expect(JSON.parse(nextCli.stdout)).toEqual(nextHttp.body);
    expect(nextHttp.body.hasMore).toBe(false);
  });

  it('prints the whole history with metadata under --all', async () => {
    const resourceId = testApp.platform.platformId;
    const cli = await runCli('audit', [resourceId, '--all'], testApp.databaseUrl);
    expect(cli.code).toBe(0);
    const page = JSON.parse(cli.stdout);
    expect(page.totalCount).toBe(4);
    expect(page.hasMore).toBe(false);
    expect(page.data.map((entry: { type: string }) => entry.type)).toEqual([
      'PlatformRegistered', 'PlatformConfigUpdated', 'PlatformConfigUpdated', 'PlatformConfigUpdated',
    ]);
    expect(page.data.map((entry: { revision: number }) => entry.revision)).toEqual([0, 1, 2, 3]);
    const last = page.data[3];
    // Stored in the events' own shape (fraction, minor units), each entry with its fee type.
    expect(last.data.changes).toEqual({
      feeConfigs: [{ currencyCode: 'USD', fixedFee: 3, variableFeeRate: 0, feeType: 'CROSS_CURRENCY_TRANSACTION' }],
    });
    expect(last.metadata).toEqual(
      expect.objectContaining({
        correlationId: 'audit-cli-3',
        platformId: resourceId,
        actor: `platform:${testApp.platform.clientId}`,
        requestId: expect.any(String),
      }),
    );
  });

  it('answers like the HTTP endpoint for unknown, foreign and malformed ids', async () => {
    const unknown = await runCli('audit', ['Quote:01900000-0000-7000-8000-000000000000'], testApp.databaseUrl);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr.slice(unknown.stderr.indexOf('{')))).toEqual({
      status: 404,
      code: 'REFERENCE_NOT_FOUND',
      message: 'No history for Quote:01900000-0000-7000-8000-000000000000',
    });

    const other = await testApp.createPlatform();
    const foreign = await runCli('audit', [testApp.platform.platformId, '--platform', other.platformId], testApp.databaseUrl);
    expect(foreign.code).toBe(1);
    await other.api.get('/audit/events').query({ resourceId: testApp.platform.platformId }).expect(404);
    const own = await runCli('audit', [other.platformId, '--platform', other.platformId], testApp.databaseUrl);
    expect(own.code).toBe(0);

    const malformed = await runCli('audit', ['nope', '--limit', '0'], testApp.databaseUrl);
    expect(malformed.code).toBe(2);
    const error = JSON.parse(malformed.stderr);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.details.errors.map((entry: { field: string }) => entry.field).sort()).toEqual(['limit', 'resourceId']);

    const usage = await runCli('audit', [], testApp.databaseUrl);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage:');
  });

  it('works as the npm script an auditor runs (a real process)', async () => {
    const run = await runNpmScript('audit', [testApp.platform.platformId, '--limit', '1'], testApp.databaseUrl);
    expect(run.code).toBe(0);
    const page = JSON.parse(run.stdout);
    expect(page.data).toHaveLength(1);
    expect(page.data[0].type).toBe('PlatformRegistered');
  }, 180_000);
});
