import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../infra/domain/domain-error';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { validateBody } from '../../infra/http/validation';
import { WALLET_ACTIVITY_TYPES } from '../../shared/wallet-payloads';
import { CLIENT_PUBLIC_KEY_PATTERN, checkClientPublicKey } from '../crypto/credential-bundle';
import { isSessionActive, SessionRecord } from '../domain/session/session.decider';
import { ClientPublicKeyDto } from '../http/wallet-auth.dto';
import { WalletAuthQuery } from '../queries/wallet-auth.query';
import { SESSION_LIFETIME_MS } from '../wallet-auth.constants';
import { sessionNotFound, walletUnauthorized } from '../domain/wallet-auth.errors';
import { SignedCallHeaders, SignedRequests, readSignedCall } from './signed-requests';
import { WalletAccounts } from './wallet-accounts';
import { WalletAuthStore } from './wallet-auth.store';
import { WalletSessions } from './wallet-sessions';
import { WalletClock } from './wallet-clock';

/**
 * `DELETE /auth/sessions/{id}` (signed by any live session of the wallet, 204) and
 * `POST /auth/sessions/{id}/refresh` (signed by that session itself, 201 with a new session).
 */
@Injectable()
export class SessionActions {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly query: WalletAuthQuery,
    private readonly accounts: WalletAccounts,
    private readonly signed: SignedRequests,
    private readonly sessions: WalletSessions,
  ) {}

  async revoke(platformId: string, sessionId: string, headers: SignedCallHeaders): Promise<HttpResult<unknown>> {
    const now = this.clock.now();
    const session = await this.liveSession(platformId, sessionId, now, () => sessionNotFound());
    const call = readSignedCall(headers);
    const wallet = await this.store.loadWallet(session.accountId);
    const scope = { platformId, accountId: session.accountId, action: 'REVOKE_SESSION' as const, targetId: sessionId };
    if (call.kind === 'first') {
      const { challenge } = await this.signed.issue({
        ...scope,
        credentialType: session.credentialType,
        body: {},
        credentialSetVersion: wallet.credentialSetVersion,
        activity: { type: WALLET_ACTIVITY_TYPES.REVOKE_SESSION, parameters: { sessionId } },
        now,
      });
      return withStatus(202, challenge);
    }
    const { request } = await this.signed.redeem({
      scope,
      retry: call,
      body: {},
      credentialSetVersion: wallet.credentialSetVersion,
      sandbox: this.accounts.sandbox,
      authorise: async (verified) => (await this.sessions.authorise(platformId, session.accountId, verified, {}, now)).sessionId,
      now,
    });
    await this.store.handleSession(sessionId, { type: 'RevokeSession', requestId: request.requestId, now: now.toISOString() });
    return withStatus(204, undefined);
  }

  async refresh(platformId: string, sessionId: string, rawBody: unknown, headers: SignedCallHeaders): Promise<HttpResult<unknown>> {
    const body = validateBody(ClientPublicKeyDto, rawBody);
    const key = checkClientPublicKey(body.clientPublicKey);
    if (!key.ok) throw new ValidationError([{ field: 'clientPublicKey', constraint: { pattern: CLIENT_PUBLIC_KEY_PATTERN.source }, message: key.reason }]);
    const now = this.clock.now();
    // A session that has ended cannot vouch for a new one: log in again instead.
    const session = await this.liveSession(platformId, sessionId, now, () =>
      walletUnauthorized('The session is no longer active (expired or revoked); log in again', 'SESSION_NOT_ACTIVE'),
    );
    const call = readSignedCall(headers);
    const wallet = await this.store.loadWallet(session.accountId);
    const scope = { platformId, accountId: session.accountId, action: 'REFRESH_SESSION' as const, targetId: sessionId };
    if (call.kind === 'first') {
      const { challenge } = await this.signed.issue({
        ...scope,
        credentialType: null,
        body: rawBody,
        credentialSetVersion: wallet.credentialSetVersion,
        boundPublicKey: body.clientPublicKey,
        activity: {
          type: WALLET_ACTIVITY_TYPES.REFRESH_SESSION,
          parameters: { sessionId, targetPublicKey: body.clientPublicKey, expirationSeconds: String(SESSION_LIFETIME_MS / 1000) },
        },
        now,
      });
      return withStatus(202, challenge);
    }
    const { request } = await this.signed.redeem({
      scope,
      retry: call,
      body: rawBody,
      credentialSetVersion: wallet.credentialSetVersion,
      sandbox: this.accounts.sandbox,
      authorise: async (verified) => (await this.sessions.authorise(platformId, session.accountId, verified, { onlySessionId: sessionId }, now)).sessionId,
      now,
    });
    const credential = wallet.credentials[session.credentialId];
    const refreshed = await this.sessions.open({
      platformId,
      accountId: session.accountId,
      credential: credential ?? { credentialId: session.credentialId, credentialType: session.credentialType, nickname: session.nickname },
      clientPublicKey: request.boundPublicKey!,
      requestId: request.requestId,
      refreshedFromSessionId: sessionId,
      now,
    });
    return withStatus(201, refreshed);
  }

  /** The session, if this platform's and live; `missing` builds the refusal otherwise. */
  private async liveSession(platformId: string, sessionId: string, now: Date, missing: () => Error): Promise<SessionRecord> {
    const location = await this.query.findSession(platformId, sessionId);
    if (!location) throw sessionNotFound();
    const state = await this.store.loadSession(sessionId);
    if (!isSessionActive(state, now.getTime()) || state.session.platformId !== platformId) throw missing();
    const wallet = await this.store.loadWallet(state.session.accountId);
    if (!wallet.credentials[state.session.credentialId]) throw missing();
    return state.session;
  }
}
