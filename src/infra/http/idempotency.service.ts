import { createHash } from 'node:crypto';
import { Pool } from 'pg';

export const IDEMPOTENCY_DDL = `
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
  PRIMARY KEY (platform_id, idempotency_key)
)`;

/** Keys are kept 24 h (DECISIONS.md section 1). */
const KEY_TTL_SECONDS = 24 * 60 * 60;
/** A "running" record older than this belongs to a crashed request and may be taken over. */
const RUNNING_LEASE_SECONDS = 60;

export type IdempotencyBegin =
  | { kind: 'proceed' }
  | { kind: 'replay'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

export interface IdempotencyHandle {
  platformId: string;
  key: string;
}

export function requestFingerprint(method: string, path: string, body: unknown, extra = ''): string {
  return createHash('sha256')
    .update(method)
    .update('\n')
    .update(path)
    .update('\n')
    .update(JSON.stringify(body ?? null))
    .update('\n')
    .update(extra)
    .digest('hex');
}

/**
 * Idempotency-Key store: the first response is kept and replayed byte for byte; a different
 * request under the same key, or one while the first still runs, is refused.
 */
export class IdempotencyService {
  constructor(private readonly pool: Pool) {}

  async begin(platformId: string, key: string, fingerprint: string): Promise<IdempotencyBegin> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.pool.query(
        `INSERT INTO idempotency_keys (platform_id, idempotency_key, fingerprint, state)
         VALUES ($1, $2, $3, 'running') ON CONFLICT DO NOTHING`,
        [platformId, key, fingerprint],
      );
      if (inserted.rowCount === 1) return { kind: 'proceed' };
      const existing = await this.pool.query(
        `SELECT fingerprint, state, response_status, response_headers, response_body,
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
      if (Number(row.idle_seconds) > RUNNING_LEASE_SECONDS) {
        const takeover = await this.pool.query(
          `UPDATE idempotency_keys SET updated_at = now()
            WHERE platform_id = $1 AND idempotency_key = $2 AND state = 'running' AND updated_at < now() - make_interval(secs => $3)`,
          [platformId, key, RUNNING_LEASE_SECONDS],
        );
        if (takeover.rowCount === 1) return { kind: 'proceed' };
      }
      return { kind: 'in_progress' };
    }
    return { kind: 'in_progress' };
  }

  async complete(handle: IdempotencyHandle, status: number, headers: Record<string, string>, body: string): Promise<void> {
    await this.pool.query(
      `UPDATE idempotency_keys SET state = 'done', response_status = $3, response_headers = $4, response_body = $5, updated_at = now()
        WHERE platform_id = $1 AND idempotency_key = $2`,
      [handle.platformId, handle.key, status, JSON.stringify(headers), body],
    );
  }

  /** 5xx answers are not stored: the key becomes free for a retry. */
  async release(handle: IdempotencyHandle): Promise<void> {
    await this.pool.query(`DELETE FROM idempotency_keys WHERE platform_id = $1 AND idempotency_key = $2 AND state = 'running'`, [
      handle.platformId,
      handle.key,
    ]);
  }
}
