import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { InternalAccountsQuery } from '../../accounts';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { ValidationError } from '../../infra/domain/domain-error';
import { READ_MODEL_WAITER, ReadModelWaiter, awaitOwnWrites } from '../../infra/projections/read-model-waiter';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { validateBody } from '../../infra/http/validation';
import { WALLET_ACTIVITY_TYPES } from '../../shared/wallet-payloads';
import { UNCOMPRESSED_CLIENT_PUBLIC_KEY_PATTERN, checkClientPublicKey, sealWalletCredentials } from '../crypto/credential-bundle';
import { ClientPublicKeyDto, UpdateWalletPrivacyDto } from '../http/wallet-auth.dto';
import { vaultIds } from '../wallet-auth.constants';
import { walletAccountNotFound } from '../domain/wallet-auth.errors';
import { SignedCallHeaders, SignedRequests, readSignedCall } from './signed-requests';
import { WalletAccounts } from './wallet-accounts';
import { WalletAuthStore } from './wallet-auth.store';
import { WalletSessions } from './wallet-sessions';
import { WalletClock } from './wallet-clock';

/** The wallet secret: 32 random bytes, created on first export and kept sealed in the KeyVault. */
const WALLET_SECRET_BYTES = 32;

/**
 * Signed actions on the wallet account itself: `POST /internal-accounts/{id}/export` (the wallet
 * secret HPKE-sealed to an uncompressed client key) and `PATCH /internal-accounts/{id}` (privacy).
 * Both are two-step: 202 with a payload to sign, then the retry signed by a live session.
 */
@Injectable()
export class WalletAccountActions {
  constructor(
    private readonly clock: WalletClock,
    private readonly store: WalletAuthStore,
    private readonly accounts: WalletAccounts,
    private readonly internalAccounts: InternalAccountsQuery,
    private readonly signed: SignedRequests,
    private readonly sessions: WalletSessions,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
    @Inject(READ_MODEL_WAITER) private readonly waiter: ReadModelWaiter,
  ) {}

  async export(platformId: string, accountId: string, rawBody: unknown, headers: SignedCallHeaders): Promise<HttpResult<unknown>> {
    await this.accounts.requireWallet(platformId, accountId, 'id');
    const body = validateBody(ClientPublicKeyDto, rawBody);
    const key = checkClientPublicKey(body.clientPublicKey);
    if (!key.ok || key.format !== 'uncompressed') {
      throw new ValidationError([
        { field: 'clientPublicKey', constraint: { pattern: UNCOMPRESSED_CLIENT_PUBLIC_KEY_PATTERN.source }, message: 'clientPublicKey must be an uncompressed P-256 public key in hex (04 followed by 128 hex digits)' },
      ]);
    }
    const outcome = await this.signedAction(platformId, accountId, 'EXPORT_WALLET', rawBody, headers, {
      type: WALLET_ACTIVITY_TYPES.EXPORT_WALLET,
      parameters: { targetPublicKey: body.clientPublicKey },
    });
    if (outcome.kind === 'challenge') return outcome.result;
    const secret = await this.walletSecret(accountId);
    const encryptedWalletCredentials = await sealWalletCredentials(secret, body.clientPublicKey);
    await this.store.handleWallet(accountId, { type: 'RecordExport', platformId, accountId, requestId: outcome.requestId, now: outcome.now.toISOString() });
    return withStatus(200, { id: accountId, encryptedWalletCredentials });
  }

  async updatePrivacy(platformId: string, accountId: string, rawBody: unknown, headers: SignedCallHeaders): Promise<HttpResult<unknown>> {
    await this.accounts.requireWallet(platformId, accountId, 'id');
    const body = validateBody(UpdateWalletPrivacyDto, rawBody);
    const outcome = await this.signedAction(platformId, accountId, 'UPDATE_WALLET_PRIVACY', rawBody, headers, {
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

  /** Whether the wallet is private (false until a signed PATCH says otherwise). */
  async privacy(accountId: string): Promise<boolean> {
    return (await this.store.loadWallet(accountId)).privateEnabled;
  }

  private async signedAction(
    platformId: string,
    accountId: string,
    action: 'EXPORT_WALLET' | 'UPDATE_WALLET_PRIVACY',
    rawBody: unknown,
    headers: SignedCallHeaders,
    activity: { type: (typeof WALLET_ACTIVITY_TYPES)[keyof typeof WALLET_ACTIVITY_TYPES]; parameters: Record<string, unknown> },
  ): Promise<{ kind: 'challenge'; result: HttpResult<unknown> } | { kind: 'signed'; requestId: string; now: Date }> {
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

  private async walletSecret(accountId: string): Promise<Buffer> {
    const id = vaultIds.walletSecret(accountId);
    await this.vault.sealOnce(id, 'wallet-secret', randomBytes(WALLET_SECRET_BYTES));
    const secret = await this.vault.open(id);
    if (!secret) throw new Error('wallet secret could not be opened');
    return secret;
  }
}
