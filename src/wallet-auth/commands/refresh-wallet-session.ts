import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { WALLET_ACTIVITY_TYPES } from '../../shared/wallet-payloads';
import { walletUnauthorized } from '../domain/wallet-auth.errors';
import { SignedCallHeaders, SignedRequests, readSignedCall } from '../services/signed-requests';
import { WalletAccounts } from '../services/wallet-accounts';
import { WalletAuthStore } from '../services/wallet-auth.store';
import { WalletClock } from '../services/wallet-clock';
import { WalletSessions } from '../services/wallet-sessions';
import { SESSION_LIFETIME_MS } from '../wallet-auth.constants';

/** `POST /auth/sessions/{id}/refresh`: 202 with a payload to sign, then 201 with the new session. */
export class RefreshWalletSession extends Command<HttpResult<unknown>> {
  constructor(
    readonly platformId: string,
    readonly sessionId: string,
    /** The new session's key (checked by the controller: a P-256 public key in hex). */
    readonly clientPublicKey: string,
    /** The body as received: the signed retry must repeat it exactly. */
    readonly rawBody: unknown,
    readonly headers: SignedCallHeaders,
  ) {
    super();
  }
}

/** Signed by the session being refreshed itself; the new session has the key bound on the first call. */
@CommandHandler(RefreshWalletSession)
export class RefreshWalletSessionHandler implements ICommandHandler<RefreshWalletSession, HttpResult<unknown>> {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly accounts: WalletAccounts,
    private readonly signed: SignedRequests,
    private readonly sessions: WalletSessions,
  ) {}

  async execute({ platformId, sessionId, clientPublicKey, rawBody, headers }: RefreshWalletSession): Promise<HttpResult<unknown>> {
    const now = this.clock.now();
    // A session that has ended cannot vouch for a new one: log in again instead.
    const session = await this.sessions.requireLive(platformId, sessionId, now, () =>
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
        boundPublicKey: clientPublicKey,
        activity: {
          type: WALLET_ACTIVITY_TYPES.REFRESH_SESSION,
          parameters: { sessionId, targetPublicKey: clientPublicKey, expirationSeconds: String(SESSION_LIFETIME_MS / 1000) },
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
}
