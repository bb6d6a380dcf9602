import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { ValidationError } from '../../infra/domain/domain-error';
import { HttpResult, withStatus } from '../../infra/http/http-result';
import { validateBody } from '../../infra/http/validation';
import { WALLET_ACTIVITY_TYPES } from '../../shared/wallet-payloads';
import { UNCOMPRESSED_CLIENT_PUBLIC_KEY_PATTERN, checkClientPublicKey, sealWalletCredentials } from '../crypto/credential-bundle';
import { ClientPublicKeyDto } from '../http/wallet-auth.dto';
import { SignedCallHeaders } from '../services/signed-requests';
import { WalletAccounts } from '../services/wallet-accounts';
import { WalletAuthStore } from '../services/wallet-auth.store';
import { vaultIds } from '../wallet-auth.constants';
import { SignedAccountAction } from './signed-account-action';

/** The wallet secret: 32 random bytes, created on first export and kept sealed in the KeyVault. */
const WALLET_SECRET_BYTES = 32;

/** `POST /internal-accounts/{id}/export`: 202 with a payload to sign, then 200 with the sealed secret. */
export class ExportWallet extends Command<HttpResult<unknown>> {
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

/** The wallet secret HPKE-sealed to an uncompressed client key, signed by a live session. */
@CommandHandler(ExportWallet)
export class ExportWalletHandler implements ICommandHandler<ExportWallet, HttpResult<unknown>> {
  constructor(
    private readonly store: WalletAuthStore,
    private readonly accounts: WalletAccounts,
    private readonly signedAction: SignedAccountAction,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
  ) {}

  async execute({ platformId, accountId, rawBody, headers }: ExportWallet): Promise<HttpResult<unknown>> {
    await this.accounts.requireWallet(platformId, accountId, 'id');
    const body = validateBody(ClientPublicKeyDto, rawBody);
    const key = checkClientPublicKey(body.clientPublicKey);
    if (!key.ok || key.format !== 'uncompressed') {
      throw new ValidationError([
        { field: 'clientPublicKey', constraint: { pattern: UNCOMPRESSED_CLIENT_PUBLIC_KEY_PATTERN.source }, message: 'clientPublicKey must be an uncompressed P-256 public key in hex (04 followed by 128 hex digits)' },
      ]);
    }
    const outcome = await this.signedAction.run(platformId, accountId, 'EXPORT_WALLET', rawBody, headers, {
      type: WALLET_ACTIVITY_TYPES.EXPORT_WALLET,
      parameters: { targetPublicKey: body.clientPublicKey },
    });
    if (outcome.kind === 'challenge') return outcome.result;
    const secret = await this.walletSecret(accountId);
    const encryptedWalletCredentials = await sealWalletCredentials(secret, body.clientPublicKey);
    await this.store.handleWallet(accountId, { type: 'RecordExport', platformId, accountId, requestId: outcome.requestId, now: outcome.now.toISOString() });
    return withStatus(200, { id: accountId, encryptedWalletCredentials });
  }

  private async walletSecret(accountId: string): Promise<Buffer> {
    const id = vaultIds.walletSecret(accountId);
    await this.vault.sealOnce(id, 'wallet-secret', randomBytes(WALLET_SECRET_BYTES));
    const secret = await this.vault.open(id);
    if (!secret) throw new Error('wallet secret could not be opened');
    return secret;
  }
}
