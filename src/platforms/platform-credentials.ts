import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { Pool } from 'pg';
import { AuthenticatedPlatform, PlatformAuthenticator } from '../infra/http/platform-auth.guard';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export const PLATFORM_CREDENTIALS_DDL = `
CREATE TABLE IF NOT EXISTS platform_credentials (
  client_id text PRIMARY KEY,
  platform_id text NOT NULL,
  secret_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Platform API credentials. Secrets are stored as scrypt hashes and compared in constant time.
 * A verified (client id, secret digest) pair is cached in memory so the slow hash runs once per
 * process, not once per request.
 */
export class PlatformCredentialStore implements PlatformAuthenticator {
  private readonly verified = new Map<string, { digest: Buffer; platform: AuthenticatedPlatform }>();

  constructor(private readonly pool: Pool) {}

  async store(platformId: string, clientId: string, clientSecret: string): Promise<void> {
    const salt = randomBytes(16);
    const hash = await scrypt(clientSecret, salt, 32);
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

  async authenticate(clientId: string, clientSecret: string): Promise<AuthenticatedPlatform | null> {
    const digest = createHash('sha256').update(clientSecret).digest();
    const cached = this.verified.get(clientId);
    if (cached) return timingSafeEqual(cached.digest, digest) ? cached.platform : null;
    const result = await this.pool.query(`SELECT platform_id, secret_hash FROM platform_credentials WHERE client_id = $1`, [clientId]);
    const row = result.rows[0];
    if (!row) {
      // Spend the same time as a real check so unknown ids are not distinguishable by timing.
      await scrypt(clientSecret, Buffer.alloc(16), 32);
      return null;
    }
    const [, saltHex, hashHex] = String(row.secret_hash).split('$');
    const expected = Buffer.from(hashHex, 'hex');
    const actual = await scrypt(clientSecret, Buffer.from(saltHex, 'hex'), expected.length);
    if (!timingSafeEqual(expected, actual)) return null;
    const platform = { platformId: row.platform_id as string, clientId };
    this.verified.set(clientId, { digest, platform });
    return platform;
  }
}
