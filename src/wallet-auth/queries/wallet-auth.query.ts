import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '../../infra/postgres/pool';
import { CredentialType } from '../domain/wallet/wallet.events';
import { CredentialView, SessionView } from './wallet-auth.views';

export interface CredentialLocation {
  credentialId: string;
  accountId: string;
  credentialType: CredentialType;
  view: CredentialView;
}

export interface SessionLocation {
  sessionId: string;
  accountId: string;
  credentialId: string;
  view: SessionView;
}

/**
 * Read side of the embedded-wallet context (the `wallet-auth` projection). Every query filters on
 * the platform, so another platform's ids are simply not found. Decisions that must be exact
 * (is this session live, may this credential be removed) re-read the streams; these rows only
 * find them.
 */
@Injectable()
export class WalletAuthQuery {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async listCredentials(platformId: string, accountId: string): Promise<CredentialView[]> {
    const result = await this.pool.query<{ view: string }>(
      `SELECT view FROM wallet_credentials WHERE platform_id = $1 AND account_id = $2 AND removed_at IS NULL ORDER BY created_at, credential_id`,
      [platformId, accountId],
    );
    return result.rows.map((row) => JSON.parse(row.view) as CredentialView);
  }

  async findCredential(platformId: string, credentialId: string): Promise<CredentialLocation | null> {
    const result = await this.pool.query<{ account_id: string; credential_type: CredentialType; view: string }>(
      `SELECT account_id, credential_type, view FROM wallet_credentials WHERE platform_id = $1 AND credential_id = $2 AND removed_at IS NULL`,
      [platformId, credentialId],
    );
    const row = result.rows[0];
    return row ? { credentialId, accountId: row.account_id, credentialType: row.credential_type, view: JSON.parse(row.view) } : null;
  }

  /** Whether another wallet of the platform already logs in with this passkey. */
  async isPasskeyRegistered(platformId: string, webAuthnCredentialId: string): Promise<boolean> {
    const result = await this.pool.query(
      `SELECT 1 FROM wallet_credentials WHERE platform_id = $1 AND webauthn_credential_id = $2 AND removed_at IS NULL LIMIT 1`,
      [platformId, webAuthnCredentialId],
    );
    return result.rowCount! > 0;
  }

  /** Whether another wallet of the platform has an EMAIL_OTP credential for this address. */
  async isEmailUsedElsewhere(platformId: string, email: string, accountId: string): Promise<boolean> {
    const result = await this.pool.query(
      `SELECT 1 FROM wallet_credentials
        WHERE platform_id = $1 AND email_lower = $2 AND account_id <> $3 AND credential_type = 'EMAIL_OTP' AND removed_at IS NULL LIMIT 1`,
      [platformId, email.toLowerCase(), accountId],
    );
    return result.rowCount! > 0;
  }

  /** Sessions not revoked and not expired at `now`, oldest first. */
  async listActiveSessions(platformId: string, accountId: string, now: Date): Promise<SessionView[]> {
    const result = await this.pool.query<{ view: string }>(
      `SELECT view FROM wallet_sessions
        WHERE platform_id = $1 AND account_id = $2 AND ended_at IS NULL AND expires_at > $3 ORDER BY created_at, session_id`,
      [platformId, accountId, now],
    );
    return result.rows.map((row) => JSON.parse(row.view) as SessionView);
  }

  async findSession(platformId: string, sessionId: string): Promise<SessionLocation | null> {
    const result = await this.pool.query<{ account_id: string; credential_id: string; view: string }>(
      `SELECT account_id, credential_id, view FROM wallet_sessions WHERE platform_id = $1 AND session_id = $2`,
      [platformId, sessionId],
    );
    const row = result.rows[0];
    return row ? { sessionId, accountId: row.account_id, credentialId: row.credential_id, view: JSON.parse(row.view) } : null;
  }

  /**
   * Candidate sessions for a signature: live sessions of the wallet with this key fingerprint, or
   * every live session of the wallet when `fingerprint` is null (the sandbox literal), newest first.
   */
  async findLiveSessionIds(platformId: string, accountId: string, fingerprint: string | null, now: Date): Promise<string[]> {
    const params: unknown[] = [platformId, accountId, now];
    let condition = '';
    if (fingerprint !== null) {
      params.push(fingerprint);
      condition = ' AND key_fingerprint = $4';
    }
    const result = await this.pool.query<{ session_id: string }>(
      `SELECT session_id FROM wallet_sessions
        WHERE platform_id = $1 AND account_id = $2 AND ended_at IS NULL AND expires_at > $3${condition}
        ORDER BY created_at DESC, session_id DESC LIMIT 20`,
      params,
    );
    return result.rows.map((row) => row.session_id);
  }
}
