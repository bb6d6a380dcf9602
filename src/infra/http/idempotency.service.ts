import { createHash, randomInt, randomUUID } from 'node:crypto';
import { Client, ClientConfig, Pool } from 'pg';
import { canonicalJson } from '../crypto/canonical-json';
import { logger } from '../logger';

/**
 * One implicit transaction (a multi-statement simple query) under an advisory lock, so processes
 * starting together agree. `owner_instance` / `owner_token` name the process and the request
 * that hold a running key (null on rows written before they existed); the `created_at` index
 * serves the retention purge.
 */
export const IDEMPOTENCY_DDL = `
SELECT pg_advisory_xact_lock(hashtext('idempotency_keys:ddl'));
CREATE TABLE IF NOT EXISTS idempotency_keys (
  platform_id text NOT NULL,
  idempotency_key text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL,
  response_status integer,
  response_headers jsonb,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  owner_instance integer,
  owner_token text,
  PRIMARY KEY (platform_id, idempotency_key)
);
ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS owner_instance integer, ADD COLUMN IF NOT EXISTS owner_token text;
CREATE INDEX IF NOT EXISTS idempotency_keys_by_created_at ON idempotency_keys (created_at);`;

/** Keys are kept 24 h (DECISIONS.md section 1). */
export const KEY_TTL_SECONDS = 24 * 60 * 60;
/**
 * Only for a running row without an owner (written by a version before owners existed, e.g.
 * during a rolling deploy): older than this, its request is taken for dead.
 */
const OWNERLESS_LEASE_SECONDS = 60;
/**
 * First key of the session-level advisory lock each process holds on its instance id (the two-key
 * form, `pg_advisory_lock(int, int)`, a key space apart from the one-bigint locks used elsewhere).
 */
const OWNER_LOCK_CLASS = `hashtext('idempotency:owner')`;
/** Rows deleted per statement by the purge: each batch is a short transaction. */
const PURGE_BATCH_ROWS = 1000;

