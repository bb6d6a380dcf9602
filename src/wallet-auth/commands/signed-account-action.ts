import { Injectable } from '@nestjs/common';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { WALLET_ACTIVITY_TYPES } from '../../shared/wallet-payloads';
import { SignedCallHeaders, SignedRequests, readSignedCall } from '../services/signed-requests';
import { WalletAccounts } from '../services/wallet-accounts';
import { WalletAuthStore } from '../services/wallet-auth.store';
import { WalletClock } from '../services/wallet-clock';
import { WalletSessions } from '../services/wallet-sessions';

export type SignedAccountOutcome = { kind: 'challenge'; result: HttpResult<unknown> } | { kind: 'signed'; requestId: string; now: Date };

/**
 * The two steps shared by the signed actions on the wallet account itself (ExportWallet,
 * UpdateWalletPrivacy): the first call answers 202 with a payload to sign, the retry signed by a
 * live session of the wallet lets the command go on.
 */
@Injectable()
export class SignedAccountAction {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly accounts: WalletAccounts,
    private readonly signed: SignedRequests,
    private readonly sessions: WalletSessions,
  ) {}

  async run(
    platformId: string,
    accountId: string,
    action: 'EXPORT_WALLET' | 'UPDATE_WALLET_PRIVACY',
    rawBody: unknown,
    headers: SignedCallHeaders,
    activity: { type: (typeof WALLET_ACTIVITY_TYPES)[keyof typeof WALLET_ACTIVITY_TYPES]; parameters: Record<string, unknown> },
  ): Promise<SignedAccountOutcome> {
    const call = readSignedCall(headers);
    const now = this.clock.now();
    const wallet = await this.store.loadWallet(accountId);
    const scope = { platformId, accountId, action, targetId: accountId };
    if (call.kind === 'first') {
      const { challenge } = await this.signed.issue({ ...scope, credentialType: null, body: rawBody, credentialSetVersion: wallet.credentialSetVersion, activity, now });
      return { kind: 'challenge', result: withStatus(202, challenge) };
    }
    const { request } = await this.signed.redeem({
      scope,
      retry: call,
      body: rawBody,
      credentialSetVersion: wallet.credentialSetVersion,
      sandbox: this.accounts.sandbox,
      authorise: async (verified) => (await this.sessions.authorise(platformId, accountId, verified, {}, now)).sessionId,
      now,
    });
    return { kind: 'signed', requestId: request.requestId, now };
  }
}
