import { Module, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AccountsModule } from '../accounts';
import { AuditModule, AuditResourceLocators } from '../audit';
import { CustomerLifecycleHooks } from '../customers';
import { CustomersModule } from '../customers';
import { ReactorRegistry } from '../infra/infra.module';
import { PlatformsModule } from '../platforms';
import { CreateDelegatedKeyHandler } from './commands/create-delegated-key';
import { ExportWalletHandler } from './commands/export-wallet';
import { IssueCredentialChallengeHandler } from './commands/issue-credential-challenge';
import { KeyLogin } from './commands/key-login';
import { LoginCredentials } from './commands/login-credentials';
import { OpenInitialCredential, OpenInitialCredentialHandler } from './commands/open-initial-credential';
import { OtpLogin } from './commands/otp-login';
import { RefreshWalletSessionHandler } from './commands/refresh-wallet-session';
import { RegisterCredentialHandler } from './commands/register-credential';
import { RemoveCredentialHandler } from './commands/remove-credential';
import { RevokeDelegatedKeyHandler } from './commands/revoke-delegated-key';
import { RevokeWalletSessionHandler } from './commands/revoke-wallet-session';
import { SignedAccountAction } from './commands/signed-account-action';
import { UpdateWalletPrivacyHandler } from './commands/update-wallet-privacy';
import { VerifyCredentialHandler } from './commands/verify-credential';
import { CredentialsController } from './http/credentials.controller';
import { DelegatedKeysController } from './http/delegated-keys.controller';
import { SessionsController } from './http/sessions.controller';
import { WalletAccountsController } from './http/wallet-accounts.controller';
import { delegatedKeyAuditLocator } from './queries/delegated-key-audit-locator';
import { DelegatedKeysQuery } from './queries/delegated-keys.query';
import { WalletAuthQuery } from './queries/wallet-auth.query';
import { initialCredentialReactor } from './reactors/initial-credential.reactor';
import { CardFundingScopes } from './services/card-funding-scopes';
import { DelegatedKeySigner } from './services/delegated-key-signer';
import { InitialCredentials } from './services/initial-credentials';
import { OTP_DELIVERY, OtpCodes, UnwiredOtpDelivery } from './services/otp-codes';
import { WalletQuoteSignatureVerifier } from './services/quote-signature.verifier';
import { WalletRateLimiter } from './services/rate-limiter';
import { SignedRequests } from './services/signed-requests';
import { WalletAccounts } from './services/wallet-accounts';
import { WalletAuthStore } from './services/wallet-auth.store';
import { WalletClock } from './services/wallet-clock';
import { WalletSessions } from './services/wallet-sessions';

/**
 * Embedded wallets (issue 7): credentials, login flows, sessions, two-step signed actions, the
 * wallet's export and privacy, the session-key check of quote execution (exported as
 * WalletQuoteSignatureVerifier for the quotes context's verifier port), and delegated signing keys
 * of card funding sources (DelegatedKeySigner, exported for card payments).
 */
@Module({
  imports: [AccountsModule, CustomersModule, PlatformsModule, AuditModule],
  controllers: [CredentialsController, SessionsController, WalletAccountsController, DelegatedKeysController],
  providers: [
    RegisterCredentialHandler,
    RemoveCredentialHandler,
    IssueCredentialChallengeHandler,
    VerifyCredentialHandler,
    RevokeWalletSessionHandler,
    RefreshWalletSessionHandler,
    ExportWalletHandler,
    UpdateWalletPrivacyHandler,
    CreateDelegatedKeyHandler,
    RevokeDelegatedKeyHandler,
    OpenInitialCredentialHandler,
    LoginCredentials,
    OtpLogin,
    KeyLogin,
    SignedAccountAction,
    WalletClock,
    WalletAuthStore,
    WalletAuthQuery,
    DelegatedKeysQuery,
    CardFundingScopes,
    DelegatedKeySigner,
    WalletAccounts,
    SignedRequests,
    WalletSessions,
    WalletRateLimiter,
    OtpCodes,
    { provide: OTP_DELIVERY, useValue: new UnwiredOtpDelivery() },
    InitialCredentials,
    WalletQuoteSignatureVerifier,
  ],
  exports: [WalletQuoteSignatureVerifier, DelegatedKeySigner, WalletAuthQuery, WalletClock],
})
export class WalletAuthModule implements OnModuleInit {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly initialCredentials: InitialCredentials,
    private readonly hooks: CustomerLifecycleHooks,
    private readonly reactors: ReactorRegistry,
    private readonly limiter: WalletRateLimiter,
    private readonly auditLocators: AuditResourceLocators,
    private readonly delegatedKeys: DelegatedKeysQuery,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.limiter.ensureSchema();
    // Runs after the accounts context's hook (AccountsModule is imported, so initialised first),
    // once the wallet account exists: the POST /customers answer then includes the credential.
    this.hooks.onCustomerCreated('wallet-initial-credential', async (customer) => {
      const wallet = await this.initialCredentials.walletOfCustomer({ platformId: customer.platformId, customerId: customer.customerId });
      if (wallet) await this.commandBus.execute(new OpenInitialCredential(wallet.platformId, wallet.accountId, wallet.customerId, wallet.openedAt));
    });
    this.reactors.register(initialCredentialReactor(this.commandBus));
    this.auditLocators.register(delegatedKeyAuditLocator(this.delegatedKeys));
  }
}
