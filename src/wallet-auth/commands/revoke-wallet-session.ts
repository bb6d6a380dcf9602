import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { WALLET_ACTIVITY_TYPES } from '../../shared/wallet-payloads';
import { sessionNotFound } from '../domain/wallet-auth.errors';
import { SignedCallHeaders, SignedRequests, readSignedCall } from '../services/signed-requests';
import { WalletAccounts } from '../services/wallet-accounts';
import { WalletAuthStore } from '../services/wallet-auth.store';
import { WalletClock } from '../services/wallet-clock';
import { WalletSessions } from '../services/wallet-sessions';

/** `DELETE /auth/sessions/{id}`: 202 with a payload to sign, then 204. */
export class RevokeWalletSession extends Command<HttpResult<unknown>> {
  constructor(
    readonly platformId: string,
    readonly sessionId: string,
    readonly headers: SignedCallHeaders,
  ) {
    super();
  }
}

/** Any live session of the wallet may sign the revocation of a live session. */
@CommandHandler(RevokeWalletSession)
export class RevokeWalletSessionHandler implements ICommandHandler<RevokeWalletSession, HttpResult<unknown>> {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly accounts: WalletAccounts,
    private readonly signed: SignedRequests,
    private readonly sessions: WalletSessions,
  ) {}

  async execute({ platformId, sessionId, headers }: RevokeWalletSession): Promise<HttpResult<unknown>> {
    const now = this.clock.now();
    const session = await this.sessions.requireLive(platformId, sessionId, now, () => sessionNotFound());
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
}
