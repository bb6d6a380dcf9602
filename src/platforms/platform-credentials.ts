import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { Pool } from 'pg';
import { AuthenticatedPlatform } from '../infra/http/platform-auth.guard';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** scrypt with Node's defaults (N=16384, r=8, p=1): every secret, and the dummy, use these. */
const SALT_BYTES = 16;
const HASH_BYTES = 32;

export const PLATFORM_CREDENTIALS_DDL = `
CREATE TABLE IF NOT EXISTS platform_credentials (
  client_id text PRIMARY KEY,
  platform_id text NOT NULL,
  secret_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`;

interface StoredHash {
  salt: Buffer;
  hash: Buffer;
}

/**
 * Platform API credentials. Secrets are stored as scrypt hashes and compared in constant time.
 *
 * Timing: an unknown client id and a known one with a wrong secret do the same work (one indexed
 * SELECT, one scrypt with the same parameters, one constant-time compare; an unknown id is checked
 * against a dummy hash), so client ids cannot be enumerated by timing. Only VERIFIED pairs are
 * cached: (client id, SHA-256 of the secret that passed scrypt). A request whose secret matches
 * the cached digest skips scrypt (the hot path: one SHA-256 and a map lookup); any other secret for
 * that id takes the full path above, exactly like an unknown id.
 */
export class PlatformCredentialStore {
  private readonly verified = new Map<string, { digest: Buffer; platform: AuthenticatedPlatform }>();
  /** Checked when the client id is unknown; its secret is random and never kept, so nothing matches it. */
  private readonly dummy: Promise<StoredHash>;

  constructor(private readonly pool: Pool) {
    const salt = randomBytes(SALT_BYTES);
    this.dummy = scrypt(randomBytes(32).toString('base64url'), salt, HASH_BYTES).then((hash) => ({ salt, hash }));
  }

  async store(platformId: string, clientId: string, clientSecret: string): Promise<void> {
    const salt = randomBytes(SALT_BYTES);
    const hash = await scrypt(clientSecret, salt, HASH_BYTES);
    await this.pool.query(
      `INSERT INTO platform_credentials (client_id, platform_id, secret_hash) VALUES ($1, $2, $3)
       ON CONFLICT (client_id) DO UPDATE SET platform_id = EXCLUDED.platform_id, secret_hash = EXCLUDED.secret_hash`,
      [clientId, platformId, `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`],
    );
    this.verified.delete(clientId);
  }

  async platformIdFor(clientId: string): Promise<string | null> {
    const result = await this.pool.query(`SELECT platform_id FROM platform_credentials WHERE client_id = $1`, [clientId]);
    return result.rows[0]?.platform_id ?? null;
  }

  /** The platform whose credentials these are, or null (unknown id or wrong secret: same work, same answer). */
  async verify(clientId: string, clientSecret: string): Promise<AuthenticatedPlatform | null> {
    const digest = createHash('sha256').update(clientSecret).digest();
    const cached = this.verified.get(clientId);
    if (cached && timingSafeEqual(cached.digest, digest)) return cached.platform;
    const dummy = await this.dummy;
    const result = await this.pool.query(`SELECT platform_id, secret_hash FROM platform_credentials WHERE client_id = $1`, [clientId]);
    const row = result.rows[0] as { platform_id: string; secret_hash: string } | undefined;
    const stored = row ? parseStoredHash(row.secret_hash) : null;
    const expected = stored ?? dummy;
    const actual = await scrypt(clientSecret, expected.salt, expected.hash.length);
    const matches = timingSafeEqual(expected.hash, actual);
    if (!row || !stored || !matches) return null;
    const platform = { platformId: row.platform_id, clientId };
    this.verified.set(clientId, { digest, platform });
    return platform;
  }
}

function parseStoredHash(text: string): StoredHash | null {
  const [scheme, saltHex, hashHex] = text.split('$');
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return null;
  return { salt: Buffer.from(saltHex, 'hex'), hash: Buffer.from(hashHex, 'hex') };
}
