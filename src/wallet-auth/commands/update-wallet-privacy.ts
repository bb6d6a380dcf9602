import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InternalAccountsQuery } from '../../accounts';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { validateBody } from '../../infra/http/validation';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { WALLET_ACTIVITY_TYPES } from '../../shared/wallet-payloads';
import { walletAccountNotFound } from '../domain/wallet-auth.errors';
import { UpdateWalletPrivacyDto } from '../http/wallet-auth.dto';
import { SignedCallHeaders } from '../services/signed-requests';
import { WalletAccounts } from '../services/wallet-accounts';
import { WalletAuthStore } from '../services/wallet-auth.store';
import { SignedAccountAction } from './signed-account-action';

/** `PATCH /internal-accounts/{id}`: 202 with a payload to sign, then 200 with the account. */
export class UpdateWalletPrivacy extends Command<HttpResult<unknown>> {
  constructor(
    readonly platformId: string,
    readonly accountId: string,
    /** Validated once the account is known to be this platform's wallet (404 first), as before. */
    readonly rawBody: unknown,
    readonly headers: SignedCallHeaders,
  ) {
    super();
  }
}

/** Whether the wallet is private, changed by a retry signed by a live session. */
@CommandHandler(UpdateWalletPrivacy)
export class UpdateWalletPrivacyHandler implements ICommandHandler<UpdateWalletPrivacy, HttpResult<unknown>> {
  constructor(
    private readonly store: WalletAuthStore,
    private readonly accounts: WalletAccounts,
    private readonly internalAccounts: InternalAccountsQuery,
    private readonly signedAction: SignedAccountAction,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  async execute({ platformId, accountId, rawBody, headers }: UpdateWalletPrivacy): Promise<HttpResult<unknown>> {
    await this.accounts.requireWallet(platformId, accountId, 'id');
    const body = validateBody(UpdateWalletPrivacyDto, rawBody);
    const outcome = await this.signedAction.run(platformId, accountId, 'UPDATE_WALLET_PRIVACY', rawBody, headers, {
      type: WALLET_ACTIVITY_TYPES.UPDATE_WALLET_PRIVACY,
      parameters: { privateEnabled: body.privateEnabled },
    });
    if (outcome.kind === 'challenge') return outcome.result;
    await this.store.handleWallet(accountId, {
      type: 'UpdatePrivacy',
      platformId,
      accountId,
      privateEnabled: body.privateEnabled,
      requestId: outcome.requestId,
      now: outcome.now.toISOString(),
    });
    // The answer is the account exactly as GET /internal-accounts now lists it (privateEnabled included).
    await awaitOwnWrites(this.waiter);
    const account = await this.internalAccounts.findById(platformId, accountId);
    if (!account) throw walletAccountNotFound();
    return withStatus(200, account);
  }
}