export type IdempotencyBegin =
  | { kind: 'proceed'; token: string }
  | { kind: 'replay'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

export interface IdempotencyHandle {
  platformId: string;
  key: string;
  /** The request's own token: only it may complete or release the record. */
  token: string;
}

/**
 * What a request is, for its key: method, path, the body as canonical JSON (the same data with
 * its keys in another order is the same request) and `extra` (the wallet signature). The body is
 * serialised without recursion, so no depth the parser lets through can overflow the stack.
 */
export function requestFingerprint(method: string, path: string, body: unknown, extra = ''): string {
  return createHash('sha256')
    .update(method)
    .update('\n')
    .update(path)
    .update('\n')
    .update(canonicalJson(body ?? null))
    .update('\n')
    .update(extra)
    .digest('hex');
}

/**
 * Idempotency-Key store: the first response is kept and replayed byte for byte; a different
 * request under the same key, or one while the first still runs, is refused.
 *
 * A running key is leased to its request for as long as that request lives, no longer:
 * - Each process holds a Postgres session-level advisory lock on its random instance id over one
 *   connection of its own for its lifetime; a begin records that id and a per-request token.
 *   When the process dies, Postgres closes that session and frees the lock at once.
 * - A begin that finds the key running checks its owner: another process's request is alive
 *   while that process's lock is held (`pg_try_advisory_xact_lock` fails); one of this process
 *   is alive while its token is in `running`. A dead owner's key is taken over at once, in one
 *   compare-and-set on the token. The normal path stays one INSERT; the check only runs when the
 *   key is found running.
 * - `complete` and `release` act only on the request's own token, and always drop the token
 *   from `running`, even when their statement fails: a request that ended without storing its
 *   answer (a database error, a crash in the filter) leaves a key the next try takes over.
 */
export class IdempotencyService {
  /** Tokens of the requests of this process that hold a key right now. */
  private readonly running = new Set<string>();
  /** The locked instance id, once its connection holds the lock (opened on first use). */
  private instance: Promise<number> | null = null;
  /** After the lock connection broke: the id to lock again, so this process's rows stay its own. */
  private lostInstanceId: number | null = null;
  private lockClient: Client | null = null;
  private closed = false;

  constructor(private readonly pool: Pool) {}

  async begin(platformId: string, key: string, fingerprint: string): Promise<IdempotencyBegin> {
    const instanceId = await this.instanceId();
    const token = randomUUID();
    // Before the INSERT: a concurrent begin in this process that finds the row must see it alive.
    this.running.add(token);
    let proceeding = false;
    try {
      const outcome = await this.tryBegin(platformId, key, fingerprint, instanceId, token);
      proceeding = outcome.kind === 'proceed';
      return outcome;
    } finally {
      if (!proceeding) this.running.delete(token);
    }
  }

  private async tryBegin(platformId: string, key: string, fingerprint: string, instanceId: number, token: string): Promise<IdempotencyBegin> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.pool.query(
        `INSERT INTO idempotency_keys (platform_id, idempotency_key, fingerprint, state, owner_instance, owner_token)
         VALUES ($1, $2, $3, 'running', $4, $5) ON CONFLICT DO NOTHING`,
        [platformId, key, fingerprint, instanceId, token],
      );
      if (inserted.rowCount === 1) return { kind: 'proceed', token };
      const existing = await this.pool.query(
        `SELECT fingerprint, state, response_status, response_headers, response_body, owner_instance, owner_token,
                extract(epoch FROM now() - created_at) AS age_seconds,
                extract(epoch FROM now() - updated_at) AS idle_seconds
           FROM idempotency_keys WHERE platform_id = $1 AND idempotency_key = $2`,
        [platformId, key],
      );
      const row = existing.rows[0];
      if (!row) continue;
      if (Number(row.age_seconds) > KEY_TTL_SECONDS) {
        await this.pool.query(
          `DELETE FROM idempotency_keys WHERE platform_id = $1 AND idempotency_key = $2 AND created_at < now() - make_interval(secs => $3)`,
          [platformId, key, KEY_TTL_SECONDS],
        );
        continue;
      }
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'done') {
        return { kind: 'replay', status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body };
      }
      if (await this.takeOverIfOwnerDead(platformId, key, row, instanceId, token)) return { kind: 'proceed', token };
      return { kind: 'in_progress' };
    }
    return { kind: 'in_progress' };
  }

  /**
   * Takes a running key whose request is dead. Known dead here: an ownerless row past its lease,
   * or a row of this process whose token is no longer running. Otherwise the owner's lock
   * decides, in the same statement: free means its process is gone.
   */
  private async takeOverIfOwnerDead(
    platformId: string,
    key: string,
    row: { owner_instance: number | null; owner_token: string | null; idle_seconds: string },
    instanceId: number,
    token: string,
  ): Promise<boolean> {
    let knownDead = false;
    if (row.owner_token === null || row.owner_instance === null) {
      if (Number(row.idle_seconds) <= OWNERLESS_LEASE_SECONDS) return false;
      knownDead = true;
    } else if (row.owner_instance === instanceId) {
      if (this.running.has(row.owner_token)) return false;
      knownDead = true;
    }
    const takeover = await this.pool.query(
      `UPDATE idempotency_keys SET owner_instance = $3, owner_token = $4, updated_at = now()
        WHERE platform_id = $1 AND idempotency_key = $2 AND state = 'running' AND owner_token IS NOT DISTINCT FROM $5
          AND ($6::boolean OR pg_try_advisory_xact_lock(${OWNER_LOCK_CLASS}, owner_instance))`,
      [platformId, key, instanceId, token, row.owner_token, knownDead],
    );
    if (takeover.rowCount !== 1) return false;
    logger.warn('idempotency key taken over from a dead request', { platformId, ownerInstance: row.owner_instance });
    return true;
  }

  /**
   * Stores the answer. When that fails the request ends without a stored answer (it answers 500
   * or its 4xx unstored), so its key is released in the background instead: see releaseLater.
   */
  async complete(handle: IdempotencyHandle, status: number, headers: Record<string, string>, body: string): Promise<void> {
    try {
      await this.pool.query(
        `UPDATE idempotency_keys SET state = 'done', response_status = $4, response_headers = $5, response_body = $6, updated_at = now()
          WHERE platform_id = $1 AND idempotency_key = $2 AND owner_token = $3 AND state = 'running'`,
        [handle.platformId, handle.key, handle.token, status, JSON.stringify(headers), body],
      );
    } catch (error) {
      this.releaseLater(handle);
      throw error;
    } finally {
      this.running.delete(handle.token);
    }
  }

  /** 5xx answers are not stored: the key becomes free for a retry. */
  async release(handle: IdempotencyHandle): Promise<void> {
    try {
      await this.deleteRunning(handle);
    } catch (error) {
      this.releaseLater(handle);
      throw error;
    } finally {
      this.running.delete(handle.token);
    }
  }

  private deleteRunning(handle: IdempotencyHandle): Promise<unknown> {
    return this.pool.query(
      `DELETE FROM idempotency_keys WHERE platform_id = $1 AND idempotency_key = $2 AND owner_token = $3 AND state = 'running'`,
      [handle.platformId, handle.key, handle.token],
    );
  }

  /**
   * The request is over but its record could not be written (the database failed). A retry in
   * this process would take the key over (its token is gone), but one in another process sees
   * this live process's lock and would wait: so the record is deleted as soon as the database
   * answers again, tried with a growing pause up to 30 s.
   */
  private releaseLater(handle: IdempotencyHandle, pauseMs = 500): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.deleteRunning(handle).catch(() => this.releaseLater(handle, Math.min(pauseMs * 2, 30_000)));
    }, pauseMs);
    timer.unref();
  }

  /**
   * Deletes the records past the 24 h keep (a begin would ignore them anyway), oldest first, in
   * batches of short statements so the table is never locked for long. Answers how many went.
   */
  async purgeExpired(batchRows = PURGE_BATCH_ROWS): Promise<number> {
    let purged = 0;
    for (;;) {
      const result = await this.pool.query(
        `DELETE FROM idempotency_keys WHERE (platform_id, idempotency_key) IN (
           SELECT platform_id, idempotency_key FROM idempotency_keys
            WHERE created_at < now() - make_interval(secs => $1)
            ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [KEY_TTL_SECONDS, batchRows],
      );
      purged += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < batchRows) return purged;
    }
  }

  /** Nest calls this at shutdown: ends the lock connection, which frees the instance lock. */
  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const client = this.lockClient;
    this.lockClient = null;
    this.instance = null;
    await client?.end().catch(() => undefined);
  }

  private instanceId(): Promise<number> {
    if (this.closed) return Promise.reject(new Error('IdempotencyService is closed'));
    if (!this.instance) {
      const locking = this.lockInstance();
      this.instance = locking;
      // A failed attempt (database down) is tried again by the next begin.
      locking.catch(() => {
        if (this.instance === locking) this.instance = null;
      });
    }
    return this.instance;
  }

  /**
   * Opens the connection that holds this process's instance lock for its lifetime. Server-side
   * TCP keepalives make Postgres notice a host that vanished without closing its socket within
   * about half a minute (a process that dies on a live host closes it at once).
   */
  private async lockInstance(): Promise<number> {
    const options = (this.pool as unknown as { options: ClientConfig }).options;
    const client = new Client({ ...options, keepAlive: true });
    client.on('error', (error) => logger.warn('idempotency instance lock connection error', { error: String(error) }));
    await client.connect();
    try {
      await client.query(`SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3`);
      for (let attempt = 0; attempt < 10; attempt++) {
        const instanceId = attempt === 0 && this.lostInstanceId !== null ? this.lostInstanceId : randomInt(1, 2 ** 31 - 1);
        const locked = await client.query(`SELECT pg_try_advisory_lock(${OWNER_LOCK_CLASS}, $1) AS locked`, [instanceId]);
        if (locked.rows[0].locked !== true) continue;
        // Shut down while connecting: nobody would end this connection later.
        if (this.closed) throw new Error('IdempotencyService is closed');
        this.lostInstanceId = null;
        this.lockClient = client;
        client.once('end', () => this.lockLost(client, instanceId));
        return instanceId;
      }
      throw new Error('no free idempotency instance id after 10 tries');
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  /**
   * The lock connection ended while the process lives (database restart, network): other
   * processes may now take over this process's running keys (their late `complete` then changes
   * nothing). The next begin locks the same id again, if still free.
   */
  private lockLost(client: Client, instanceId: number): void {
    if (this.closed || this.lockClient !== client) return;
    logger.warn('idempotency instance lock lost; locking again on the next request', { instanceId });
    this.lockClient = null;
    this.instance = null;
    this.lostInstanceId = instanceId;
  }
}
