import { createCipheriv, createDecipheriv, generateKeyPairSync, randomBytes, KeyObject, createPrivateKey, createPublicKey } from 'node:crypto';
import { Pool } from 'pg';

export const KEY_VAULT = Symbol('KEY_VAULT');

export const KEY_VAULT_DDL = `
CREATE TABLE IF NOT EXISTS sealed_secrets (
  id text PRIMARY KEY,
  purpose text NOT NULL,
  nonce bytea NOT NULL,
  ciphertext bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz
)`;

export const PERSONAL_DATA_KEY_PURPOSE = 'personal-data-key';

/** Whether the vault holds `id`; needs no master key (operator CLIs). */
export async function sealedSecretExists(pool: Pool, id: string): Promise<boolean> {
  const result = await pool.query(`SELECT 1 FROM sealed_secrets WHERE id = $1`, [id]);
  return result.rows.length > 0;
}

/**
 * Deletes sealed secrets; deleting a wrapped data key shreds everything sealed with it, and needs
 * no master key (operator CLIs). Deleting an absent id is a no-op.
 */
export async function destroySealedSecrets(pool: Pool, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await pool.query(`DELETE FROM sealed_secrets WHERE id = ANY($1::text[])`, [ids]);
}

/**
 * Secrets (target private keys, session keys, wallet secrets, service signing keys) are sealed
 * with AES-256-GCM under the master key and stored here, never in events or logs. So are the
 * per-customer data keys that seal personal data in events (envelope encryption: the master key
 * wraps the data keys, the data keys seal the fields).
 */
export class KeyVault {
  private readonly serviceKeys = new Map<string, { privateKey: KeyObject; publicKey: KeyObject }>();

  constructor(
    private readonly pool: Pool,
    private readonly masterKey: Buffer,
  ) {
    if (masterKey.length !== 32) throw new Error('master key must be 32 bytes');
  }

  async seal(id: string, purpose: string, secret: Buffer, expiresAt: Date | null = null): Promise<void> {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.masterKey, nonce);
    cipher.setAAD(Buffer.from(id, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
    await this.pool.query(
      `INSERT INTO sealed_secrets (id, purpose, nonce, ciphertext, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET purpose = EXCLUDED.purpose, nonce = EXCLUDED.nonce,
         ciphertext = EXCLUDED.ciphertext, expires_at = EXCLUDED.expires_at`,
      [id, purpose, nonce, ciphertext, expiresAt],
    );
  }

  /** Inserts only if absent; returns false when the id already exists. */
  async sealOnce(id: string, purpose: string, secret: Buffer, expiresAt: Date | null = null): Promise<boolean> {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.masterKey, nonce);
    cipher.setAAD(Buffer.from(id, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
    const result = await this.pool.query(
      `INSERT INTO sealed_secrets (id, purpose, nonce, ciphertext, expires_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
      [id, purpose, nonce, ciphertext, expiresAt],
    );
    return result.rowCount === 1;
  }

  async open(id: string): Promise<Buffer | null> {
    const result = await this.pool.query(
      `SELECT nonce, ciphertext FROM sealed_secrets WHERE id = $1 AND (expires_at IS NULL OR expires_at > now())`,
      [id],
    );
    const row = result.rows[0];
    if (!row) return null;
    const data: Buffer = row.ciphertext;
    const decipher = createDecipheriv('aes-256-gcm', this.masterKey, row.nonce);
    decipher.setAAD(Buffer.from(id, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - 16));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]);
  }

  async destroy(id: string): Promise<void> {
    await destroySealedSecrets(this.pool, [id]);
  }

  /**
   * A data key for personal data (src/infra/crypto/personal-data.ts): 32 random bytes stored
   * wrapped by the master key under `keyId`. Created once; a second call keeps the first key.
   */
  async createDataKey(keyId: string): Promise<void> {
    await this.sealOnce(keyId, PERSONAL_DATA_KEY_PURPOSE, randomBytes(32));
  }

  /** The unwrapped data key, or null once it was destroyed (crypto-shredding) or never created. */
  async dataKey(keyId: string): Promise<Buffer | null> {
    return this.open(keyId);
  }

  /**
   * A long-lived service P-256 key pair (webhook signing, wallet enclave), created on first use
   * and shared by every process of the deployment.
   */
  async serviceKey(name: string): Promise<{ privateKey: KeyObject; publicKey: KeyObject }> {
    const cached = this.serviceKeys.get(name);
    if (cached) return cached;
    const id = `service-key:${name}`;
    let pem = await this.open(id);
    if (!pem) {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      await this.sealOnce(id, 'service-key', Buffer.from(privateKey.export({ format: 'pem', type: 'pkcs8' }) as string));
      pem = await this.open(id);
    }
    const privateKey = createPrivateKey(pem!.toString('utf8'));
    const pair = { privateKey, publicKey: createPublicKey(privateKey) };
    this.serviceKeys.set(name, pair);
    return pair;
  }
}
