import { Module, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AccountsModule } from '../accounts';
import { CustomerLifecycleHooks } from '../customers';
import { CustomersModule } from '../customers';
import { ReactorRegistry } from '../infra/infra.module';
import { PlatformsModule } from '../platforms';
import { ExportWalletHandler } from './commands/export-wallet';
import { IssueCredentialChallengeHandler } from './commands/issue-credential-challenge';
import { KeyLogin } from './commands/key-login';
import { LoginCredentials } from './commands/login-credentials';
import { OpenInitialCredential, OpenInitialCredentialHandler } from './commands/open-initial-credential';
import { OtpLogin } from './commands/otp-login';
import { RefreshWalletSessionHandler } from './commands/refresh-wallet-session';
import { RegisterCredentialHandler } from './commands/register-credential';
import { RemoveCredentialHandler } from './commands/remove-credential';
import { RevokeWalletSessionHandler } from './commands/revoke-wallet-session';
import { SignedAccountAction } from './commands/signed-account-action';
import { UpdateWalletPrivacyHandler } from './commands/update-wallet-privacy';
import { VerifyCredentialHandler } from './commands/verify-credential';
import { CredentialsController } from './http/credentials.controller';
import { SessionsController } from './http/sessions.controller';
import { WalletAccountsController } from './http/wallet-accounts.controller';
import { WalletAuthQuery } from './queries/wallet-auth.query';
import { initialCredentialReactor } from './reactors/initial-credential.reactor';
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
 * wallet's export and privacy, and the session-key check of quote execution (exported as
 * WalletQuoteSignatureVerifier for the quotes context's verifier port).
 */
@Module({
  imports: [AccountsModule, CustomersModule, PlatformsModule],
  controllers: [CredentialsController, SessionsController, WalletAccountsController],
  providers: [
    RegisterCredentialHandler,
    RemoveCredentialHandler,
    IssueCredentialChallengeHandler,
    VerifyCredentialHandler,
    RevokeWalletSessionHandler,
    RefreshWalletSessionHandler,
    ExportWalletHandler,
    UpdateWalletPrivacyHandler,
    OpenInitialCredentialHandler,
    LoginCredentials,
    OtpLogin,
    KeyLogin,
    SignedAccountAction,
    WalletClock,
    WalletAuthStore,
    WalletAuthQuery,
    WalletAccounts,
    SignedRequests,
    WalletSessions,
    WalletRateLimiter,
    OtpCodes,
    { provide: OTP_DELIVERY, useValue: new UnwiredOtpDelivery() },
    InitialCredentials,
    WalletQuoteSignatureVerifier,
  ],
  exports: [WalletQuoteSignatureVerifier, WalletAuthQuery, WalletClock],
})
export class WalletAuthModule implements OnModuleInit {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly initialCredentials: InitialCredentials,
    private readonly hooks: CustomerLifecycleHooks,
    private readonly reactors: ReactorRegistry,
    private readonly limiter: WalletRateLimiter,
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
  }
}
