import { Inject, Injectable } from '@nestjs/common';
import { InternalAccountDetails, InternalAccountsQuery } from '../../accounts';
import { APP_CONFIG, AppConfig } from '../../infra/config';
import { KEY_VAULT, KeyVault } from '../../infra/crypto/key-vault';
import { P256KeyPair } from '../../infra/crypto/p256';
import { ValidationError } from '../../infra/domain/domain-error';
import { parseId } from '../../infra/ids';
import { EmbeddedWalletConfig } from '../../platforms';
import { PlatformConfigQuery, WALLET_ENCLAVE_KEY } from '../../platforms';
import { walletAccountNotFound } from '../domain/wallet-auth.errors';

/**
 * Facts from other contexts the wallet flows need: the embedded wallet account (accounts
 * context), the platform's WebAuthn settings (platforms context), the enclave key and the mode.
 */
@Injectable()
export class WalletAccounts {
  constructor(
    private readonly accounts: InternalAccountsQuery,
    private readonly platformConfig: PlatformConfigQuery,
    @Inject(KEY_VAULT) private readonly vault: KeyVault,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get sandbox(): boolean {
    return this.config.mode === 'sandbox';
  }

  /**
   * The platform's EMBEDDED_WALLET account, or 404 for unknown ids and other platforms' accounts.
   * Another account type is 400 on `field` (it has no credentials to sign with).
   */
  async requireWallet(platformId: string, accountId: string, field = 'accountId'): Promise<InternalAccountDetails> {
    if (!parseId('InternalAccount', accountId)) {
      throw new ValidationError([{ field, constraint: { format: 'InternalAccount-id' }, message: `${field} must be an InternalAccount:<uuid> id` }]);
    }
    const account = await this.accounts.findDetails(platformId, accountId);
    if (!account) throw walletAccountNotFound();
    if (account.accountType !== 'EMBEDDED_WALLET') {
      throw new ValidationError([{ field, constraint: {}, message: `${field} must be an EMBEDDED_WALLET internal account` }]);
    }
    return account;
  }

  async webAuthnConfig(platformId: string): Promise<EmbeddedWalletConfig> {
    const config = await this.platformConfig.findRaw(platformId);
    if (!config) throw walletAccountNotFound();
    return config.embeddedWalletConfig;
  }

  enclaveKey(): Promise<P256KeyPair> {
    return this.vault.serviceKey(WALLET_ENCLAVE_KEY);
  }
}
