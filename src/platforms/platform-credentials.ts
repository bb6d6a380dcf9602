import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { Pool } from 'pg';
import { PERMISSIONS, Permission } from '../infra/http/permissions';
import { AuthenticatedPlatform } from '../infra/http/platform-auth.guard';
import { lookup } from '../infra/postgres/pool';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** scrypt with Node's defaults (N=16384, r=8, p=1): every secret, and the dummy, use these. */
const SALT_BYTES = 16;
const HASH_BYTES = 32;

/**
 * One row per credential pair: the bootstrap credentials (`token_id` and `permissions` null: every
 * permission, never revoked) and API tokens (their id and permissions; the row is deleted when the
 * token is revoked). One text, so one implicit transaction: processes starting together on an
 * older table take the ALTER's lock in turn instead of racing to add the columns and the index.
 */
export const PLATFORM_CREDENTIALS_DDL = `
CREATE TABLE IF NOT EXISTS platform_credentials (
  client_id text PRIMARY KEY,
  platform_id text NOT NULL,
  secret_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE platform_credentials ADD COLUMN IF NOT EXISTS token_id text, ADD COLUMN IF NOT EXISTS permissions text[];
CREATE UNIQUE INDEX IF NOT EXISTS platform_credentials_token_id ON platform_credentials (token_id)`;

interface StoredHash {
  salt: Buffer;
  hash: Buffer;
}

export interface TokenCredentials {
  platformId: string;
  tokenId: string;
  clientId: string;
  clientSecret: string;
  permissions: readonly Permission[];
}

interface VerifiedPair {
  digest: Buffer;
  platform: AuthenticatedPlatform;
  /** An API token's pair can be revoked: it is confirmed against the table on every request. */
  revocable: boolean;
}

/**
 * Platform API credentials: the bootstrap pair and API tokens alike. Secrets are stored as scrypt
 * hashes and compared in constant time.
 *
 * Timing: an unknown client id and a known one with a wrong secret do the same work (one indexed
 * SELECT, one scrypt with the same parameters, one constant-time compare; an unknown id is checked
 * against a dummy hash), so client ids cannot be enumerated by timing. Only VERIFIED pairs are
 * cached: (client id, SHA-256 of the secret that passed scrypt). A request whose secret matches
 * the cached digest skips scrypt (the hot path: one SHA-256 and a map lookup); any other secret for
 * that id takes the full path above, exactly like an unknown id.
 *
 * Revocation: a revoked token's row is deleted, by whichever process revoked it. A cached token
 * pair is used only after one primary-key SELECT confirms its row is still there, so every
 * process refuses a revoked token from the request after the revocation answered; a gone row
 * drops the pair and the request takes the full path (refused, like an unknown id). Bootstrap
 * pairs cannot be revoked and skip that read (no statement added to their requests).
 */
export class PlatformCredentialStore {
  private readonly verified = new Map<string, VerifiedPair>();
  /** Checked when the client id is unknown; its secret is random and never kept, so nothing matches it. */
  private readonly dummy: Promise<StoredHash>;

  constructor(private readonly pool: Pool) {
    const salt = randomBytes(SALT_BYTES);
    this.dummy = scrypt(randomBytes(32).toString('base64url'), salt, HASH_BYTES).then((hash) => ({ salt, hash }));
  }

  async store(platformId: string, clientId: string, clientSecret: string): Promise<void> {
    // Never over an API token's row: a token is changed only by revoking it.
    await this.pool.query(
      `INSERT INTO platform_credentials (client_id, platform_id, secret_hash) VALUES ($1, $2, $3)
       ON CONFLICT (client_id) DO UPDATE SET platform_id = EXCLUDED.platform_id, secret_hash = EXCLUDED.secret_hash
       WHERE platform_credentials.token_id IS NULL`,
      [clientId, platformId, await hashed(clientSecret)],
    );
    this.verified.delete(clientId);
  }

  /** An API token's pair, usable from now on (a client id already taken fails: it is never overwritten). */
  async storeToken(token: TokenCredentials): Promise<void> {
    await this.pool.query(
      `INSERT INTO platform_credentials (client_id, platform_id, secret_hash, token_id, permissions) VALUES ($1, $2, $3, $4, $5)`,
      [token.clientId, token.platformId, await hashed(token.clientSecret), token.tokenId, token.permissions],
    );
  }

  /** Deletes the platform's token pair (nothing for another platform's token or one already gone). */
  async deleteToken(platformId: string, tokenId: string): Promise<void> {
    const deleted = await this.pool.query<{ client_id: string }>(
      `DELETE FROM platform_credentials WHERE token_id = $1 AND platform_id = $2 RETURNING client_id`,
      [tokenId, platformId],
    );
    for (const row of deleted.rows) this.verified.delete(row.client_id);
  }

  async platformIdFor(clientId: string): Promise<string | null> {
    const result = await this.pool.query(`SELECT platform_id FROM platform_credentials WHERE client_id = $1`, [clientId]);
    return result.rows[0]?.platform_id ?? null;
  }

  /** The platform whose credentials these are, or null (unknown id or wrong secret: same work, same answer). */
  async verify(clientId: string, clientSecret: string): Promise<AuthenticatedPlatform | null> {
    const digest = createHash('sha256').update(clientSecret).digest();
    const cached = this.verified.get(clientId);
    if (cached && timingSafeEqual(cached.digest, digest)) {
      if (!cached.revocable || (await this.stillStored(clientId))) return cached.platform;
      this.verified.delete(clientId);
    }
    const dummy = await this.dummy;
    const result = await this.pool.query(`SELECT platform_id, secret_hash, token_id, permissions FROM platform_credentials WHERE client_id = $1`, [clientId]);
    const row = result.rows[0] as { platform_id: string; secret_hash: string; token_id: string | null; permissions: Permission[] | null } | undefined;
    const stored = row ? parseStoredHash(row.secret_hash) : null;
    const expected = stored ?? dummy;
    const actual = await scrypt(clientSecret, expected.salt, expected.hash.length);
    const matches = timingSafeEqual(expected.hash, actual);
    if (!row || !stored || !matches) return null;
    const platform = { platformId: row.platform_id, clientId, permissions: row.permissions ?? PERMISSIONS };
    this.verified.set(clientId, { digest, platform, revocable: row.token_id !== null });
    return platform;
  }

  /** Whether a token's row is still there (not revoked): one primary-key read on the lookup lane. */
  private async stillStored(clientId: string): Promise<boolean> {
    const result = await lookup(this.pool, `SELECT 1 FROM platform_credentials WHERE client_id = $1`, [clientId]);
    return result.rows.length > 0;
  }
}

async function hashed(secret: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await scrypt(secret, salt, HASH_BYTES);
  return `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`;
}

function parseStoredHash(text: string): StoredHash | null {
  const [scheme, saltHex, hashHex] = text.split('$');
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return null;
  return { salt: Buffer.from(saltHex, 'hex'), hash: Buffer.from(hashHex, 'hex') };
}
