import { Projection, ProjectionTransaction } from '../../src/infra/projections/projection';
import { WalletSessionCreated, WalletSessionRevoked } from '../../src/wallet-auth';
import { WalletCredentialRegistered, WalletCredentialRemoved } from '../../src/wallet-auth';
import { credentialView, sessionView } from '../../src/wallet-auth';

/**
 * Embedded-wallet credentials and sessions as `GET /auth/credentials` and `GET /auth/sessions`
 * list them, plus the lookup columns the flows need (credential -> wallet, passkey credential id
 * and email uniqueness, session key fingerprint). One projection, because removing a credential
 * ends its sessions. The key fingerprint is a hash of a public key; no secret reaches this table.
 */
export const walletAuthProjection: Projection = {
  name: 'wallet-auth',
  // 2: PASSKEY sessions show their passkey's `credentialId`.
  version: 2,
  tables: ['wallet_credentials', 'wallet_sessions'],
  schema: (t) => [
    `CREATE TABLE IF NOT EXISTS ${t('wallet_credentials')} (
       credential_id text PRIMARY KEY,
       platform_id text NOT NULL,
       account_id text NOT NULL,
       credential_type text NOT NULL,
       webauthn_credential_id text,
       email_lower text,
       view text NOT NULL,
       created_at timestamptz NOT NULL,
       removed_at timestamptz
     )`,
    `CREATE INDEX ON ${t('wallet_credentials')} (platform_id, account_id, created_at)`,
    `CREATE INDEX ON ${t('wallet_credentials')} (platform_id, webauthn_credential_id)`,
    `CREATE INDEX ON ${t('wallet_credentials')} (platform_id, email_lower)`,
    `CREATE TABLE IF NOT EXISTS ${t('wallet_sessions')} (
       session_id text PRIMARY KEY,
       platform_id text NOT NULL,
       account_id text NOT NULL,
       credential_id text NOT NULL,
       key_fingerprint text NOT NULL,
       view text NOT NULL,
       created_at timestamptz NOT NULL,
       expires_at timestamptz NOT NULL,
       ended_at timestamptz
     )`,
    `CREATE INDEX ON ${t('wallet_sessions')} (platform_id, account_id, expires_at)`,
    `CREATE INDEX ON ${t('wallet_sessions')} (platform_id, account_id, key_fingerprint)`,
    `CREATE INDEX ON ${t('wallet_sessions')} (credential_id)`,
  ],
  handles: ['WalletCredentialRegistered', 'WalletCredentialRemoved', 'WalletSessionCreated', 'WalletSessionRevoked'],
  async apply(event, tx) {
    switch (event.type) {
      case 'WalletCredentialRegistered': {
        const data = event.data as WalletCredentialRegistered['data'];
        const view = credentialView({
          credentialId: data.credentialId,
          accountId: data.accountId,
          credentialType: data.credentialType,
          webAuthnCredentialId: data.passkey?.webAuthnCredentialId ?? null,
          nickname: data.nickname,
          registeredAt: data.registeredAt,
        });
        await tx.query(
          `INSERT INTO ${tx.table('wallet_credentials')}
             (credential_id, platform_id, account_id, credential_type, webauthn_credential_id, email_lower, view, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (credential_id) DO NOTHING`,
          [
            data.credentialId,
            data.platformId,
            data.accountId,
            data.credentialType,
            data.passkey?.webAuthnCredentialId ?? null,
            data.email === null ? null : data.email.toLowerCase(),
            JSON.stringify(view),
            data.registeredAt,
          ],
        );
        return;
      }
      case 'WalletCredentialRemoved': {
        const data = event.data as WalletCredentialRemoved['data'];
        await tx.query(`UPDATE ${tx.table('wallet_credentials')} SET removed_at = $2 WHERE credential_id = $1`, [data.credentialId, data.removedAt]);
        await tx.query(`UPDATE ${tx.table('wallet_sessions')} SET ended_at = $2 WHERE credential_id = $1 AND ended_at IS NULL`, [data.credentialId, data.removedAt]);
        return;
      }
      case 'WalletSessionCreated': {
        const data = event.data as WalletSessionCreated['data'];
        const view = sessionView({
          sessionId: data.sessionId,
          accountId: data.accountId,
          credentialType: data.credentialType,
          webAuthnCredentialId: data.webAuthnCredentialId === undefined ? await passkeyIdOf(tx, data.credentialId) : data.webAuthnCredentialId,
          nickname: data.nickname,
          createdAt: data.createdAt,
          expiresAt: data.expiresAt,
        });
        await tx.query(
          `INSERT INTO ${tx.table('wallet_sessions')}
             (session_id, platform_id, account_id, credential_id, key_fingerprint, view, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (session_id) DO NOTHING`,
          [data.sessionId, data.platformId, data.accountId, data.credentialId, data.publicKeyFingerprint, JSON.stringify(view), data.createdAt, data.expiresAt],
        );
        return;
      }
      case 'WalletSessionRevoked': {
        const data = event.data as WalletSessionRevoked['data'];
        await tx.query(`UPDATE ${tx.table('wallet_sessions')} SET ended_at = $2 WHERE session_id = $1 AND ended_at IS NULL`, [data.sessionId, data.revokedAt]);
        return;
      }
    }
  },
};

/** Sessions recorded before they named their passkey: their credential's row does. */
async function passkeyIdOf(tx: ProjectionTransaction, credentialId: string): Promise<string | null> {
  const result = await tx.query<{ webauthn_credential_id: string | null }>(
    `SELECT webauthn_credential_id FROM ${tx.table('wallet_credentials')} WHERE credential_id = $1`,
    [credentialId],
  );
  return result.rows[0]?.webauthn_credential_id ?? null;
}
