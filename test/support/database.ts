import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * Per-test-file isolation on the one Postgres and one Redis that test/support/global-setup.js
 * starts for the whole jest run: every test file gets its own database and its own key prefix,
 * so files running in parallel workers never see each other's data.
 */

export interface FreshDatabase {
  /** Connection URL of the new, empty database. */
  readonly url: string;
  /** Drops the database, closing any connection still open on it. */
  drop(): Promise<void>;
}

const POSTGRES_IDENTIFIER_MAX_BYTES = 63;

export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error('TEST_DATABASE_URL is not set: run the tests through jest, whose global setup sets it');
  }
  return url;
}

export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error('TEST_REDIS_URL is not set: run the tests through jest, whose global setup sets it');
  return url;
}

/** Creates a uniquely named empty database on the test server, e.g. `events_4f1c2a9b0d3e`. */
export async function freshDatabase(prefix: string): Promise<FreshDatabase> {
  const serverUrl = testDatabaseUrl();
  const suffix = `${process.pid.toString(36)}_${randomBytes(6).toString('hex')}`;
  const cleanPrefix = sanitise(prefix, '_').slice(0, POSTGRES_IDENTIFIER_MAX_BYTES - suffix.length - 1) || 'test';
  const name = `${cleanPrefix}_${suffix}`;

  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    url: url.toString(),
    drop() {
      dropped ??= withClient(serverUrl, async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
      });
      return dropped;
    },
  };
}

/**
 * A key prefix no other test file uses, e.g. `test:quotes:1a2b:9f8e7d6c`. Pass it as BullMQ's
 * `prefix` (BullMQ adds the `:` itself) or, with a trailing `:`, as ioredis' `keyPrefix`.
 */
export function freshRedisPrefix(name: string): string {
  return `test:${sanitise(name, '-') || 'test'}:${process.pid.toString(36)}:${randomBytes(4).toString('hex')}`;
}

function sanitise(text: string, separator: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(new RegExp(`^${separator}+|${separator}+$`, 'g'), '');
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
