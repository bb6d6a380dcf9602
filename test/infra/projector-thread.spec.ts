import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, loadConfig } from '../../src/infra/config';
import { Position } from '../../src/infra/event-store/event-store.port';
import { PROJECTOR_THREAD_RESTART_DELAY_MS, ProjectorThread } from '../../src/infra/projections/projector-thread';

const at = (value: number): Position => ({ commit: BigInt(value), prepare: BigInt(value) });
const STAND_IN = join(__dirname, '..', 'support', 'fake-projector-thread.ts');
/**
 * How long a wait through restarts may take: each start of the stand-in loads ts-node in a new
 * thread, about 0.4 s alone but several seconds while the full suite loads both cores (the waits
 * failed at 10 s there). The lower bounds below are what show the restart delays.
 */
const STARTS_BUDGET_MS = 40_000;

/**
 * ProjectorThread (src/infra/projections/projector-thread.ts), the main thread's side, against a
 * real worker thread running a stand-in entry script (test/support/fake-projector-thread.ts). The
 * real thread is exercised end to end by test/e2e/ops/projector-thread.e2e-spec.ts.
 */
describe('ProjectorThread', () => {
  /** The data directory the stand-in reads `fail-starts` from. */
  let dataDir: string;
  let config: AppConfig;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'projector-thread-'));
    config = loadConfig({ DATA_DIR: dataDir }, { databaseUrl: 'postgres://unused', redisUrl: 'redis://unused' });
  });

  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('tells the thread of appends, answers waits from its progress, starts it again after a crash, and stops it', async () => {
    const thread = new ProjectorThread(config, STAND_IN);
    await thread.start();
    expect(await thread.waitFor(at(1), 1000)).toBe(true);
    expect(await thread.waitFor(at(10), 50)).toBe(false);

    const waiting = thread.waitFor(at(10), 5000);
    thread.appended(at(10));
    expect(await waiting).toBe(true);

    // Position 13 makes the stand-in exit with code 3; an append told meanwhile is kept for the
    // next thread, which reports it once it is ready.
    thread.appended(at(13));
    await new Promise((resolve) => setTimeout(resolve, 100));
    thread.appended(at(20));
    const started = Date.now();
    expect(await thread.waitFor(at(20), STARTS_BUDGET_MS)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(PROJECTOR_THREAD_RESTART_DELAY_MS - 200);

    const pending = thread.waitFor(at(30), 60_000);
    await thread.stop();
    expect(await pending).toBe(false);
  }, 60_000);

  it('keeps trying, with growing waits, to start again a thread whose restart fails', async () => {
    const thread = new ProjectorThread(config, STAND_IN);
    await thread.start();
    // The crash, then a first restart that fails (after 1 s), then one that works (2 s later).
    writeFileSync(join(dataDir, 'fail-starts'), '1');
    const started = Date.now();
    thread.appended(at(13));
    await new Promise((resolve) => setTimeout(resolve, 100));
    thread.appended(at(20));
    expect(await thread.waitFor(at(20), STARTS_BUDGET_MS)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * PROJECTOR_THREAD_RESTART_DELAY_MS - 200);
    await thread.stop();
  }, 60_000);

  it('fails to start when the thread ends before it is ready', async () => {
    const thread = new ProjectorThread(config, join(__dirname, '..', 'support', 'failing-projector-thread.js'));
    await expect(thread.start()).rejects.toThrow('the projector thread exited with code 1 before it was ready');
  });
});
