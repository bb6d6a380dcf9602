import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { EVENT_STORE, EventStore, positionToString } from '../../../src/infra/event-store/event-store.port';
import { readCheckpoints } from '../../../src/infra/projections/checkpoints';
import { freshDatabase, freshRedisPrefix } from '../../support/database';
import { TestApp, eventually, platformClient, startTestApp } from '../../support/test-app';

/**
 * The restart of the service loses nothing: a new process on the same database and Redis serves
 * the same reads, its projections resume from their checkpoints without applying anything twice,
 * and the audit history is intact.
 */
describe('service restart', () => {
  it('keeps reads, checkpoints and the audit history across a restart', async () => {
    const database = await freshDatabase('restart');
    const queuePrefix = freshRedisPrefix('restart');
    const dataDir = mkdtempSync(join(tmpdir(), 'e2e-restart-'));
    const env = { MASTER_KEY: randomBytes(32).toString('hex') };
    const pool = new Pool({ connectionString: database.url, max: 2 });
    pool.on('error', () => undefined); // The database is dropped right after pool.end().
    let second: TestApp | null = null;
    try {
      const first = await startTestApp({ database, queuePrefix, dataDir, env });
      const platform = first.platform;
      for (const fixedFee of [10, 20, 30, 40]) {
        await platform.api.patch('/config').send({ feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 100, fixedFee: { amount: fixedFee, currency: 'USD' } }] }).expect(200);
      }
      await platform.api.patch('/config').send({ webhookEndpoint: 'https://hooks.example.com/restart' }).expect(200);
      const configBefore = (await platform.api.get('/config').expect(200)).body;
      const historyBefore = (await platform.api.get('/audit/events').query({ resourceId: platform.platformId }).expect(200)).body;
      const checkpointsBefore = await readCheckpoints(pool);
      const headBefore = await first.app.get<EventStore>(EVENT_STORE).headPosition();
      expect(positionToString(checkpointsBefore.get('platform-config')!.position)).toBe(positionToString(headBefore));
      expect(checkpointsBefore.get('platform-config')!.eventsApplied).toBe(6);
      await first.close({ keepDatabase: true });

      second = await startTestApp({ database, queuePrefix, dataDir, env });
      const api = platformClient(second.baseUrl, platform.clientId, platform.clientSecret);
      expect((await api.get('/config').expect(200)).body).toEqual(configBefore);
      expect((await api.get('/audit/events').query({ resourceId: platform.platformId }).expect(200)).body).toEqual(historyBefore);

      // The new process registered its own platform: exactly one more event applied, nothing replayed.
      const store = second.app.get<EventStore>(EVENT_STORE);
      const resumed = await eventually(async () => {
        const row = (await readCheckpoints(pool)).get('platform-config')!;
        return row.eventsApplied >= 7 ? row : null;
      });
      expect(resumed.eventsApplied).toBe(7);
      expect(positionToString(resumed.position)).toBe(positionToString(await store.headPosition()));
      expect(resumed.version).toBe(checkpointsBefore.get('platform-config')!.version);

      // And the aggregate carries on from its last revision.
      const patched = await api.patch('/config').send({ feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 100, fixedFee: { amount: 50, currency: 'USD' } }] }).expect(200);
      expect(patched.body.webhookEndpoint).toBe('https://hooks.example.com/restart');
      const historyAfter = (await api.get('/audit/events').query({ resourceId: platform.platformId }).expect(200)).body;
      expect(historyAfter.data.slice(0, historyBefore.data.length)).toEqual(historyBefore.data);
      expect(historyAfter.data.map((entry: { revision: number }) => entry.revision)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect((await readCheckpoints(pool)).get('platform-config')!.eventsApplied).toBe(8);
    } finally {
      await pool.end();
      await second?.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
