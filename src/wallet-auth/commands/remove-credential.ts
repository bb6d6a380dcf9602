import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { WALLET_ACTIVITY_TYPES } from '../../shared/wallet-payloads';
import { credentialCount } from '../domain/wallet/wallet.decider';
import { WalletAuthQuery } from '../queries/wallet-auth.query';
import { credentialNotFound, lastCredentialError } from '../domain/wallet-auth.errors';
import { SignedCallHeaders, SignedRequests, readSignedCall } from '../services/signed-requests';
import { WalletAccounts } from '../services/wallet-accounts';
import { WalletAuthStore } from '../services/wallet-auth.store';
import { WalletSessions } from '../services/wallet-sessions';
import { WalletClock } from '../services/wallet-clock';

/** `DELETE /auth/credentials/{id}`: 202 with a payload to sign, then 204. */
export class RemoveCredential extends Command<HttpResult<unknown>> {
  constructor(
    readonly platformId: string,
    readonly credentialId: string,
    readonly headers: SignedCallHeaders,
  ) {
    super();
  }
}

/**
 * The first call answers 202 with a payload to sign, then the retry signed by a live
 * session of ANOTHER credential of the wallet removes it (204). The last credential stays (400
 * INVALID_INPUT, reason LAST_CREDENTIAL), on both calls. Its sessions end with it.
 */
@CommandHandler(RemoveCredential)
export class RemoveCredentialHandler implements ICommandHandler<RemoveCredential, HttpResult<unknown>> {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly query: WalletAuthQuery,
    private readonly accounts: WalletAccounts,
    private readonly signed: SignedRequests,
    private readonly sessions: WalletSessions,
  ) {}

  async execute({ platformId, credentialId, headers }: RemoveCredential): Promise<HttpResult<unknown>> {
    const location = await this.query.findCredential(platformId, credentialId);
    if (!location) throw credentialNotFound();
    const call = readSignedCall(headers);
    const accountId = location.accountId;
    const wallet = await this.store.loadWallet(accountId);
    const credential = wallet.credentials[credentialId];
    if (!credential) throw credentialNotFound();
    if (credentialCount(wallet) <= 1) throw lastCredentialError();
    const now = this.clock.now();
    if (call.kind === 'first') {
      const { challenge } = await this.signed.issue({
        platformId,
        accountId,
        action: 'DELETE_CREDENTIAL',
        targetId: credentialId,
        credentialType: credential.credentialType,
        body: {},
        credentialSetVersion: wallet.credentialSetVersion,
        activity: { type: WALLET_ACTIVITY_TYPES.DELETE_CREDENTIAL, parameters: { credentialId, credentialType: credential.credentialType } },
        now,
      });
      return withStatus(202, challenge);
    }
    const { request } = await this.signed.redeem({
      scope: { platformId, accountId, action: 'DELETE_CREDENTIAL', targetId: credentialId },
      retry: call,
      body: {},
      credentialSetVersion: wallet.credentialSetVersion,
      sandbox: this.accounts.sandbox,
      authorise: async (verified) => (await this.sessions.authorise(platformId, accountId, verified, { excludeCredentialId: credentialId }, now)).sessionId,
      now,
    });
    await this.store.handleWallet(accountId, {
      type: 'RemoveCredential',
      platformId,
      accountId,
      credentialId,
      expectedCredentialSetVersion: request.credentialSetVersion,
      requestId: request.requestId,
      now: now.toISOString(),
    });
    return withStatus(204, undefined);
  }
}
