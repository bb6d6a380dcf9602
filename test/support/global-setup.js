'use strict';
/**
 * Starts ONE Postgres and ONE Redis for the whole jest run (unless TEST_DATABASE_URL /
 * TEST_REDIS_URL already point at running servers) and exports their URLs; jest workers inherit
 * this process's environment. Test files make their own databases and key prefixes on them
 * (test/support/database.ts). Plain JS: jest loads global setup untransformed.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startEmbeddedPostgres } = require('../../scripts/lib/embedded-postgres.js');
const { startLocalRedis } = require('../../scripts/lib/local-redis.js');
const { buildConsoleIfStale } = require('../../scripts/build-console.js');

module.exports = async function globalSetup() {
  const started = { stops: [], tempRoot: undefined };
  globalThis.__TEST_INFRASTRUCTURE__ = started;
  // The console's static and browser suites serve dist/console: build it when missing or stale.
  await buildConsoleIfStale();

  const needsPostgres = !process.env.TEST_DATABASE_URL;
  const needsRedis = !process.env.TEST_REDIS_URL;
  if (!needsPostgres && !needsRedis) return;

  started.tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-test-'));
  // As root, Postgres runs as the `postgres` user, which must be able to enter this directory.
  fs.chmodSync(started.tempRoot, 0o755);

  const [postgres, redis] = await Promise.allSettled([
    needsPostgres
      ? startEmbeddedPostgres({
          dataDir: path.join(started.tempRoot, 'postgres'),
          database: 'postgres',
          persistent: false,
          // Throwaway data: durability costs time and buys nothing here.
          settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: 300 },
        })
      : undefined,
    needsRedis ? startLocalRedis({ dataDir: path.join(started.tempRoot, 'redis'), persistent: false }) : undefined,
  ]).then(async (results) => {
    for (const result of results) {
      if (result.status === 'fulfilled' && result.value) started.stops.push(() => result.value.stop());
    }
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) {
      await stopAll(started);
      throw failure.reason;
    }
    return results.map((result) => result.value);
  });

  if (postgres) process.env.TEST_DATABASE_URL = postgres.url;
  if (redis) process.env.TEST_REDIS_URL = redis.url;
};

async function stopAll(started) {
  // The supervisors also stop their servers when this process exits, so a failed stop here
  // only delays the cleanup.
  for (const stop of started.stops.splice(0).reverse()) await stop().catch(() => undefined);
  if (started.tempRoot) fs.rmSync(started.tempRoot, { recursive: true, force: true });
}

module.exports.stopAll = stopAll;
