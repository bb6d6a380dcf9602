import { ALL_PROJECTIONS } from '../../../projections';
import { platformConfigProjection } from '../../../projections/platform-config/platform-config.projection';
import { Pool } from 'pg';
import { EVENT_STORE, EventStore, Position, positionToString } from '../../../src/infra/event-store/event-store.port';
import { EventStoreService } from '../../../src/infra/event-store/event-store.service';
import { streamNameFor } from '../../../src/infra/ids';
import { ProjectionRunner } from '../../../src/infra/projections/projection-runner';
import { TestApp, TestPlatform, eventually, startTestApp } from '../../support/test-app';
import { runCli, runNpmScript } from './support/cli';

/**
 * `npm run projections:status | rebuild | verify` against the database of a running service:
 * a rebuild swaps fresh tables in while the service serves and writes, verify agrees with the
 * live read models afterwards, and notices a tampered row.
 */
// Each CLI run starts a process that loads the TypeScript sources: slow on a busy two-core machine.
jest.setTimeout(180_000);

describe('projections operator commands', () => {
  let testApp: TestApp;
  let pool: Pool;
  let platforms: TestPlatform[];

  beforeAll(async () => {
    testApp = await startTestApp();
    pool = new Pool({ connectionString: testApp.databaseUrl, max: 2 });
    pool.on('error', () => undefined); // The database is dropped right after pool.end().
    platforms = [testApp.platform, ...(await Promise.all([1, 2, 3].map(() => testApp.createPlatform())))];
    // A log with some history: 60 configuration changes through the API, then a longer past of
    // 4,000 more appended straight to the platforms' streams, so a rebuild takes a while.
    await Promise.all(
      platforms.map(async (platform, index) => {
        for (let change = 0; change < 15; change++) {
          await platform.api.patch('/config').send({ feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 10, fixedFee: { amount: index * 100 + change, currency: 'USD' } }] }).expect(200);
        }
      }),
    );
    const events = testApp.app.get(EventStoreService);
    let lastPosition: Position | undefined;
    for (const platform of platforms) {
      const stream = streamNameFor(platform.platformId);
      for (let batch = 0; batch < 10; batch++) {
        const revision = (await events.readStream(stream)).length - 1;
        const changes = Array.from({ length: 100 }, (_, index) => ({
          type: 'PlatformConfigUpdated',
          data: {
            platformId: platform.platformId,
            changes: { webhookEndpoint: `https://hooks.example.com/${batch}/${index}` },
            updatedAt: new Date(Date.UTC(2025, 0, 1, 0, batch, index)).toISOString(),
          },
        }));
        const appended = await events.append(stream, changes, revision);
        lastPosition = appended.position;
      }
    }
    expect(await testApp.app.get(ProjectionRunner).waitForPosition(lastPosition!, 20_000)).toBe(true);
  });

  afterAll(async () => {
    await pool?.end();
    await testApp?.close();
  });

  async function head(): Promise<string> {
    return positionToString(await testApp.app.get<EventStore>(EVENT_STORE).headPosition());
  }

  it('status shows each projection position and lag, as a table and as JSON', async () => {
    const json = await runCli('projections', ['status', '--json'], testApp.databaseUrl);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.head).toBe(await head());
    const platformConfig = report.consumers.find((consumer: { name: string }) => consumer.name === 'platform-config');
    expect(platformConfig).toEqual({
      name: 'platform-config',
      kind: 'projection',
      state: 'ok',
      // The stored read model was built by the code's version of the projection.
      version: platformConfigProjection.version,
      codeVersion: platformConfigProjection.version,
      position: report.head,
      lagEvents: 0,
      lagCapped: false,
      lagSeconds: 0,
      eventsApplied: 4064,
      updatedAt: expect.any(String),
      lastError: null,
      lastErrorAt: null,
    });

    const text = await runCli('projections', ['status'], testApp.databaseUrl);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines[0]).toBe(`head ${report.head}`);
    expect(lines[1].split(/\s{2,}/)).toEqual(['NAME', 'KIND', 'STATE', 'POSITION', 'LAG EVENTS', 'LAG S', 'APPLIED', 'UPDATED']);
    expect(lines.find((line) => line.startsWith('platform-config'))!.split(/\s{2,}/).slice(0, 7)).toEqual([
      'platform-config', 'projection', 'ok', report.head, '0', '0.0', '4064',
    ]);
  });

  it('rebuilds while the service serves and writes: no failed request, every read sees its own write, verify agrees', async () => {
    const failures: string[] = [];
    let requests = 0;
    let stop = false;
    // Four clients, each writing its own platform's configuration and reading it back at once.
    const load = platforms.map(async (platform, index) => {
      for (let round = 0; !stop || round < 3; round++) {
        const fixedFee = 10_000 + index * 1000 + round;
        const patched = await platform.api.patch('/config').send({ feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 0, fixedFee: { amount: fixedFee, currency: 'USD' } }] });
        const read = await platform.api.get('/config');
        requests += 2;
        if (patched.status !== 200 || read.status !== 200) failures.push(`statuses ${patched.status}/${read.status}`);
        else if (read.body.feeConfigs[0]?.fixedFee?.amount !== fixedFee) failures.push(`read ${read.body.feeConfigs[0]?.fixedFee?.amount} after writing ${fixedFee}`);
        // A short pause between rounds: without one, four closed loops take every CPU cycle the
        // service can use, and on a 2-core machine the faster the service answers, the slower the
        // rebuild process beside it gets.
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    });
    const requestsBefore = requests;
    const first = await runCli('projections', ['rebuild'], testApp.databaseUrl);
    // Twice: a second swap must cope with the names the first one left on indexes.
    const second = await runCli('projections', ['rebuild', 'platform-config'], testApp.databaseUrl);
    const requestsDuring = requests - requestsBefore;
    stop = true;
    await Promise.all(load);

    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    // One line per read model, in ALL_PROJECTIONS order.
    const rebuiltLines = first.stdout.trimEnd().split('\n');
    for (const line of rebuiltLines) expect(line).toMatch(/^[a-z-]+: rebuilt from [\d,]+ events \([\d,]+ applied\) in [\d.]+ s, swapped in at \d+\/\d+$/);
    expect(rebuiltLines.map((line) => line.split(':')[0])).toEqual(ALL_PROJECTIONS.map((projection) => projection.name));
    expect(second.stderr).toMatch(/platform-config: 100%/);
    expect(failures).toEqual([]);
    expect(requestsDuring).toBeGreaterThan(0);

    const verified = await runCli('projections', ['verify'], testApp.databaseUrl);
    expect(verified.code).toBe(0);
    const verifiedLines = verified.stdout.trimEnd().split('\n');
    for (const line of verifiedLines) expect(line).toMatch(/^[a-z-]+: no difference \(replayed [\d,]+ events up to \d+\/\d+\)$/);
    expect(verifiedLines.map((line) => line.split(':')[0])).toEqual(ALL_PROJECTIONS.map((projection) => projection.name));

    const status = JSON.parse((await runCli('projections', ['status', '--json'], testApp.databaseUrl)).stdout);
    const platformConfig = status.consumers.find((consumer: { name: string }) => consumer.name === 'platform-config');
    expect(platformConfig.position).toBe(await head());
    expect(platformConfig.lagEvents).toBe(0);
    // The rebuild counts what it replayed, the live projector what came after: every event once.
    const events = await pool.query(`SELECT count(*)::int AS n FROM events WHERE event_type IN ('PlatformRegistered', 'PlatformConfigUpdated')`);
    expect(platformConfig.eventsApplied).toBe(events.rows[0].n);
  });

  it('verify reports a tampered, a deleted and an invented row, exits 1, and a rebuild repairs them', async () => {
    const [changed, deleted] = platforms;
    await pool.query(`UPDATE platform_configs SET fee_configs = '[]'::jsonb WHERE platform_id = $1`, [changed.platformId]);
    await pool.query(`DELETE FROM platform_configs WHERE platform_id = $1`, [deleted.platformId]);
    await pool.query(
      `INSERT INTO platform_configs (platform_id, name, webhook_endpoint, supported_currencies, fee_configs, embedded_wallet_config,
                                     is_regulated_financial_institution, created_at, updated_at)
       VALUES ('Platform:01900000-0000-7000-8000-000000000000', 'Invented', NULL, '[]', '[]', '{}', true, now(), now())`,
    );

    const text = await runCli('projections', ['verify', 'platform-config'], testApp.databaseUrl);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('platform-config: DIFFERS from the log');
    expect(text.stdout).toContain(
      'platform_configs: 2 row(s) the log produces are missing or different in the live table, 2 live row(s) the log does not produce',
    );

    const json = await runCli('projections', ['verify', '--json'], testApp.databaseUrl);
    expect(json.code).toBe(1);
    const [result] = JSON.parse(json.stdout);
    expect(result.projection).toBe('platform-config');
    expect(result.differences).toHaveLength(1);
    const difference = result.differences[0];
    expect(difference).toEqual(expect.objectContaining({ table: 'platform_configs', missingFromLive: 2, extraInLive: 2 }));
    expect(difference.sampleMissing.map((row: { platform_id: string }) => row.platform_id).sort()).toEqual(
      [changed.platformId, deleted.platformId].sort(),
    );
    expect(difference.sampleExtra.map((row: { platform_id: string }) => row.platform_id).sort()).toEqual(
      [changed.platformId, 'Platform:01900000-0000-7000-8000-000000000000'].sort(),
    );
    // An authenticated platform without its read model is a fault of ours, not of the client's
    // (GET /config declares no 404): 500, with no internals in the body.
    const missing = await deleted.api.get('/config').expect(500);
    expect(missing.body).toEqual({ status: 500, code: 'INTERNAL_ERROR', message: 'Internal error' });

    expect((await runCli('projections', ['rebuild', 'platform-config'], testApp.databaseUrl)).code).toBe(0);
    expect((await runCli('projections', ['verify'], testApp.databaseUrl)).code).toBe(0);
    const restored = await deleted.api.get('/config').expect(200);
    expect(restored.body.id).toBe(deleted.platformId);
  });

  it('backs off and retries the swap while a long reader holds the live table, instead of failing or blocking readers', async () => {
    const reader = await pool.connect();
    const swapWaiting = async () => {
      const result = await pool.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'ALTER TABLE%platform_configs%'`,
      );
      return result.rows[0].waiting > 0;
    };
    try {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM platform_configs');
      const rebuilding = runCli('projections', ['rebuild', 'platform-config'], testApp.databaseUrl);
      // The swap waits for the reader, gives up at its lock timeout, and backs off...
      await eventually(swapWaiting);
      await eventually(async () => !(await swapWaiting()), 10_000, 20);
      // ...meanwhile requests are answered...
      await testApp.platform.api.get('/config').expect(200);
      // ...and once the reader is gone, the next attempt swaps.
      await reader.query('COMMIT');
      const rebuilt = await rebuilding;
      expect(rebuilt.code).toBe(0);
      expect(rebuilt.stdout).toMatch(/^platform-config: rebuilt from .* \(at attempt [2-5]: readers held the live tables past the lock timeout\)\n$/);
    } finally {
      await reader.query('ROLLBACK').catch(() => undefined);
      reader.release();
    }
    expect((await runCli('projections', ['verify'], testApp.databaseUrl)).code).toBe(0);
  }, 180_000);

  it('refuses unknown projections and commands with the usage and exit code 2', async () => {
    const unknown = await runCli('projections', ['rebuild', 'no-such-projection'], testApp.databaseUrl);
    expect(unknown).toEqual({
      code: 2,
      stdout: '',
      stderr: `unknown projection no-such-projection; known: ${ALL_PROJECTIONS.map((projection) => projection.name).join(', ')}\n`,
    });
    const usage = await runCli('projections', ['frobnicate'], testApp.databaseUrl);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage:');
  });

  it('works as the npm script an operator runs (a real process)', async () => {
    const run = await runNpmScript('projections:status', ['--json'], testApp.databaseUrl);
    expect(run.stderr).toContain('(DATABASE_URL)');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.consumers.map((consumer: { name: string }) => consumer.name)).toContain('platform-config');
  }, 180_000);
});
